// The special page types of the page-type table (page-types/: donate 203, contribution
// confirmed 204, membership confirmed 208, reviews request 209, digital product composer
// preview 210, newsletter unsubscribe 300, commerce email preview 301), each on the demo site's
// own content file, each showing its own content.
import { describe, expect, it } from 'vitest';
import { ensureFirstOwner } from '../admin/first-owner.ts';
import { OWNER_COOKIE } from '../admin/owner-auth.ts';
import { unsubscribeLink, unsubscribeSecret, unsubscribeToken } from '../mail/newsletter-unsubscribe.ts';
import { CRUMB } from '../test-support/api-harness.ts';
import { DEMO_PASSWORD, demoSite, setCookies, sfContext, useDemoHarness } from '../test-support/page-harness.ts';

const h = useDemoHarness();

const main = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));

/** GETs a page, insists on its status, page type and a clean render; returns `<main>`. */
async function page(url: string, pageType: number, options: { status?: number; cookies?: Record<string, string> } = {}): Promise<string> {
  const response = await h.inject({ url, cookies: options.cookies });
  const info = h.lastPage();
  expect({ url, status: response.statusCode, pageType: info?.pageType, diagnostics: info?.diagnostics.map((d) => `${d.source}:${d.line} ${d.code}`), problems: info?.problems }).toEqual({
    url,
    status: options.status ?? 200,
    pageType,
    diagnostics: [],
    problems: [],
  });
  if (response.statusCode === 200) expect(sfContext(response.body).pageType).toBe(pageType);
  return main(response.body);
}

async function websiteId(): Promise<string> {
  return (await h.store.read.getSite())!.websiteId;
}

describe('donate (203) and contribution confirmed (204)', () => {
  it('offers the content file’s amounts as one labelled choice that leads to the thank-you page', async () => {
    const html = await page('/donate', 203);
    expect(html).toContain('<form class="sf-donate-form" method="get" action="/thank-you">');
    expect(html).toContain('<legend>Give to the dye-vat fund</legend>');
    expect([...html.matchAll(/<label class="sf-donate-amount"><input type="radio" name="amount" value="(\d+)"( checked)?> ([^<]+)<\/label>/g)].map((m) => [m[1], m[2] ?? '', m[3]])).toEqual([
      ['1000', ' checked', '$10.00'],
      ['2500', '', '$25.00'],
      ['5000', '', '$50.00'],
    ]);
    expect(html).toContain('free indigo workshops');
  });

  it('thanks the visitor for the amount given, and for a contribution when the amount is not one', async () => {
    expect(await page('/thank-you?amount=2500', 204)).toContain('Thank you for your contribution of <strong>$25.00</strong> to the dye-vat fund.');
    for (const bad of ['/thank-you', '/thank-you?amount=-5', '/thank-you?amount=abc', '/thank-you?amount=99999999999', '/thank-you?amount=0']) {
      const html = await page(bad, 204);
      expect(html, bad).toContain('<p class="sf-contribution-thanks">Thank you for your contribution.</p>');
    }
  });
});

describe('membership confirmed (208)', () => {
  it('asks a visitor to sign in, and greets a signed-in member with the member pages', async () => {
    expect(await page('/membership-welcome', 208)).toContain('Sign in with your member account to see your membership.');
    const signIn = await h.inject({
      method: 'POST', url: '/api/site-users/account/session', cookies: { crumb: CRUMB }, headers: { 'x-csrf-token': CRUMB },
      payload: { email: 'demo@example.com', password: DEMO_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    const token = signIn.cookies.find((c) => c.name === 'SiteUserSecureAuthToken')!.value;
    const html = await page('/membership-welcome', 208, { cookies: { SiteUserSecureAuthToken: token } });
    expect(html).toContain('<p class="sf-membership-welcome">Welcome, demo. Your membership is active.</p>');
    expect(html).toContain('<ul class="sf-membership-pages"><li><a href="/members">Members</a></li></ul>');
  });
});

describe('reviews request (209)', () => {
  it('names the product bought and links to its page; without a product it is the plain request', async () => {
    const html = await page('/review?productId=tee', 209);
    expect(html).toMatch(/How do you like your <a href="\/shop\/tee">[^<]+<\/a>\?/);
    expect(html).toMatch(/<p class="sf-review-summary">(No reviews yet: yours would be the first\.|Reviews so far: \d+, rated \d\.\d out of 5 on average\.)<\/p>/);
    for (const url of ['/review', '/review?productId=nope']) {
      expect(await page(url, 209), url).toContain('Thank you for shopping with us. The link in your order email opens this page with the review form for what you bought.');
    }
  });

  it('has the review form (a labelled 1–5 radio group, name, text) and lists approved reviews, not pending ones', async () => {
    const reviews = h.store.read.reviews;
    const base = { websiteId: sfContext((await h.inject('/review?productId=tee')).body).websiteId as string, productId: 'tee', rating: 5, createdOn: 1 };
    await reviews.add({ ...base, id: 'rv-ok', name: 'Ada', text: 'Soft <and> well cut.', status: 'approved' });
    await reviews.add({ ...base, id: 'rv-wait', name: 'Bo', text: 'Not yet moderated.', status: 'pending' });
    const html = await page('/review?productId=tee', 209);
    expect(html).toContain('<div class="sf-review-form-island" data-island="review-form"><form class="sf-review-form" data-product-id="tee" novalidate>');
    expect(html).toContain('<fieldset class="sf-review-rating-choices"><legend>Rating <span class="required">*</span></legend><label class="sf-review-star"><input type="radio" name="rating" value="1"> 1 star</label>');
    expect(html.match(/type="radio" name="rating"/g)).toHaveLength(5);
    expect(html).toContain('<label for="sf-review-name">Name <span class="required">*</span></label><input id="sf-review-name" name="name"');
    expect(html).toContain('<label for="sf-review-text">Review <span class="required">*</span></label><textarea id="sf-review-text" name="text"');
    // Required like the checkout's and site forms' fields, and marked so: a star in the label, aria-required on the control.
    expect(html.match(/aria-required="true"/g)).toHaveLength(2);
    expect(html).toContain('<li class="sf-review"><p class="sf-review-stars">5 out of 5</p><p>Soft &lt;and&gt; well cut.</p><footer>Ada</footer></li>');
    expect(html).not.toContain('Not yet moderated.');
    expect(await page('/review', 209)).not.toContain('sf-review-form');
  });

  it("shows no product of a collection the visitor cannot open (password-protected and locked, member-only and signed out): the plain request, as for an unknown product; unlocked or signed in, the product", async () => {
    const site = await demoSite();
    const guard = (change: { password?: string; memberArea?: boolean }) => {
      const entries = site.entries.map((entry) => (entry.slug === 'shop' ? { ...entry, ...change } : entry));
      h.setSite({ ...site, entries, bySlug: new Map(entries.map((entry) => [entry.slug, entry])) });
    };
    const plain = 'Thank you for shopping with us. The link in your order email opens this page with the review form for what you bought.';
    try {
      guard({ password: 'pw' });
      // Probe: the page named the Classic Tee, its picture, price and link while /shop showed its lock.
      let html = await page('/review?productId=tee', 209);
      expect(html).not.toContain('Classic Tee');
      expect(html).not.toContain('sf-review-form');
      expect(html).toContain(plain);
      const unlock = await h.inject({ method: 'POST', url: '/unlock', payload: 'scope=shop&password=pw&returnTo=%2Fshop', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      const cookie = setCookies(unlock).map((c) => c.split(';')[0]!).find((c) => c.startsWith('sf_unlock'))!;
      expect(cookie).toBeDefined();
      const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
      expect(await page('/review?productId=tee', 209, { cookies: { [name]: value } })).toContain('sf-review-form');

      guard({ memberArea: true });
      html = await page('/review?productId=tee', 209);
      expect(html).not.toContain('Classic Tee');
      expect(html).toContain(plain);
      const signIn = await h.inject({
        method: 'POST',
        url: '/api/site-users/account/session',
        cookies: { crumb: CRUMB },
        headers: { 'x-csrf-token': CRUMB },
        payload: { email: 'demo@example.com', password: DEMO_PASSWORD },
      });
      const token = signIn.cookies.find((c) => c.name === 'SiteUserSecureAuthToken')!.value;
      expect(await page('/review?productId=tee', 209, { cookies: { SiteUserSecureAuthToken: token } })).toMatch(/How do you like your <a href="\/shop\/tee">Classic Tee<\/a>\?/);
    } finally {
      h.setSite(site);
    }
  });
});

describe('digital product composer preview (210)', () => {
  it('shows a digital product as its buyer sees it, at its sale price; anything else is not found', async () => {
    const html = await page('/digital-preview?productId=ebook', 210);
    expect(html).toContain('<h1>Field Guide (e-book)</h1>');
    expect(html).toContain('<p class="sf-composer-price">Price <span>$8.00</span></p>');
    expect(html).toContain('An illustrated guide, delivered as EPUB.');
    expect(html).toContain('A download link arrives by email as soon as the order is paid.');
    // The file the buyer downloads, with its size in units of 1024.
    expect(await page('/digital-preview?productId=poster', 210)).toMatch(/<p class="sf-product-download">Digital download: poster\.pdf[^<]*2\.4 MB[^<]*<\/p>/);
    await page('/digital-preview?productId=tee', 100, { status: 404 });
    await page('/digital-preview', 100, { status: 404 });
  });
});

describe('newsletter unsubscribe (300)', () => {
  const email = 'Reader@Example.com';

  async function link(address: string): Promise<string> {
    const secret = await unsubscribeSecret(h.store.read, h.clock.now);
    return unsubscribeLink('http://shop.example', '/unsubscribe', address, unsubscribeToken(secret, await websiteId(), address));
  }

  it('asks, then removes the address the signed link names and says so', async () => {
    await h.store.read.addToMailingList(email, 'newsletter', h.clock.now);
    await h.store.read.addToMailingList('other@example.com', 'newsletter', h.clock.now);
    const url = new URL(await link(email));
    const path = url.pathname + url.search;
    const asking = await page(path, 300);
    expect(asking).toContain('Unsubscribe <strong>Reader@Example.com</strong> from the');
    // Opening the link changes nothing: only the button does.
    expect(await h.store.read.isOnMailingList(email)).toBe(true);
    const form = /<form class="sf-unsubscribe-form" method="post" action="\/newsletter\/unsubscribe">([\s\S]*?)<\/form>/.exec(asking)![1]!;
    const fields = Object.fromEntries([...form.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]!.replaceAll('&amp;', '&')]));
    expect(fields).toMatchObject({ email, returnTo: path });
    const posted = await h.inject({ method: 'POST', url: '/newsletter/unsubscribe', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(path);
    expect(await h.store.read.isOnMailingList(email)).toBe(false);
    expect((await h.store.read.listMailingList()).map((entry) => entry.email)).toEqual(['other@example.com']);
    expect(await page(path, 300)).toContain('<p class="sf-unsubscribe-done" role="status"><strong>Reader@Example.com</strong> is unsubscribed: it gets no more newsletters from');
  });

  it('refuses a link whose token is not the address’s own, and a form with a wrong token removes nothing', async () => {
    await h.store.read.addToMailingList('victim@example.com', 'newsletter', h.clock.now);
    const mine = new URL(await link('me@example.com'));
    const forged = `/unsubscribe?email=victim%40example.com&token=${mine.searchParams.get('token')}`;
    for (const url of [forged, '/unsubscribe', '/unsubscribe?email=victim%40example.com', '/unsubscribe?email=victim%40example.com&token=' + 'x'.repeat(500)]) {
      const html = await page(url, 300);
      expect(html, url).toContain('This unsubscribe link is not valid.');
      expect(html, url).not.toContain('<form class="sf-unsubscribe-form"');
    }
    const posted = await h.inject({
      method: 'POST', url: '/newsletter/unsubscribe', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: 'victim@example.com', token: mine.searchParams.get('token')!, returnTo: 'https://evil.example/' }).toString(),
    });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe('/');
    expect(await h.store.read.isOnMailingList('victim@example.com')).toBe(true);
  });

  it('answers a malformed form with a 400 in the API error shape', async () => {
    const response = await h.inject({ method: 'POST', url: '/newsletter/unsubscribe', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=a%40b.co' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
  });
});

describe('commerce email preview (301)', () => {
  it('renders, for a signed-in owner only, the order receipt and the restock notice as the outbox sends them', async () => {
    await page('/email-preview', 100, { status: 404 });
    await ensureFirstOwner(h.store, { ADMIN_EMAIL: 'owner@shop.test', ADMIN_PASSWORD: 'owner-password-1' });
    const signIn = await h.inject({ method: 'POST', url: '/api/admin/session', payload: { email: 'owner@shop.test', password: 'owner-password-1' } });
    expect(signIn.statusCode).toBe(200);
    const owner = signIn.cookies.find((c) => c.name === OWNER_COOKIE)!.value;
    const html = await page('/email-preview', 301, { cookies: { [OWNER_COOKIE]: owner } });
    expect(html).toMatch(/<h2 id="sf-email-order-receipt">Order receipt<\/h2>\n<p class="sf-email-subject">Subject: <strong>Your order #1001 from [^<]+<\/strong><\/p>/);
    expect(html).toContain('<div class="sf-email-html"><h1>Order #1001</h1>');
    expect(html).toContain('This is a test order: no payment was taken.');
    expect(html).toMatch(/<h2 id="sf-email-restock-notice">Restock notice<\/h2>\n<p class="sf-email-subject">Subject: <strong>[^<]+ is back in stock<\/strong><\/p>/);
    // As a send words it: the variant, the shop, and the product's page under its collection.
    expect(html).toMatch(/<pre class="sf-email-text">Good news: [^<]+ is back in stock at [^<]+\.\n\nOrder it here: http:\/\/[^<\s]+\/[a-z0-9-]+\n<\/pre>/);
  });
});

describe('special landing pages', () => {
  it('stay out of the navigation and the sitemap; the donate page is listed', async () => {
    const sitemap = (await h.inject('/sitemap.xml')).body;
    expect(sitemap).toContain('/donate</loc>');
    for (const slug of ['thank-you', 'membership-welcome', 'review', 'digital-preview', 'unsubscribe', 'email-preview']) expect(sitemap).not.toContain(`/${slug}</loc>`);
    const nav = /<nav class="sf-nav[^"]*"[^>]*>(.*?)<\/nav>/.exec((await h.inject('/')).body)?.[1] ?? '';
    for (const slug of ['donate', 'thank-you', 'unsubscribe', 'email-preview']) expect(nav).not.toContain(`/${slug}"`);
  });
});

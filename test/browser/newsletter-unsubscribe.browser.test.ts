// [browser] newsletter unsubscribe (page type 300, issue 18 acceptance: "newsletter
// unsubscribe removes the address"), in Chromium against the real server: a reader signs up
// with the home page's newsletter form, opens the signed link a mail would carry, presses
// Unsubscribe, and the page says the address is off the list, which the store confirms. A
// link with another address's token changes nothing. Both pages, and every other special page
// type (203–301), are axe-clean on a desktop and a phone.
import { describe, expect, inject, test } from 'vitest';
import { ensureFirstOwner } from '../../renderer/admin/first-owner.ts';
import { unsubscribeLink, unsubscribeSecret, unsubscribeToken } from '../../renderer/mail/newsletter-unsubscribe.ts';
import { axeViolations } from './support/axe.ts';
import { VIEWPORTS, viewportShot } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

describe.skipIf(!chromiumPath)(`newsletter unsubscribe in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  /** The path and query of the link a mail to `email` would carry. */
  async function linkFor(email: string, tokenOf = email): Promise<string> {
    const store = tier.server.store.read;
    const secret = await unsubscribeSecret(store, Date.now());
    const websiteId = (await store.getSite())!.websiteId;
    const url = new URL(unsubscribeLink(tier.server.url, '/unsubscribe', email, unsubscribeToken(secret, websiteId, tokenOf)));
    return url.pathname + url.search;
  }

  const onList = async (email: string) => (await tier.server.store.read.listMailingList()).some((entry) => entry.email === email);

  test('a signed-up reader opens the link, presses Unsubscribe and is off the list', async () => {
    const v = await tier.newVisitor();
    await visit(v.page, '/');
    const form = v.page.locator('form[data-island="site-form"][data-newsletter="true"]');
    await form.locator('input[type="email"]').fill('reader@example.com');
    await form.locator('.sf-form-submit').click();
    await form.locator('.sf-form-submission').waitFor({ state: 'visible' });
    expect(await onList('reader@example.com')).toBe(true);

    const link = await linkFor('reader@example.com');
    expect(await visit(v.page, link)).toBe(200);
    const question = v.page.locator('.sf-unsubscribe-question');
    expect(await question.innerText()).toContain('Unsubscribe reader@example.com from the');
    // Opening the link alone removes nothing.
    expect(await onList('reader@example.com')).toBe(true);
    for (const [name, size] of Object.entries(VIEWPORTS)) {
      await v.page.setViewportSize(size);
      expect(await axeViolations(v.page), name).toEqual([]);
      await viewportShot(v.page, `newsletter-unsubscribe-1-asking-${name}`);
    }

    await v.page.getByRole('button', { name: 'Unsubscribe' }).click();
    const done = v.page.getByRole('status').filter({ hasText: 'is unsubscribed' });
    await done.waitFor({ state: 'visible' });
    expect(await done.innerText()).toMatch(/^reader@example\.com is unsubscribed: it gets no more newsletters from /);
    expect(new URL(v.page.url()).pathname).toBe('/unsubscribe');
    expect(await onList('reader@example.com')).toBe(false);
    for (const [name, size] of Object.entries(VIEWPORTS)) {
      await v.page.setViewportSize(size);
      expect(await axeViolations(v.page), name).toEqual([]);
      await viewportShot(v.page, `newsletter-unsubscribe-2-done-${name}`);
    }
  });

  test('a link made with another address’s token says it is not valid and keeps the address', async () => {
    await tier.server.store.read.addToMailingList('kept@example.com', 'newsletter', Date.now());
    const v = await tier.newVisitor();
    expect(await visit(v.page, await linkFor('kept@example.com', 'stranger@example.com'))).toBe(200);
    expect(await v.page.locator('.sf-unsubscribe-invalid').innerText()).toBe('This unsubscribe link is not valid. Use the link in the newsletter you received.');
    expect(await v.page.getByRole('button', { name: 'Unsubscribe' }).count()).toBe(0);
    expect(await axeViolations(v.page)).toEqual([]);
    expect(await onList('kept@example.com')).toBe(true);
  });

  test('every special page type shows its own content with no serious or critical axe finding', async () => {
    await ensureFirstOwner(tier.server.store, { ADMIN_EMAIL: 'owner@shop.test', ADMIN_PASSWORD: 'owner-password-1' });
    const v = await tier.newVisitor();
    // The email preview is the owner's: sign in as the owner in this browser first.
    const signIn = await v.context.request.post('/api/admin/session', { data: { email: 'owner@shop.test', password: 'owner-password-1' } });
    expect(signIn.status()).toBe(200);
    const pages: [string, string, string][] = [
      ['/donate', '.sf-donate-form', 'Give to the dye-vat fund'],
      ['/thank-you?amount=2500', '.sf-contribution-thanks', 'Thank you for your contribution of $25.00 to the dye-vat fund.'],
      ['/membership-welcome', '.sf-membership-signin', 'Sign in with your member account'],
      ['/review?productId=tee', '.sf-review-product', 'How do you like your'],
      ['/digital-preview?productId=ebook', '.sf-composer-price', 'Price $8.00'],
      ['/email-preview', '.sf-email', 'Order receipt'],
    ];
    for (const [path, selector, text] of pages) {
      expect(await visit(v.page, path), path).toBe(200);
      expect(await v.page.locator(selector).first().innerText(), path).toContain(text);
      for (const [name, size] of Object.entries(VIEWPORTS)) {
        await v.page.setViewportSize(size);
        expect(await axeViolations(v.page), `${path} ${name}`).toEqual([]);
      }
      await viewportShot(v.page, `special-page${path.replace(/[/?=&]+/g, '-')}-phone`);
    }
  });
});

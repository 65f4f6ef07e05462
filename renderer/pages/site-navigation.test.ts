import { describe, expect, it } from 'vitest';
import { CRUMB } from '../test-support/api-harness.ts';
import { DEMO_PASSWORD, demoSite, useDemoHarness, withConfig, withPage } from '../test-support/page-harness.ts';
import { LOCK_HINTS, navigation, siteNavigations } from './site-navigation.ts';

const paths = (links: readonly { path?: unknown }[]) => links.map((link) => link.path);

describe('navigation', () => {
  it('marks the link of the current page and of the pages under it', async () => {
    const site = await demoSite();
    const active = (path: string) => navigation(site, path, false).filter((link) => link.active).map((link) => link.path);
    expect(active('/')).toEqual([]);
    expect(active('/journal')).toEqual(['/journal']);
    expect(active('/shop')).toEqual(['/shop']);
    expect(active('/shop/tee')).toEqual(['/shop']);
    expect(active('/shopping')).toEqual([]);
    expect(active('/no-such-page')).toEqual([]);
  });

  it('shares one list per path and member state, and stays right after many different paths', async () => {
    const site = await demoSite();
    expect(navigation(site, '/shop/tee', false)).toBe(navigation(site, '/shop/tee', false));
    expect(navigation(site, '/shop/tee', true)).not.toBe(navigation(site, '/shop/tee', false));
    for (let i = 0; i < 1000; i++) navigation(site, `/junk-${i}`, i % 2 === 0);
    expect(navigation(site, '/shop/tee', false).filter((link) => link.active).map((link) => link.path)).toEqual(['/shop']);
    expect(navigation(site, '/junk-3', true).some((link) => link.active)).toBe(false);
  });
});

describe('the seed\'s _hidden and _memberareas navigations (issue 18)', () => {
  it('the demo: a hidden page in no navigation, the members page only for members, a locked page with its hint', async () => {
    const site = await demoSite();
    const navs = siteNavigations(site);
    expect(paths(navs.hidden)).toEqual(['/wholesale']);
    expect(navs.memberAreas).toEqual([{ title: 'Members', path: '/members', memberArea: true, lockHint: LOCK_HINTS.membersOnly }]);
    expect(navs.main.find((link) => link.path === '/lookbook')).toEqual({ title: 'Lookbook', path: '/lookbook', lockHint: 'This page is locked' });
    expect(paths(navigation(site, '/', false))).toEqual(['/shop', '/journal', '/events', '/gallery', '/about', '/contact', '/lookbook']);
    expect(paths(navigation(site, '/', true))).toEqual(['/shop', '/journal', '/events', '/gallery', '/about', '/contact', '/lookbook', '/members']);
    expect(navigation(site, '/members', true).at(-1)).toMatchObject({ path: '/members', active: true, lockHint: 'This page available only site members' });
  });

  it('the default navigation (no site.json list): main files in file order, home first; false, _hidden and member areas left out', async () => {
    let site = withConfig(await demoSite(), { navigation: [] });
    site = withPage(site, 'secret-sale', [], { navigation: '_hidden' });
    site = withPage(site, 'vault', [], { navigation: '_memberareas' }, { memberArea: true });
    site = withPage(site, 'club-only', [], {}, { memberArea: true });
    site = withPage(site, 'stockists', [], { navigation: true });
    const visitor = paths(navigation(site, '/', false));
    expect(visitor[0]).toBe('/');
    expect(visitor).toContain('/stockists');
    for (const path of ['/secret-sale', '/vault', '/club-only', '/members', '/wholesale']) expect(visitor).not.toContain(path);
    const member = paths(navigation(site, '/', true));
    expect(member.slice(-2)).toEqual(['/members', '/vault']);
    expect(member).not.toContain('/club-only');
    expect(paths(siteNavigations(site).hidden)).toEqual(['/wholesale', '/secret-sale']);
  });

  it('a site.json link to a member-area page shows to members only, once', async () => {
    const demo = await demoSite();
    const site = withConfig(demo, { navigation: [{ title: 'Shop', path: '/shop' }, { title: 'Members', path: '/members' }] });
    expect(navigation(site, '/', false)).toEqual([{ title: 'Shop', path: '/shop', active: false }]);
    expect(navigation(site, '/', true)).toEqual([
      { title: 'Shop', path: '/shop', active: false },
      { title: 'Members', path: '/members', memberArea: true, lockHint: LOCK_HINTS.membersOnly, active: false },
    ]);
  });
});

describe('pages: hidden and member-area navigation as served', () => {
  const h = useDemoHarness();
  const navOf = (html: string) => /<nav class="sf-nav demo-nav"[^>]*>(.*?)<\/nav>/.exec(html)?.[1] ?? '';
  const linkNames = (html: string) => [...navOf(html).matchAll(/<a href="([^"]+)"[^>]*>(.*?)<\/a>/g)].map((m) => `${m[1]} ${m[2]!.replace(/<[^>]+>/g, '')}`);

  async function signedIn(): Promise<Record<string, string>> {
    const response = await h.inject({
      method: 'POST',
      url: '/api/site-users/account/session',
      cookies: { crumb: CRUMB },
      headers: { 'x-csrf-token': CRUMB },
      payload: { email: 'demo@example.com', password: DEMO_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    return { SiteUserSecureAuthToken: response.cookies.find((c) => c.name === 'SiteUserSecureAuthToken')!.value };
  }

  it('a visitor: the hidden page answers 200 and is linked nowhere; no Members link; the locked page carries its hint', async () => {
    const hidden = await h.inject({ url: '/wholesale' });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.body).toContain('<h2 class="sf-block sf-heading-block">Stocking Quire</h2>');
    const home = await h.inject({ url: '/' });
    expect(home.body).not.toContain('href="/wholesale"');
    expect(linkNames(home.body)).toEqual([
      '/shop Shop', '/journal Journal', '/events Events', '/gallery Gallery', '/about About', '/contact Contact', '/lookbook Lookbook (This page is locked)',
    ]);
    expect(navOf(home.body)).toContain('<a href="/lookbook">Lookbook<span class="demo-nav-lock" title="This page is locked"></span><span class="visually-hidden"> (This page is locked)</span></a>');
    // Hidden is not secret: the sitemap lists it (the password page stays out).
    const sitemap = await h.inject({ url: '/sitemap.xml' });
    expect(sitemap.body).toContain('/wholesale</loc>');
    expect(sitemap.body).not.toContain('/lookbook</loc>');
    expect(sitemap.body).not.toContain('/members</loc>');
  });

  it('the locked pages say so with the seed\'s hints: the password page (105) and the member area (106)', async () => {
    const locked = await h.inject({ url: '/lookbook' });
    expect(locked.statusCode).toBe(200);
    expect(locked.body).toContain('<p class="demo-lock-hint">This page is locked</p>');
    expect(locked.body).not.toContain('Next season, first look');
    const denied = await h.inject({ url: '/members' });
    expect(denied.statusCode).toBe(403);
    expect(denied.body).toContain('<p class="demo-lock-hint">This page available only site members</p>');
  });

  it('a signed-in member: the Members link follows the main links, marked members-only, current on its page', async () => {
    const cookies = await signedIn();
    const home = await h.inject({ url: '/', cookies });
    expect(linkNames(home.body).slice(-2)).toEqual(['/lookbook Lookbook (This page is locked)', '/members Members (This page available only site members)']);
    const members = await h.inject({ url: '/members', cookies });
    expect(members.statusCode).toBe(200);
    expect(navOf(members.body)).toContain('<a href="/members" aria-current="page">Members<span class="demo-nav-lock" title="This page available only site members">');
    // Still nothing links the hidden page.
    expect(members.body).not.toContain('href="/wholesale"');
  });
});

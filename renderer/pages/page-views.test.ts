import { describe, expect, it } from 'vitest';
import { demoSite } from '../test-support/page-harness.ts';
import { navigation } from './page-views.ts';

describe('navigation', () => {
  it('marks the link of the current page and of the pages under it', async () => {
    const site = await demoSite();
    const active = (path: string) => navigation(site, path).filter((link) => link.active).map((link) => link.path);
    expect(active('/')).toEqual([]);
    expect(active('/journal')).toEqual(['/journal']);
    expect(active('/shop')).toEqual(['/shop']);
    expect(active('/shop/tee')).toEqual(['/shop']);
    expect(active('/shopping')).toEqual([]);
    expect(active('/no-such-page')).toEqual([]);
  });

  it('shares one list per path, and stays right after many different paths', async () => {
    const site = await demoSite();
    expect(navigation(site, '/shop/tee')).toBe(navigation(site, '/shop/tee'));
    for (let i = 0; i < 1000; i++) navigation(site, `/junk-${i}`);
    expect(navigation(site, '/shop/tee').filter((link) => link.active).map((link) => link.path)).toEqual(['/shop']);
    expect(navigation(site, '/junk-3').some((link) => link.active)).toBe(false);
  });
});

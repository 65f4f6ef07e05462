import { describe, expect, it } from 'vitest';
import { normalizeConfig } from '../site/load-site.ts';
import { demoSeed, demoSite, reseed, sfContext, useDemoHarness, withConfig } from '../test-support/page-harness.ts';

// `sf-context.platform`: what turns on the browser platform clients (hydrate/platform/),
// driven by the site file and switched off with C4's tracking-disabled.

const h = useDemoHarness({ resetEach: true });
const site = await demoSite();

const platformOf = async (url: string) => sfContext((await h.inject(url)).body).platform;

describe('site file → platform settings', () => {
  it('a site file without `platform` turns all three clients on, against the site itself', () => {
    const platform = normalizeConfig({}).platform;
    expect(platform).toMatchObject({ legacyTracking: true, clankerTracking: true, performance: true, environment: 'prod', eventsHosts: { staging: '', production: '' } });
  });

  it('the site file can turn single clients off and choose the events host; `false` turns the member off', () => {
    const platform = normalizeConfig({
      platform: { performance: false, environment: 'staging', eventsHosts: { staging: 'https://events.example.test', production: 'javascript:alert(1)' } },
    }).platform;
    expect(platform).toMatchObject({ legacyTracking: true, clankerTracking: true, performance: false, environment: 'staging' });
    // Only a bare origin may redirect the beacons.
    expect(platform?.eventsHosts).toEqual({ staging: 'https://events.example.test', production: '' });
    expect(normalizeConfig({ platform: false }).platform).toBeNull();
    // `platform` is a renderer setting, not a `website.*` value for templates.
    expect(normalizeConfig({ platform: false }).extra).not.toHaveProperty('platform');
  });
});

describe('sf-context.platform on pages', () => {
  it('the demo store turns every client on for its pages', async () => {
    for (const url of ['/', '/shop/tee', '/about']) {
      expect(await platformOf(url)).toMatchObject({ legacyTracking: true, clankerTracking: true, performance: true, environment: 'prod' });
    }
  });

  it('a page whose page view is skipped for another reason keeps the member (performance records still go)', async () => {
    const context = sfContext((await h.inject('/search?q=tee')).body);
    expect(context.tracking.skipPageView).toBe('search');
    expect(context.platform).toMatchObject({ performance: true });
  });

  it('no member when the site file or the store disables tracking, or the site file says `platform: false`', async () => {
    h.setSite(withConfig(site, { trackingDisabled: true }));
    for (const url of ['/', '/shop/tee', '/no-such-page']) {
      const context = sfContext((await h.inject(url)).body);
      expect(context.tracking.skipPageView).toBe('tracking-disabled');
      expect(context).not.toHaveProperty('platform');
    }
    h.setSite(withConfig(site, { platform: null }));
    expect(await platformOf('/shop')).toBeUndefined();
    h.setSite(site);
    await reseed(h.store, await demoSeed((seed) => { seed.site.settings!.trackingDisabled = true; }));
    expect(await platformOf('/shop')).toBeUndefined();
  });
});

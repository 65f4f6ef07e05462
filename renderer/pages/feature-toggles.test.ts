import { describe, expect, it } from 'vitest';
import { EMPTY_SITE_FEATURES } from '../../hydrate/shared/feature-toggles.ts';
import { demoSite, sfContext, useDemoHarness, withConfig } from '../test-support/page-harness.ts';

// Feature toggles on pages (issue 18): a toggle switched off in the site folder or by the
// admin takes its feature out of the page, and sf-context.experiments carries the toggles.

describe('feature toggles on pages', () => {
  const h = useDemoHarness({ resetEach: true });
  const html = async (url: string) => {
    const response = await h.inject(url);
    expect(response.statusCode).toBe(200);
    return response.body;
  };
  const QUICK_VIEW = 'sqs-product-quick-view-button';
  const BNPL = 'data-island="bnpl"';

  it('by default the shop has Quick View, the product its BNPL pill, and the context the toggles', async () => {
    expect(await html('/shop')).toContain(QUICK_VIEW);
    const product = await html('/shop/tee');
    expect(product).toContain(BNPL);
    expect(sfContext(product).experiments).toMatchObject({
      bnpl: { experimentType: 'FEATURE_TOGGLE', variant: 'true' },
      'quick-view': { experimentType: 'FEATURE_TOGGLE', variant: 'true' },
      'session-recording': { experimentType: 'FEATURE_TOGGLE', variant: 'false' },
    });
  });

  it('switched off in site.json: no Quick View button, no BNPL pill or context', async () => {
    const site = await demoSite();
    h.setSite(withConfig(site, { features: { features: { bnpl: false, 'quick-view': false }, experiments: {} } }));
    const shop = await html('/shop');
    expect(shop).not.toContain(QUICK_VIEW);
    expect(shop).toContain('sf-product-card');
    const product = await html('/shop/tee');
    expect(product).not.toContain(BNPL);
    const context = sfContext(product);
    expect(context.bnpl).toBeNull();
    expect(context.experiments['quick-view'].variant).toBe('false');
  });

  it("the admin's stored override wins over the folder, and is gone once deleted", async () => {
    h.setSite(withConfig(await demoSite(), { features: EMPTY_SITE_FEATURES }));
    const row = (await h.store.read.getSite())!;
    await h.store.transaction((repo) => repo.putSiteFeatures(row.websiteId, { features: { 'quick-view': false }, experiments: { 'commerce-activation-session-recording': { variant: 'enabled', segmentName: 'a' } } }, 1));
    expect(await html('/shop')).not.toContain(QUICK_VIEW);
    const context = sfContext(await html('/shop'));
    expect(context.experiments['commerce-activation-session-recording']).toMatchObject({ experimentType: 'AB_TEST', variant: 'enabled', segmentName: 'a' });
    await h.store.transaction((repo) => repo.deleteSiteFeatures(row.websiteId));
    expect(await html('/shop')).toContain(QUICK_VIEW);
  });
});

// The review form of the reviews request page (209, issue 18) in Debian's Chromium against the
// real server: an empty send says each error next to its field (aria-describedby,
// aria-invalid) and focuses the first; a filled one is stored pending moderation and the
// thank-you, focused, shows the review as sent. Axe on desktop and phone.
import { describe, expect, inject, test } from 'vitest';
import { REVIEW_FIELD_TEXT, REVIEW_THANKS } from '../../hydrate/shared/review-rules.ts';
import { axeViolations } from './support/axe.ts';
import { VIEWPORTS, viewportShot } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { holdIslands, pageContext, visit, waitForBoot } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

describe.skipIf(!chromiumPath)(`review form in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  // A print sold only to members: its collection is the member-only Members page.
  const tier = useBrowserTier(chromiumPath!, {
    seed: (catalog) => {
      catalog.products!.push({ id: 'member-print', title: 'Members Print', urlSlug: 'member-print', collectionId: 'members', productType: 1, variants: [{ id: 'mp-1', sku: 'MP-1', priceCents: 4000, qtyInStock: 5 }] });
      return catalog;
    },
  });

  test('errors next to their fields, then a review stored pending and shown as sent; axe desktop and phone', async () => {
    const v = await tier.newVisitor();
    expect(await visit(v.page, '/review?productId=tee')).toBe(200);
    await waitForBoot(v.page);
    await v.page.locator('[data-island="review-form"][data-hydrated="true"]').waitFor();
    expect(await axeViolations(v.page)).toEqual([]);
    const form = v.page.locator('.sf-review-form');

    await form.getByRole('button', { name: 'Send review' }).click();
    const described = async (field: string) => {
      const id = await v.page.locator(field).getAttribute('aria-describedby');
      return id ? v.page.locator(`#${id}`).textContent() : null;
    };
    await expect.poll(() => described('.sf-review-rating-choices')).toBe(REVIEW_FIELD_TEXT.rating);
    expect(await described('#sf-review-name')).toBe(REVIEW_FIELD_TEXT.name);
    expect(await described('#sf-review-text')).toBe(REVIEW_FIELD_TEXT.text);
    expect(await v.page.locator('#sf-review-name').getAttribute('aria-invalid')).toBe('true');
    // Focus goes to the first field to fix: the rating group's first choice.
    expect(await v.page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('rating');
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'review-form-1-errors-desktop');

    await form.getByRole('group', { name: 'Rating' }).getByRole('radio', { name: '4 stars' }).check();
    await form.getByLabel('Name').fill('Ada');
    await form.getByLabel('Review').fill('Soft, and the print survived forty washes.');
    const [answer] = await Promise.all([
      v.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/reviews'),
      form.getByRole('button', { name: 'Send review' }).click(),
    ]);
    expect(answer.status()).toBe(200);
    const thanks = v.page.locator('.sf-review-thanks');
    await thanks.waitFor();
    expect(await thanks.textContent()).toContain(REVIEW_THANKS);
    expect(await thanks.textContent()).toContain('awaiting moderation');
    await expect.poll(() => v.page.evaluate(() => document.activeElement?.className)).toBe('sf-review-thanks');
    expect(await form.isVisible()).toBe(false);
    const websiteId = (await pageContext(v.page)).websiteId as string;
    const stored = await tier.server.store.read.reviews.list(websiteId, 'tee', 'pending', 10);
    expect(stored.map((r) => [r.rating, r.name])).toEqual([[4, 'Ada']]);
    expect(await axeViolations(v.page)).toEqual([]);
    await v.page.setViewportSize(VIEWPORTS.phone);
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'review-form-2-sent-phone');
  });
  test('pressed before the island is ready the review is not sent as a GET: no navigation, the text stays, and the button is enabled once ready', async () => {
    const v = await tier.newVisitor();
    const { release, navigations } = await holdIslands(v.page);
    await v.page.goto('/review?productId=tee', { waitUntil: 'commit' });
    const form = v.page.locator('.sf-review-form');
    const button = form.locator('.sf-review-submit');
    await button.waitFor();
    expect(await button.isDisabled()).toBe(true);
    await form.getByLabel('Name').fill('Early Ada');
    await form.getByLabel('Name').press('Enter');
    release();
    await waitForBoot(v.page);
    // Before, the press sent ?rating=&name=Early+Ada&text= to the page itself.
    expect(navigations).toEqual([v.page.url()]);
    expect(new URL(v.page.url()).searchParams.has('name')).toBe(false);
    expect(await form.getByLabel('Name').inputValue()).toBe('Early Ada');
    expect(await button.isEnabled()).toBe(true);
  });

  test("a member-only product's request, opened signed out, names no product and has no form: the plain request, as for an unknown product; axe clean", async () => {
    const v = await tier.newVisitor();
    expect(await visit(v.page, '/review?productId=member-print')).toBe(200);
    const main = v.page.locator('main');
    // It named the Members Print, with its price and link, to anyone with the address.
    expect(await main.textContent()).not.toContain('Members Print');
    expect(await v.page.locator('.sf-review-form').count()).toBe(0);
    expect(await v.page.locator('a[href="/members/member-print"]').count()).toBe(0);
    expect(await main.textContent()).toContain('Thank you for shopping with us.');
    expect((await pageContext(v.page)).itemId).toBeNull();
    expect(await axeViolations(v.page)).toEqual([]);
    await viewportShot(v.page, 'review-form-member-only-signed-out');
  });
});

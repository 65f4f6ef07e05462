// Edge states a store visitor meets that the journeys passed by, in Debian's Chromium against
// the real server on the demo site: each scenario is a defect found by walking the shop with
// fresh eyes, kept here so that it stays fixed.
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { useBrowserTier } from './support/tier.ts';
import { visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

describe.skipIf(!chromiumPath)(`visitor edge states in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('EDGE-1 the vinyl has a restock box per sold-out edition: each one\'s label and error name its own field (ids unique on the page)', async () => {
    const v = await tier.newVisitor();
    await visit(v.page, '/shop/vinyl');
    const duplicateIds = () =>
      v.page.evaluate(() => {
        const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
        return ids.filter((id, i) => ids.indexOf(id) !== i);
      });
    expect(await duplicateIds()).toEqual([]);
    await v.page.selectOption('.sf-product select[data-variant-option-name="Edition"]', 'Red');
    const red = v.page.locator('.product-restock-notification[data-variant-id="vinyl-red"]');
    await expect.poll(() => red.isVisible()).toBe(true);
    // Clicking the visible box's label puts the cursor in that box's field, not the hidden one's.
    await red.locator('label.product-restock-label').click();
    expect(await red.locator('input[name="email"]').evaluate((el) => el === document.activeElement)).toBe(true);
    await v.page.keyboard.type('foo@bar');
    await v.page.keyboard.press('Enter');
    await expect.poll(() => red.locator('.product-restock-error').textContent()).toBe('Email is invalid');
    const field = v.page.getByRole('textbox', { name: 'Email Address' });
    expect(await field.count()).toBe(1);
    expect(await field.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent)).toBe('Email is invalid');
    expect(await duplicateIds()).toEqual([]);
    expect(await axeViolations(v.page)).toEqual([]);
  });
});

// Colour blocks on the demo's About page in Chromium (issue 18): the renderer picks light or
// dark text by the seed's luminance rule, and what the visitor sees must be readable: every
// text in a colour block has at least the WCAG AA contrast (4.5:1) against the block's colour,
// computed from the styles Chromium applied.
import { describe, expect, inject, test } from 'vitest';
import { useBrowserTier } from './support/tier.ts';
import { visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

describe.skipIf(!chromiumPath)(`colour blocks in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  test('COL-1 light text on the dark block, dark text on the light block, each readable (contrast ≥ 4.5)', async () => {
    const v = await tier.newVisitor();
    expect(await visit(v.page, '/about')).toBe(200);
    const blocks = await v.page.evaluate(() => {
      const rgb = (css: string) => (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      const luminance = ([r, g, b]: number[]) => {
        const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
      };
      const contrast = (a: number[], b: number[]) => {
        const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
        return (hi! + 0.05) / (lo! + 0.05);
      };
      return [...document.querySelectorAll<HTMLElement>('.sf-colour-block')].map((block) => {
        const background = rgb(getComputedStyle(block).backgroundColor);
        return {
          kind: block.className.includes('--light-text') ? 'light' : 'dark',
          contrasts: [...block.querySelectorAll('h2, p')].map((el) => contrast(rgb(getComputedStyle(el).color), background)),
        };
      });
    });
    await v.screenshot('colour-blocks');
    expect(blocks.map((b) => b.kind)).toEqual(['light', 'dark']);
    for (const block of blocks) {
      expect(block.contrasts).toHaveLength(2);
      for (const ratio of block.contrasts) expect(ratio).toBeGreaterThanOrEqual(4.5);
    }
  });
});

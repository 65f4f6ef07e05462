// The demo's pictures as a visitor's browser meets them (issue 16, item 7), in Debian's Chromium
// against the real server: product and gallery images load from the site's image service, the
// browser picks a srcset candidate for its window, the first picture loads at once and the ones
// below the fold wait, every picture is cached for good, and the pages stay clean under axe.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { VIEWPORTS, type ViewportName, viewportShot } from './support/chromium.ts';
import { useBrowserTier } from './support/tier.ts';
import { visit } from './support/visit.ts';

const chromiumPath = inject('chromiumPath');

interface ImageFacts {
  alt: string | null;
  loading: string | null;
  naturalWidth: number;
  /** The srcset candidate the browser chose, as `<n>w`, or null without a srcset. */
  chosen: string | null;
  candidates: string[];
  inViewport: boolean;
}

/** What the page's own DOM says of each matching image. */
function images(page: Page, selector: string): Promise<ImageFacts[]> {
  return page.locator(selector).evaluateAll((nodes) =>
    (nodes as HTMLImageElement[]).map((img) => {
      const candidates = (img.getAttribute('srcset') ?? '').split(',').map((c) => c.trim().split(/\s+/)[0]!).filter(Boolean);
      const chosen = img.currentSrc && candidates.some((c) => new URL(c, location.href).href === img.currentSrc) ? /format=(\d+w)/.exec(img.currentSrc)?.[1] ?? null : null;
      const box = img.getBoundingClientRect();
      return {
        alt: img.getAttribute('alt'),
        loading: img.getAttribute('loading'),
        naturalWidth: img.naturalWidth,
        chosen,
        candidates,
        inViewport: box.bottom > 0 && box.top < innerHeight && box.width > 0,
      };
    }),
  );
}

/**
 * Waits until every matching image inside the window has decoded (a lazy image far below the
 * fold is not fetched, and its decode() would wait for good).
 */
async function loaded(page: Page, selector: string): Promise<void> {
  await page.locator(selector).evaluateAll((nodes) =>
    Promise.all(
      (nodes as HTMLImageElement[]).map((img) => {
        const box = img.getBoundingClientRect();
        const visible = box.bottom > 0 && box.top < innerHeight && box.width > 0;
        return img.complete || !visible ? null : img.decode().catch(() => null);
      }),
    ),
  );
}

const SRCSET_WIDTHS = ['100w', '300w', '500w', '750w', '1000w', '1500w', '2500w'];

describe.skipIf(!chromiumPath)(`demo images in Chromium${chromiumPath ? '' : ` (skipped: ${inject('browserSkipReason')})`}`, () => {
  const tier = useBrowserTier(chromiumPath!);

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    test(`IMG-1 product page (${viewport}): the main picture loads at once from a srcset candidate; variant pictures wait; cached for good`, async () => {
      const v = await tier.newVisitor();
      await v.page.setViewportSize(VIEWPORTS[viewport]);
      const responses: Array<{ url: string; type: string | undefined; cache: string | undefined; status: number }> = [];
      v.page.on('response', (r) => {
        if (new URL(r.url()).pathname.startsWith('/assets/site/images/')) responses.push({ url: r.url(), type: r.headers()['content-type'], cache: r.headers()['cache-control'], status: r.status() });
      });
      await visit(v.page, '/shop/hoodie');
      await loaded(v.page, '.sf-product .sf-product-image');
      const [main] = await images(v.page, '.sf-product .sf-product-image');
      expect(main).toMatchObject({ alt: 'The Harbor Hoodie in navy, with its hood and kangaroo pocket', loading: 'eager', inViewport: true });
      expect(main!.naturalWidth).toBeGreaterThan(0);
      expect(main!.candidates.map((c) => /format=(\d+w)/.exec(c)?.[1])).toEqual(SRCSET_WIDTHS);
      // sizes: the window's width on a phone (390 css px → 500w), 520 px on a desktop (→ 750w).
      expect(main!.chosen).toBe(viewport === 'phone' ? '500w' : '750w');
      // The variant pictures are hidden until chosen, and lazy.
      const variants = await images(v.page, '.sf-product .sf-variant-image');
      expect(variants.map((i) => [i.alt, i.loading])).toEqual([
        ['The Harbor Hoodie in navy', 'lazy'],
        ['The Harbor Hoodie in sand', 'lazy'],
      ]);
      await v.page.selectOption('.sf-product select[data-variant-option-name="Size"]', 'L');
      await v.page.selectOption('.sf-product select[data-variant-option-name="Color"]', 'Sand');
      await expect.poll(() => v.page.locator('.sf-product .sf-variant-image[data-variant-image-for="HD-L-SAND"]').isVisible()).toBe(true);
      await loaded(v.page, '.sf-product .sf-variant-image:not([hidden])');
      const [sand] = await images(v.page, '.sf-product .sf-variant-image:not([hidden])');
      expect(sand!.naturalWidth).toBeGreaterThan(0);
      expect(sand!.chosen).not.toBeNull();
      await viewportShot(v.page, `images-product-${viewport}`);
      // Every picture came from the image service as WebP, named by its hash, cached for a year.
      expect(responses.length).toBeGreaterThan(0);
      for (const response of responses) {
        expect(response).toMatchObject({ status: 200, type: 'image/webp', cache: 'public, max-age=31536000, immutable' });
        expect(response.url).toMatch(/\/assets\/site\/images\/[a-z-]+-[0-9a-f]{8}\.webp\?format=\d+w$/);
      }
      expect(await axeViolations(v.page)).toEqual([]);
    });

    test(`IMG-2 shop and gallery (${viewport}): the first picture at once, the others as they come into view, at the width the layout gives them`, async () => {
      const v = await tier.newVisitor();
      await v.page.setViewportSize(VIEWPORTS[viewport]);
      await visit(v.page, '/shop');
      const cards = await images(v.page, '.sf-product-card img');
      expect(cards).toHaveLength(13);
      // The first card is above the fold: its picture loads at once; the others wait.
      expect(cards.map((c) => c.loading)).toEqual(['eager', ...Array(12).fill('lazy')]);
      expect(cards.every((c) => c.alt !== null && c.alt !== '' && c.candidates.length === 7)).toBe(true);
      expect(cards[0]!.inViewport).toBe(true);
      await loaded(v.page, '.sf-product-card img');
      for (const card of await images(v.page, '.sf-product-card img')) if (card.inViewport) expect(card.naturalWidth).toBeGreaterThan(0);
      // The last card is below the fold; scrolled to, it loads the candidate for its cell
      // (the window's width on a phone → 500w, 260 px on a desktop → 300w).
      expect((await images(v.page, '.sf-product-card img')).at(-1)!.inViewport).toBe(false);
      await v.page.locator('.sf-product-card img').last().scrollIntoViewIfNeeded();
      await expect.poll(async () => (await images(v.page, '.sf-product-card img')).at(-1)!.naturalWidth).toBeGreaterThan(0);
      expect((await images(v.page, '.sf-product-card img')).at(-1)!.chosen).toBe(viewport === 'phone' ? '500w' : '300w');

      await visit(v.page, '/gallery');
      await loaded(v.page, '.sf-gallery-slides img');
      const tiles = await images(v.page, '.sf-gallery-slides img');
      expect(tiles.map((t) => t.loading)).toEqual(['eager', 'lazy', 'lazy', 'lazy', 'lazy', 'lazy']);
      expect(tiles.map((t) => t.alt)).toEqual([
        'Morning light over the print tables.',
        'Twenty tees drying after their third dip.',
        'The new sage mugs, straight out of the box.',
        'Federal blue over fluorescent pink.',
        "Last year's stall, before the crowds.",
        'Posters waiting for their frames.',
      ]);
      expect(tiles[0]!.naturalWidth).toBeGreaterThan(0);
      // The wide first tile: the window on a phone (390 → 500w), 1032 px on a desktop (→ 1500w).
      expect(tiles[0]!.chosen).toBe(viewport === 'phone' ? '500w' : '1500w');
      await viewportShot(v.page, `images-gallery-${viewport}`);
      // The other tiles take the candidate for a grid cell: half the window on a phone → 300w,
      // 340 px on a desktop → 500w.
      await v.page.locator('.sf-gallery-slides img').last().scrollIntoViewIfNeeded();
      await expect.poll(async () => (await images(v.page, '.sf-gallery-slides img')).at(-1)!.naturalWidth).toBeGreaterThan(0);
      expect((await images(v.page, '.sf-gallery-slides img')).at(-1)!.chosen).toBe(viewport === 'phone' ? '300w' : '500w');
      expect(await axeViolations(v.page)).toEqual([]);
    });

    test(`IMG-3 slideshow and a photo's own page (${viewport}): real pictures, first one eager`, async () => {
      const v = await tier.newVisitor();
      await v.page.setViewportSize(VIEWPORTS[viewport]);
      await visit(v.page, '/gallery-slideshow');
      await loaded(v.page, '.sf-gallery-slides img');
      const [first] = await images(v.page, '.sf-gallery-slides img');
      expect(first).toMatchObject({ loading: 'eager', inViewport: true });
      expect(first!.naturalWidth).toBeGreaterThan(0);
      await viewportShot(v.page, `images-slideshow-${viewport}`);
      await visit(v.page, '/gallery/market');
      await loaded(v.page, '.demo-gallery-figure img');
      const [photo] = await images(v.page, '.demo-gallery-figure img');
      expect(photo).toMatchObject({ alt: "Last year's stall, before the crowds.", loading: 'eager' });
      expect(photo!.naturalWidth).toBeGreaterThan(0);
      expect(photo!.chosen).not.toBeNull();
      await visit(v.page, '/');
      await loaded(v.page, '.demo-hero-image');
      const [hero] = await images(v.page, '.demo-hero-image');
      expect(hero!.naturalWidth).toBeGreaterThan(0);
      await viewportShot(v.page, `images-home-${viewport}`);
      expect(await axeViolations(v.page)).toEqual([]);
    });

    test(`IMG-4 journal, a post and an image block (${viewport}): srcset pictures, the first at once, the others as they come into view`, async () => {
      const v = await tier.newVisitor();
      await v.page.setViewportSize(VIEWPORTS[viewport]);
      await visit(v.page, '/journal');
      await loaded(v.page, '.demo-post-image img');
      const posts = await images(v.page, '.demo-post-image img');
      expect(posts.length).toBeGreaterThan(2);
      expect(posts.map((p) => p.loading)).toEqual(['eager', ...Array(posts.length - 1).fill('lazy')]);
      expect(posts.every((p) => p.alt !== null && p.alt !== '' && p.candidates.length === 7)).toBe(true);
      expect(posts[0]).toMatchObject({ alt: 'A bag of coffee beans next to an enamel scoop', inViewport: true });
      expect(posts[0]!.naturalWidth).toBeGreaterThan(0);
      // The lead picture: the window on a phone (390 → 500w), 620 px on a desktop (→ 750w).
      expect(posts[0]!.chosen).toBe(viewport === 'phone' ? '500w' : '750w');
      await v.page.locator('.demo-post-image img').last().scrollIntoViewIfNeeded();
      await expect.poll(async () => (await images(v.page, '.demo-post-image img')).at(-1)!.naturalWidth).toBeGreaterThan(0);
      // A card: the window on a phone (→ 500w), 330 px on a desktop (→ 500w, the first candidate over it).
      expect((await images(v.page, '.demo-post-image img')).at(-1)!.chosen).toBe('500w');
      expect(await axeViolations(v.page)).toEqual([]);

      await visit(v.page, '/journal/coffee-club-turns-one');
      await loaded(v.page, '.demo-post-figure img');
      const [figure] = await images(v.page, '.demo-post-figure img');
      expect(figure).toMatchObject({ alt: 'A bag of coffee beans next to an enamel scoop', loading: 'eager', inViewport: true });
      expect(figure!.naturalWidth).toBeGreaterThan(0);
      expect(figure!.candidates).toHaveLength(7);
      expect(figure!.chosen).toBe(viewport === 'phone' ? '500w' : '750w');
      await viewportShot(v.page, `images-blog-post-${viewport}`);
      expect(await axeViolations(v.page)).toEqual([]);

      await visit(v.page, '/about');
      await loaded(v.page, '.sf-image-block img');
      const [block] = await images(v.page, '.sf-image-block img');
      expect(block).toMatchObject({ alt: "The studio's print tables in morning light", loading: 'eager' });
      expect(block!.naturalWidth).toBeGreaterThan(0);
      expect(block!.chosen).toBe(viewport === 'phone' ? '500w' : '750w');
      expect(await axeViolations(v.page)).toEqual([]);
    });
  }
});

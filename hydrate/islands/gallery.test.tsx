// @vitest-environment happy-dom
// The gallery island (issue 18): settings read through the seed normaliser, the carousel's
// state machine, autoplay on fake timers (held by hover, focus, the pause button, the
// lightbox and reduced motion), keys, swipes and the lightbox as a modal dialog.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { defaultGallerySettings, normalizeGallerySettings } from '../shared/gallery-settings.ts';
import { createPage, press, type Page } from '../test-support/page.ts';
import { carouselReducer, initialCarousel, isPlaying, readGallerySettings, SETTINGS_ATTR } from './gallery.tsx';

let page: Page;
let restoreMedia: (() => void) | null = null;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  restoreMedia?.();
  restoreMedia = null;
  document.querySelectorAll('.sf-gallery-lightbox').forEach((el) => el.parentElement?.remove());
  vi.useRealTimers();
});

const TITLES = ['The studio', 'Indigo dye day', 'Fresh enamel', 'On the press'];

function galleryHtml(settings: unknown, count = TITLES.length): string {
  const attr = settings === undefined ? '' : ` ${SETTINGS_ATTR}="${JSON.stringify(settings).replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
  const items = TITLES.slice(0, count)
    .map((t, i) => `<li class="demo-gallery-tile"><a href="/gallery/p${i}"><img src="/img/p${i}.png" alt="Photo ${t}"/><span class="demo-gallery-caption">${t}</span></a></li>`)
    .join('\n');
  return `<main><div class="sf-gallery" data-island="gallery" data-gallery-label="Studio"${attr}>\n<ul class="demo-gallery-grid sf-gallery-slides">\n${items}\n</ul>\n</div></main>`;
}

const gallery = () => document.querySelector<HTMLElement>('.sf-gallery')!;
const slides = () => [...document.querySelectorAll<HTMLElement>('.sf-gallery-slides > li')];
const index = () => gallery().getAttribute('data-gallery-index');
const lightbox = () => document.querySelector<HTMLElement>('.sf-gallery-lightbox [role="dialog"]');

async function open(settings: unknown, count?: number): Promise<void> {
  page = createPage({ body: galleryHtml(settings, count) });
  await page.boot();
  await page.advance(0);
  expect(page.recoverableErrors).toEqual([]);
  expect(gallery().getAttribute('data-hydrated')).toBe('true');
}

function reducedMotion(on: boolean): void {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    matches: on && query.includes('reduce'),
    media: query,
    addEventListener() {},
    removeEventListener() {},
  })) as unknown as typeof window.matchMedia;
  restoreMedia = () => {
    window.matchMedia = original;
  };
}

describe('reading the settings', () => {
  test('the data attribute goes through the seed normaliser: clamped, defaulted, unknown keys dropped', () => {
    const el = document.createElement('div');
    el.setAttribute(SETTINGS_ATTR, JSON.stringify({ design: 'slider', autoplay: 'true', 'autoplay-duration': 99, padding: -3, junk: 1, 'meta-position': 'nowhere' }));
    const { settings, problem } = readGallerySettings(el);
    expect(problem).toBeNull();
    expect(settings).toEqual({ ...defaultGallerySettings(), design: 'slider', autoplay: true, 'autoplay-duration': 10, padding: 0 });
    expect(settings).toEqual(normalizeGallerySettings({ design: 'slider', autoplay: true, 'autoplay-duration': 10, padding: 0 }));
  });

  test('missing, broken or non-object settings give the defaults; only the broken ones are a problem', () => {
    const el = document.createElement('div');
    expect(readGallerySettings(el)).toEqual({ settings: defaultGallerySettings(), problem: null });
    el.setAttribute(SETTINGS_ATTR, '{design:');
    expect(readGallerySettings(el)).toEqual({ settings: defaultGallerySettings(), problem: 'settings are not JSON' });
    el.setAttribute(SETTINGS_ATTR, '["slideshow"]');
    expect(readGallerySettings(el)).toEqual({ settings: defaultGallerySettings(), problem: 'settings are not an object' });
  });
});

describe('the carousel state machine', () => {
  const slideshow = normalizeGallerySettings({ design: 'slideshow', autoplay: true });

  test('next and prev wrap around; go clamps; an empty carousel never moves', () => {
    let s = initialCarousel(3, false);
    s = carouselReducer(s, { type: 'prev' });
    expect(s.index).toBe(2);
    s = carouselReducer(s, { type: 'next' });
    expect(s.index).toBe(0);
    expect(carouselReducer(s, { type: 'go', index: 9 }).index).toBe(2);
    expect(carouselReducer(s, { type: 'go', index: -4 }).index).toBe(0);
    expect(carouselReducer(initialCarousel(0, false), { type: 'next' }).index).toBe(0);
  });

  test('any hold stops autoplay; releasing one of two keeps it stopped; reduced motion starts held', () => {
    let s = initialCarousel(3, false);
    expect(isPlaying(s, slideshow)).toBe(true);
    s = carouselReducer(carouselReducer(s, { type: 'hold', reason: 'hover' }), { type: 'hold', reason: 'focus' });
    s = carouselReducer(s, { type: 'hold', reason: 'hover' });
    expect(s.holds).toEqual(['hover', 'focus']);
    s = carouselReducer(s, { type: 'release', reason: 'hover' });
    expect(isPlaying(s, slideshow)).toBe(false);
    s = carouselReducer(s, { type: 'release', reason: 'focus' });
    expect(isPlaying(s, slideshow)).toBe(true);
    expect(isPlaying(initialCarousel(3, true), slideshow)).toBe(false);
    // Autoplay needs the flag, a carousel design and more than one slide.
    expect(isPlaying(s, normalizeGallerySettings({ design: 'slideshow' }))).toBe(false);
    expect(isPlaying(s, normalizeGallerySettings({ design: 'grid', autoplay: true }))).toBe(false);
    expect(isPlaying(initialCarousel(1, false), slideshow)).toBe(false);
  });
});

describe('the gallery island', () => {
  test('a slideshow is a named carousel region whose slides say "n of m"; only the shown one is reachable', async () => {
    await open({ design: 'slideshow', controls: true });
    expect(gallery().getAttribute('role')).toBe('region');
    expect(gallery().getAttribute('aria-roledescription')).toBe('carousel');
    expect(gallery().getAttribute('aria-label')).toBe('Studio');
    expect(gallery().getAttribute('data-gallery-design')).toBe('slideshow');
    expect(slides().map((li) => li.getAttribute('aria-label'))).toEqual(['1 of 4', '2 of 4', '3 of 4', '4 of 4']);
    expect(slides().map((li) => li.getAttribute('aria-roledescription'))).toEqual(['slide', 'slide', 'slide', 'slide']);
    expect(slides().map((li) => li.hasAttribute('inert'))).toEqual([false, true, true, true]);
    expect(document.querySelector('.sf-gallery-next')!.getAttribute('aria-label')).toBe('Next photo');
    expect(document.querySelector('.sf-gallery-prev')!.getAttribute('aria-label')).toBe('Previous photo');
    // Not autoplaying: changes are announced politely.
    expect(document.querySelector('.sf-gallery-slides')!.getAttribute('aria-live')).toBe('polite');
  });

  test('autoplay advances every autoplay-duration seconds and wraps', async () => {
    await open({ design: 'slideshow', autoplay: true, 'autoplay-duration': 2 });
    expect(gallery().getAttribute('data-gallery-state')).toBe('playing');
    expect(document.querySelector('.sf-gallery-slides')!.getAttribute('aria-live')).toBe('off');
    await page.advance(1999);
    expect(index()).toBe('0');
    await page.advance(1);
    expect(index()).toBe('1');
    for (const expected of ['2', '3', '0']) {
      await page.advance(2000);
      expect(index()).toBe(expected);
    }
  });

  test('hover and focus pause autoplay; leaving resumes it', async () => {
    await open({ design: 'slideshow', autoplay: true, 'autoplay-duration': 1 });
    await page.act(() => gallery().dispatchEvent(new MouseEvent('mouseenter')));
    expect(gallery().getAttribute('data-gallery-state')).toBe('paused');
    await page.advance(5000);
    expect(index()).toBe('0');
    await page.act(() => gallery().dispatchEvent(new MouseEvent('mouseleave')));
    await page.advance(1000);
    expect(index()).toBe('1');
    await page.act(() => document.querySelector<HTMLElement>('.sf-gallery-next')!.focus());
    expect(gallery().getAttribute('data-gallery-state')).toBe('paused');
    await page.advance(5000);
    expect(index()).toBe('1');
  });

  test('the pause button holds autoplay and says so; pressing it again plays', async () => {
    await open({ design: 'slideshow', autoplay: true, 'autoplay-duration': 1 });
    const toggle = () => document.querySelector<HTMLButtonElement>('.sf-gallery-toggle')!;
    expect(toggle().getAttribute('aria-label')).toBe('Pause slideshow');
    await page.act(() => toggle().click());
    expect(toggle().getAttribute('aria-label')).toBe('Play slideshow');
    await page.act(() => toggle().blur());
    await page.advance(3000);
    expect(index()).toBe('0');
    await page.act(() => toggle().click());
    await page.act(() => toggle().blur());
    await page.advance(1000);
    expect(index()).toBe('1');
  });

  test('prefers-reduced-motion: autoplay does not start', async () => {
    reducedMotion(true);
    await open({ design: 'slideshow', autoplay: true, 'autoplay-duration': 1 });
    expect(gallery().getAttribute('data-gallery-state')).toBe('paused');
    await page.advance(5000);
    expect(index()).toBe('0');
  });

  test('arrow keys, Home and End move; buttons move; thumbnails choose', async () => {
    await open({ design: 'slider', thumbnails: true });
    const link = slides()[0]!.querySelector('a')!;
    await page.act(() => press(link, 'ArrowRight'));
    expect(index()).toBe('1');
    await page.act(() => press(gallery(), 'ArrowLeft'));
    await page.act(() => press(gallery(), 'ArrowLeft'));
    expect(index()).toBe('3');
    await page.act(() => press(gallery(), 'Home'));
    expect(index()).toBe('0');
    await page.act(() => press(gallery(), 'End'));
    expect(index()).toBe('3');
    await page.act(() => document.querySelector<HTMLButtonElement>('.sf-gallery-next')!.click());
    expect(index()).toBe('0');
    const thumbs = [...document.querySelectorAll<HTMLButtonElement>('.sf-gallery-thumb')];
    expect(thumbs.map((b) => b.getAttribute('aria-label'))).toEqual(TITLES.map((t, i) => `Show photo ${i + 1}: ${t}`));
    await page.act(() => thumbs[2]!.click());
    expect(index()).toBe('2');
    expect(thumbs[2]!.getAttribute('aria-current')).toBe('true');
  });

  test('a sideways pointer swipe moves; a short or vertical one does not, and a swipe is not a click', async () => {
    await open({ design: 'slideshow', lightbox: true });
    const list = document.querySelector<HTMLElement>('.sf-gallery-slides')!;
    const swipe = async (dx: number, dy: number) => {
      await page.act(() => {
        list.dispatchEvent(new PointerEvent('pointerdown', { clientX: 200, clientY: 100, pointerId: 1, isPrimary: true, bubbles: true }));
        list.dispatchEvent(new PointerEvent('pointerup', { clientX: 200 + dx, clientY: 100 + dy, pointerId: 1, isPrimary: true, bubbles: true }));
      });
    };
    await swipe(-80, 5);
    expect(index()).toBe('1');
    // The click that follows the swipe's pointerup neither navigates nor opens the lightbox.
    await page.act(() => slides()[1]!.querySelector('a')!.click());
    expect(lightbox()).toBeNull();
    await swipe(80, 0);
    expect(index()).toBe('0');
    await swipe(20, 0);
    await swipe(-60, 90);
    expect(index()).toBe('0');
  });

  test('the lightbox: a named modal dialog, arrows move, Tab stays in, Escape closes and focus returns', async () => {
    await open({ design: 'grid', lightbox: true });
    expect(gallery().hasAttribute('role')).toBe(false);
    const link = slides()[1]!.querySelector('a')!;
    link.focus();
    const clicked = new MouseEvent('click', { bubbles: true, cancelable: true });
    await page.act(() => link.dispatchEvent(clicked));
    expect(clicked.defaultPrevented).toBe(true);
    const dialog = lightbox()!;
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const name = document.getElementById(dialog.getAttribute('aria-labelledby')!)!.textContent;
    expect(name).toBe('Indigo dye day');
    expect(dialog.querySelector('img')!.getAttribute('alt')).toBe('Photo Indigo dye day');
    expect(document.documentElement.classList.contains('sf-dialog-open')).toBe(true);
    expect(document.activeElement?.className).toBe('sf-gallery-lightbox-close');
    await page.act(() => press(document.activeElement!, 'ArrowRight'));
    expect(dialog.querySelector('.sf-gallery-lightbox-count')!.textContent).toBe('3 of 4');
    // Tab from the last control comes back to the first.
    await page.act(() => press(document.activeElement!, 'Tab'));
    expect(dialog.contains(document.activeElement)).toBe(true);
    await page.act(() => press(document.activeElement!, 'Escape'));
    expect(lightbox()).toBeNull();
    expect(document.documentElement.classList.contains('sf-dialog-open')).toBe(false);
    expect(document.activeElement).toBe(link);
  });

  test("the lightbox draws the photo with the seed's image component: the sqs loader's variants, its size, decoding and priority", async () => {
    page = createPage({
      body:
        '<main><div class="sf-gallery" data-island="gallery" data-gallery-label="Studio" data-gallery-settings="{&quot;lightbox&quot;:true}"><ul class="sf-gallery-slides">' +
        '<li><a href="/gallery/a"><img src="/img/a.jpg?format=750w" srcset="/img/a.jpg?format=100w 100w, /img/a.jpg?format=750w 750w" sizes="50vw" width="1200" height="800" alt="Dye vat"/>Dye vat</a></li>' +
        '<li><a href="/gallery/b"><img src="/img/b.png" alt="Plain"/>Plain</a></li></ul></div></main>',
    });
    await page.boot();
    await page.advance(0);
    await page.act(() => slides()[0]!.querySelector('a')!.click());
    const img = lightbox()!.querySelector('img')!;
    expect(img.getAttribute('src')).toBe(`${'/img/a.jpg'}?format=1500w`);
    expect(img.getAttribute('srcset')).toContain('/img/a.jpg?format=2500w 2500w');
    expect(img.getAttribute('sizes')).toBe('100vw');
    expect([img.getAttribute('width'), img.getAttribute('height'), img.getAttribute('decoding'), img.getAttribute('fetchpriority')]).toEqual(['1200', '800', 'async', 'high']);
    expect(img.className).toBe('sf-gallery-lightbox-image');
    expect(img.getAttribute('style')).toContain('display: block');
    // A photo the page wrote without its size keeps a plain image.
    await page.act(() => press(document.activeElement!, 'ArrowRight'));
    expect(lightbox()!.querySelector('img')!.getAttribute('src')).toMatch(/\/img\/b\.png$/);
    expect(lightbox()!.querySelector('.sqs-image-diagnostics')).toBeNull();
  });

  test('a carousel follows the lightbox: closed on another photo, that photo is shown and focused', async () => {
    await open({ design: 'slideshow', lightbox: true });
    const link = slides()[0]!.querySelector('a')!;
    link.focus();
    await page.act(() => link.click());
    await page.act(() => press(document.activeElement!, 'ArrowLeft'));
    await page.act(() => press(document.activeElement!, 'Escape'));
    expect(lightbox()).toBeNull();
    expect(index()).toBe('3');
    expect(document.activeElement).toBe(slides()[3]!.querySelector('a'));
  });

  test('without the lightbox flag a click follows the link', async () => {
    await open({ design: 'stacked' });
    const clicked = new MouseEvent('click', { bubbles: true, cancelable: true });
    slides()[0]!.querySelector('a')!.addEventListener('click', (e) => e.preventDefault());
    await page.act(() => slides()[0]!.querySelector('a')!.dispatchEvent(clicked));
    expect(lightbox()).toBeNull();
    expect(gallery().getAttribute('data-gallery-design')).toBe('stacked');
    expect(slides().some((li) => li.hasAttribute('inert'))).toBe(false);
  });

  test('bad settings JSON: the gallery still works with the defaults (a grid) and the problem is reported', async () => {
    page = createPage({ body: galleryHtml(undefined).replace('data-gallery-label', `${SETTINGS_ATTR}="{oops" data-gallery-label`) });
    await page.boot();
    await page.advance(0);
    expect(gallery().getAttribute('data-gallery-design')).toBe('grid');
    expect(page.handle!.runtime.reporter.queued().filter((r) => r.event === 'gallery_settings')).toHaveLength(1);
  });
});

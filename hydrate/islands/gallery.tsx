import { useEffect, useId, useReducer, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { normalizeGallerySettings, type GallerySettings } from '../shared/gallery-settings.ts';
import { holdPage } from '../runtime/dialog.ts';
import { modalKey } from '../runtime/focus.ts';
import { renderSnapshot, snapshotChildren, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { IslandDefinition } from './island.ts';
import { ImageComponent } from '../platform/image/image-component.tsx';

/**
 * The gallery island (issue 18): the renderer writes every photo as a plain linked list, which
 * works without JavaScript; this island reads the collection's `gallerySettings` (the
 * container's `data-gallery-settings`, through the seed's normaliser) and turns the list into
 * the chosen design. Grid and stacked stay plain layouts; slideshow and slider become a
 * carousel (APG pattern) with autoplay, keyboard and swipe; `lightbox` opens a modal viewer.
 */

export const SETTINGS_ATTR = 'data-gallery-settings';
export const SLIDES_SELECTOR = '.sf-gallery-slides > li';
/** A horizontal move of at least this many CSS pixels, more sideways than vertical, is a swipe. */
export const SWIPE_MIN_PX = 40;
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Settings from the container; bad or missing JSON gives the defaults (and says why). */
export function readGallerySettings(container: Element): { settings: GallerySettings; problem: string | null } {
  const raw = container.getAttribute(SETTINGS_ATTR);
  if (raw === null || raw.trim() === '') return { settings: normalizeGallerySettings({}), problem: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { settings: normalizeGallerySettings({}), problem: 'settings are not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { settings: normalizeGallerySettings({}), problem: 'settings are not an object' };
  }
  return { settings: normalizeGallerySettings(parsed as Record<string, unknown>), problem: null };
}

export function isCarousel(settings: GallerySettings): boolean {
  return settings.design === 'slideshow' || settings.design === 'slider';
}

/** Why autoplay is held: any one of them stops it. */
export type PauseReason = 'hover' | 'focus' | 'user' | 'lightbox' | 'reduced-motion';

export interface CarouselState {
  index: number;
  count: number;
  holds: PauseReason[];
}

export type CarouselAction =
  | { type: 'next' }
  | { type: 'prev' }
  | { type: 'go'; index: number }
  | { type: 'hold'; reason: PauseReason }
  | { type: 'release'; reason: PauseReason };

export function initialCarousel(count: number, reducedMotion: boolean): CarouselState {
  return { index: 0, count, holds: reducedMotion ? ['reduced-motion'] : [] };
}

/** The carousel's state machine: wraps around both ways; holds are a set. */
export function carouselReducer(state: CarouselState, action: CarouselAction): CarouselState {
  const n = state.count;
  switch (action.type) {
    case 'next':
      return n === 0 ? state : { ...state, index: (state.index + 1) % n };
    case 'prev':
      return n === 0 ? state : { ...state, index: (state.index - 1 + n) % n };
    case 'go':
      return n === 0 || !Number.isInteger(action.index) ? state : { ...state, index: Math.min(n - 1, Math.max(0, action.index)) };
    case 'hold':
      return state.holds.includes(action.reason) ? state : { ...state, holds: [...state.holds, action.reason] };
    case 'release':
      return state.holds.includes(action.reason) ? { ...state, holds: state.holds.filter((r) => r !== action.reason) } : state;
  }
}

export function isPlaying(state: CarouselState, settings: GallerySettings): boolean {
  return settings.autoplay && isCarousel(settings) && state.count > 1 && state.holds.length === 0;
}

interface Slide {
  href: string;
  src: string;
  alt: string;
  title: string;
  /** The photo's intrinsic size as the page wrote it (image-component); null when unknown. */
  width: number | null;
  height: number | null;
  /** The asset URL without its width variant when the page used the sqs loader, else null. */
  sqsBase: string | null;
}

const positive = (value: string | null | undefined): number | null => {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : null;
};

/** `…/photo.jpg?format=750w` -> `…/photo.jpg`: the lightbox asks the loader for its own variants. */
function sqsBaseOf(img: HTMLImageElement | null): string | null {
  const src = img?.getAttribute('src') ?? '';
  if (!img?.getAttribute('srcset')?.includes('format=') || !/[?&]format=/.test(src)) return null;
  return src.replace(/([?&])format=[^&#]*&?/, '$1').replace(/[?&](#|$)/, '$1');
}

function readSlides(container: HTMLElement): Slide[] {
  return [...container.querySelectorAll<HTMLElement>(SLIDES_SELECTOR)].map((li) => {
    const img = li.querySelector('img');
    const alt = img?.getAttribute('alt') ?? '';
    return {
      href: li.querySelector('a')?.getAttribute('href') ?? '',
      src: img?.currentSrc || img?.getAttribute('src') || '',
      alt,
      title: (li.textContent ?? '').trim() || alt,
      width: positive(img?.getAttribute('width')),
      height: positive(img?.getAttribute('height')),
      sqsBase: sqsBaseOf(img),
    };
  });
}

function slideElements(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(SLIDES_SELECTOR)];
}

/** The theme's knobs: the numeric settings as custom properties, the others as data attributes. */
function applySettings(container: HTMLElement, settings: GallerySettings, label: string): void {
  container.setAttribute('data-gallery-design', settings.design);
  container.setAttribute('data-gallery-aspect', settings['aspect-ratio']);
  container.setAttribute('data-gallery-meta', settings['show-meta'] ? 'shown' : settings['show-meta-on-hover'] ? 'hover' : 'hidden');
  container.setAttribute('data-gallery-meta-position', settings['meta-position']);
  container.setAttribute('data-gallery-align', settings['active-alignment']);
  container.toggleAttribute('data-gallery-crop', settings['auto-crop']);
  container.toggleAttribute('data-gallery-square-thumbs', settings['square-thumbs']);
  container.style.setProperty('--sf-gallery-padding', `${settings.padding}px`);
  container.style.setProperty('--sf-gallery-columns', String(settings['thumbnails-per-row']));
  container.style.setProperty('--sf-gallery-thumb-height', `${settings['thumbnail-strip-height']}px`);
  container.style.setProperty('--sf-gallery-thumb-margin', `${settings['thumbnail-strip-margin']}px`);
  if (isCarousel(settings)) {
    container.setAttribute('role', 'region');
    container.setAttribute('aria-roledescription', 'carousel');
    container.setAttribute('aria-label', label);
  }
  container.setAttribute('data-gallery-ready', 'true');
}

function Lightbox({ slides, start, theme, onClose, doc }: { slides: Slide[]; start: number; theme: string; onClose: (index: number) => void; doc: Document }): ReactNode {
  const [index, setIndex] = useState(start);
  const panel = useRef<HTMLDivElement | null>(null);
  const titleId = useId();
  const indexRef = useRef(index);
  indexRef.current = index;
  const n = slides.length;
  const slide = slides[index]!;

  useEffect(() => {
    const release = holdPage(doc);
    panel.current?.querySelector<HTMLElement>('.sf-gallery-lightbox-close')?.focus();
    return release;
  }, [doc]);

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowRight') {
      setIndex((i) => (i + 1) % n);
    } else if (event.key === 'ArrowLeft') {
      setIndex((i) => (i - 1 + n) % n);
    } else {
      modalKey(panel.current, event.nativeEvent, () => {
        // The Escape is the lightbox's alone (React passes a portal's events up to its parents).
        event.stopPropagation();
        onClose(indexRef.current);
      });
    }
  };

  return (
    <div className="sf-gallery-lightbox" data-theme={theme}>
      <div className="sf-gallery-lightbox-backdrop" onClick={() => onClose(indexRef.current)} />
      <div ref={panel} className="sf-gallery-lightbox-panel" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        {slide.width !== null && slide.height !== null ? (
          // The seed's image component (platform/image): the same markup rules as the page's images.
          <ImageComponent
            src={slide.sqsBase ?? slide.src}
            loader={slide.sqsBase ? 'sqs' : 'raw'}
            sizes="100vw"
            width={slide.width}
            height={slide.height}
            alt={slide.alt}
            class="sf-gallery-lightbox-image"
            priority="high"
          />
        ) : (
          <img className="sf-gallery-lightbox-image" src={slide.src} alt={slide.alt} />
        )}
        <p className="sf-gallery-lightbox-caption">
          <span id={titleId} className="sf-gallery-lightbox-title">{slide.title}</span>{' '}
          <span className="sf-gallery-lightbox-count">{`${index + 1} of ${n}`}</span>
        </p>
        {n > 1 ? (
          <>
            <button type="button" className="sf-gallery-lightbox-prev" aria-label="Previous photo" onClick={() => setIndex((i) => (i - 1 + n) % n)}>
              <span aria-hidden="true">‹</span>
            </button>
            <button type="button" className="sf-gallery-lightbox-next" aria-label="Next photo" onClick={() => setIndex((i) => (i + 1) % n)}>
              <span aria-hidden="true">›</span>
            </button>
          </>
        ) : null}
        <button type="button" className="sf-gallery-lightbox-close" aria-label="Close" onClick={() => onClose(indexRef.current)}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
    </div>
  );
}

function Gallery({ runtime, container, snapshot, settings, label }: { runtime: Runtime; container: HTMLElement; snapshot: SnapshotNode[]; settings: GallerySettings; label: string }): ReactNode {
  const carousel = isCarousel(settings);
  const [slides, setSlides] = useState<Slide[] | null>(null);
  const [state, dispatch] = useReducer(carouselReducer, null, () =>
    initialCarousel(container.querySelectorAll(SLIDES_SELECTOR).length, runtime.win.matchMedia?.(REDUCED_MOTION).matches === true),
  );
  const [lightboxAt, setLightboxAt] = useState<number | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const swipe = useRef<{ x: number; y: number; id: number } | null>(null);
  const swiped = useRef(false);
  const playing = isPlaying(state, settings);
  const shownIndex = useRef(state.index);
  shownIndex.current = state.index;
  const focusShown = useRef(false);

  // After mount: the layout's attributes, and the slides as the lightbox and thumbnails show them.
  useEffect(() => {
    applySettings(container, settings, label);
    setSlides(readSlides(container));
  }, [container, settings, label]);

  // Reduced motion may change while the page is open (a system setting).
  useEffect(() => {
    const query = runtime.win.matchMedia?.(REDUCED_MOTION);
    if (!query) return;
    const onChange = () => dispatch({ type: query.matches ? 'hold' : 'release', reason: 'reduced-motion' });
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, [runtime]);

  // Hover and focus hold autoplay (WCAG 2.2.2); the lightbox holds it too.
  useEffect(() => {
    if (!carousel) return;
    const enter = () => dispatch({ type: 'hold', reason: 'hover' });
    const leave = () => dispatch({ type: 'release', reason: 'hover' });
    const focusIn = () => dispatch({ type: 'hold', reason: 'focus' });
    const focusOut = (event: FocusEvent) => {
      if (!(event.relatedTarget instanceof Node) || !container.contains(event.relatedTarget)) dispatch({ type: 'release', reason: 'focus' });
    };
    container.addEventListener('mouseenter', enter);
    container.addEventListener('mouseleave', leave);
    container.addEventListener('focusin', focusIn);
    container.addEventListener('focusout', focusOut);
    return () => {
      container.removeEventListener('mouseenter', enter);
      container.removeEventListener('mouseleave', leave);
      container.removeEventListener('focusin', focusIn);
      container.removeEventListener('focusout', focusOut);
    };
  }, [container, carousel]);

  useEffect(() => {
    dispatch({ type: lightboxAt === null ? 'release' : 'hold', reason: 'lightbox' });
  }, [lightboxAt]);

  // One timer per shown slide: a manual move restarts the full delay.
  useEffect(() => {
    if (!playing) return;
    const timer = setTimeout(() => dispatch({ type: 'next' }), settings['autoplay-duration'] * 1000);
    return () => clearTimeout(timer);
  }, [playing, state.index, settings]);

  // The shown slide: only it is reachable and read; the others are inert. Set on the DOM
  // because the revived list is the server's markup, which React never changes.
  useEffect(() => {
    container.setAttribute('data-gallery-index', String(state.index));
    container.setAttribute('data-gallery-state', !settings.autoplay || !carousel ? 'static' : playing ? 'playing' : 'paused');
    if (!carousel) return;
    const items = slideElements(container);
    const list = container.querySelector<HTMLElement>('.sf-gallery-slides');
    list?.setAttribute('aria-live', playing ? 'off' : 'polite');
    items.forEach((li, i) => {
      const active = i === state.index;
      // The slides stay list items (a role on them would break the list's semantics): each
      // is described as a slide and named by its place.
      li.setAttribute('aria-roledescription', 'slide');
      li.setAttribute('aria-label', `${i + 1} of ${items.length}`);
      li.classList.toggle('sf-gallery-active', active);
      li.toggleAttribute('inert', !active);
      if (active) li.removeAttribute('aria-hidden');
      else li.setAttribute('aria-hidden', 'true');
    });
    if (focusShown.current) {
      focusShown.current = false;
      items[state.index]?.querySelector<HTMLElement>('a')?.focus();
    }
    if (settings.design === 'slider' && list) {
      const active = items[state.index];
      const viewport = list.parentElement?.clientWidth ?? 0;
      let offset = active ? active.offsetLeft - list.offsetLeft : 0;
      if (active && settings['active-alignment'] === 'center') offset -= (viewport - active.offsetWidth) / 2;
      if (active && settings['active-alignment'] === 'right') offset -= viewport - active.offsetWidth;
      list.style.transform = `translateX(${-Math.round(offset)}px)`;
    }
  }, [container, carousel, playing, state.index, settings]);

  // Keys anywhere in the carousel; clicks open the lightbox; pointer swipes move.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!carousel || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select')) return;
      const moves: Record<string, CarouselAction> = {
        ArrowRight: { type: 'next' },
        ArrowLeft: { type: 'prev' },
        Home: { type: 'go', index: 0 },
        End: { type: 'go', index: state.count - 1 },
      };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      dispatch(move);
    };
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a');
      const li = link?.closest('li');
      if (!link || !li || !container.contains(li)) return;
      if (swiped.current) {
        swiped.current = false;
        event.preventDefault();
        return;
      }
      if (!settings.lightbox || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      const index = slideElements(container).indexOf(li as HTMLElement);
      if (index < 0) return;
      event.preventDefault();
      opener.current = link;
      setLightboxAt(index);
    };
    const onDown = (event: PointerEvent) => {
      if (!carousel || !event.isPrimary) return;
      swipe.current = { x: event.clientX, y: event.clientY, id: event.pointerId };
      swiped.current = false;
    };
    const onUp = (event: PointerEvent) => {
      const start = swipe.current;
      swipe.current = null;
      if (!start || start.id !== event.pointerId) return;
      const dx = event.clientX - start.x;
      const dy = event.clientY - start.y;
      if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) <= Math.abs(dy)) return;
      swiped.current = true;
      dispatch({ type: dx < 0 ? 'next' : 'prev' });
    };
    const list = container.querySelector<HTMLElement>('.sf-gallery-slides');
    container.addEventListener('keydown', onKey);
    container.addEventListener('click', onClick);
    list?.addEventListener('pointerdown', onDown);
    list?.addEventListener('pointerup', onUp);
    // A drag of a linked image would start the browser's own drag instead of a swipe.
    const onDragStart = (event: Event) => {
      if (carousel) event.preventDefault();
    };
    list?.addEventListener('dragstart', onDragStart);
    return () => {
      container.removeEventListener('keydown', onKey);
      container.removeEventListener('click', onClick);
      list?.removeEventListener('pointerdown', onDown);
      list?.removeEventListener('pointerup', onUp);
      list?.removeEventListener('dragstart', onDragStart);
    };
  }, [container, carousel, settings, state.count]);

  const closeLightbox = (index: number) => {
    setLightboxAt(null);
    const back = opener.current;
    opener.current = null;
    if (carousel && index !== shownIndex.current) {
      // The carousel follows the lightbox; the opener's slide becomes inert, so focus goes to
      // the newly shown slide once it is committed.
      focusShown.current = true;
      dispatch({ type: 'go', index });
      return;
    }
    back?.focus();
  };

  const n = state.count;
  const showControls = slides !== null && carousel && n > 1;
  return (
    <>
      {renderSnapshot(snapshot)}
      {showControls ? (
        <div className="sf-gallery-controls">
          {settings.controls ? (
            <button type="button" className="sf-gallery-prev" aria-label="Previous photo" onClick={() => dispatch({ type: 'prev' })}>
              <span aria-hidden="true">‹</span>
            </button>
          ) : null}
          <span className="sf-gallery-position" aria-hidden="true">{`${state.index + 1} / ${n}`}</span>
          {settings.autoplay ? (
            <button
              type="button"
              className="sf-gallery-toggle"
              aria-label={state.holds.includes('user') ? 'Play slideshow' : 'Pause slideshow'}
              onClick={() => dispatch({ type: state.holds.includes('user') ? 'release' : 'hold', reason: 'user' })}
            >
              {state.holds.includes('user') ? 'Play' : 'Pause'}
            </button>
          ) : null}
          {settings.controls ? (
            <button type="button" className="sf-gallery-next" aria-label="Next photo" onClick={() => dispatch({ type: 'next' })}>
              <span aria-hidden="true">›</span>
            </button>
          ) : null}
        </div>
      ) : null}
      {showControls && settings.thumbnails ? (
        <div className="sf-gallery-thumbs" role="group" aria-label="Choose a photo">
          {slides.map((slide, i) => (
            <button
              key={i}
              type="button"
              className="sf-gallery-thumb"
              aria-label={`Show photo ${i + 1}: ${slide.title}`}
              aria-current={i === state.index ? 'true' : undefined}
              onClick={() => dispatch({ type: 'go', index: i })}
            >
              <img src={slide.src} alt="" />
            </button>
          ))}
        </div>
      ) : null}
      {lightboxAt !== null && slides && slides.length > 0
        ? createPortal(<Lightbox slides={slides} start={lightboxAt} theme={settings.lightboxTheme} onClose={closeLightbox} doc={runtime.doc} />, runtime.doc.body)
        : null}
    </>
  );
}

export const galleryIsland: IslandDefinition = {
  prepare(container, runtime) {
    if (!container.querySelector(SLIDES_SELECTOR)) return null;
    const { settings, problem } = readGallerySettings(container);
    if (problem) runtime.reporter.reportError('gallery_settings', { message: problem });
    const label = container.getAttribute('data-gallery-label') || 'Gallery';
    return <Gallery runtime={runtime} container={container} snapshot={snapshotChildren(container)} settings={settings} label={label} />;
  },
};

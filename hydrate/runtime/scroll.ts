/**
 * In-page scrolls the islands make (issue 18, seed 001 §5 and §9): to a form's first field in
 * error, to the cart's entries. The element lands `offset` (30) pixels below the top of the
 * viewport, reached by a 300 ms easeOutSine tween; a visitor who prefers reduced motion gets
 * the jump without the animation.
 */

/** Seed §9 constants. */
export const SCROLL = {
  /** Default scroll offset, px above the element. */
  offset: 30,
  /** Default tween duration, ms. */
  durationMs: 300,
} as const;

/** Seed §9 "easing easeOutSine": fast start, gentle end; t and the result run from 0 to 1. */
export function easeOutSine(t: number): number {
  return Math.sin((Math.min(1, Math.max(0, t)) * Math.PI) / 2);
}

export const TWEEN_DURATION_ERROR = 'A tween needs a finite duration.';

export interface TweenOptions {
  from: number;
  to: number;
  durationMs?: number;
  ease?: (t: number) => number;
  step: (value: number) => void;
  /** Frame scheduling; the page's requestAnimationFrame by default. */
  frame: (callback: (time: number) => void) => unknown;
}

/**
 * Animates a number from `from` to `to`, calling `step` on each frame and last with `to`
 * itself. Seed §5: the duration must be a finite number (else a TypeError); 0 steps once.
 */
export function tween(options: TweenOptions): Promise<void> {
  const duration = options.durationMs ?? SCROLL.durationMs;
  if (typeof duration !== 'number' || !Number.isFinite(duration) || duration < 0) throw new TypeError(TWEEN_DURATION_ERROR);
  const ease = options.ease ?? easeOutSine;
  const { from, to, step, frame } = options;
  if (duration === 0 || from === to) {
    step(to);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let start: number | null = null;
    const tick = (time: number) => {
      start ??= time;
      const t = (time - start) / duration;
      if (t >= 1) {
        step(to);
        resolve();
        return;
      }
      step(from + (to - from) * ease(t));
      frame(tick);
    };
    frame(tick);
  });
}

export function prefersReducedMotion(win: Window): boolean {
  return typeof win.matchMedia === 'function' && win.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Where the page scrolls to so that `element` sits `offset` px below the viewport's top. */
export function scrollTarget(win: Window, element: Element, offset: number = SCROLL.offset): number {
  return Math.max(0, Math.round(element.getBoundingClientRect().top + win.scrollY - offset));
}

/** Scrolls the page to `element` (offset 30, 300 ms easeOutSine; a jump under reduced motion). */
export function scrollToElement(win: Window, element: Element, options: { offset?: number; durationMs?: number } = {}): Promise<void> {
  const to = scrollTarget(win, element, options.offset);
  const from = win.scrollY;
  const jump = (y: number) => win.scrollTo(0, Math.round(y));
  if (prefersReducedMotion(win)) {
    jump(to);
    return Promise.resolve();
  }
  return tween({ from, to, durationMs: options.durationMs, step: jump, frame: (cb) => win.requestAnimationFrame(cb) });
}

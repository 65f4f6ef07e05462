// @vitest-environment happy-dom
import { afterEach, describe, expect, test, vi } from 'vitest';
import { easeOutSine, SCROLL, scrollTarget, scrollToElement, tween, TWEEN_DURATION_ERROR } from './scroll.ts';

/** Frames on demand: each call to `run(time)` fires the callbacks queued so far at that time. */
function frames() {
  let queue: Array<(time: number) => void> = [];
  return {
    frame: (callback: (time: number) => void) => queue.push(callback),
    run(time: number) {
      const now = queue;
      queue = [];
      now.forEach((callback) => callback(time));
    },
    pending: () => queue.length,
  };
}

afterEach(() => vi.restoreAllMocks());

describe('tween (seed §5, §9)', () => {
  test('300 ms of easeOutSine by default, ending exactly on the target', async () => {
    const f = frames();
    const seen: number[] = [];
    const done = tween({ from: 0, to: 100, step: (v) => seen.push(Math.round(v)), frame: f.frame });
    for (const time of [1000, 1075, 1150, 1225, 1299, 1300]) f.run(time);
    await done;
    // sin(pi/2 * t) at t = 0, 1/4, 1/2, 3/4, 299/300, then the target.
    expect(seen).toEqual([0, 38, 71, 92, 100, 100]);
    expect(f.pending()).toBe(0);
    expect(SCROLL).toEqual({ offset: 30, durationMs: 300 });
  });

  test('easeOutSine runs from 0 to 1, fast first', () => {
    expect([0, 0.5, 1].map((t) => Number(easeOutSine(t).toFixed(4)))).toEqual([0, 0.7071, 1]);
  });

  test('a duration that is not a finite number is refused', () => {
    for (const durationMs of [Number.NaN, Number.POSITIVE_INFINITY, -1, '300' as unknown as number]) {
      expect(() => tween({ from: 0, to: 1, durationMs, step: () => undefined, frame: () => undefined })).toThrow(TWEEN_DURATION_ERROR);
    }
  });
});

describe('scrollToElement', () => {
  const element = (top: number) => ({ getBoundingClientRect: () => ({ top }) }) as unknown as Element;

  test('lands the element 30 px below the top of the viewport', () => {
    vi.spyOn(window, 'scrollY', 'get').mockReturnValue(200);
    expect(scrollTarget(window, element(500))).toBe(670);
    expect(scrollTarget(window, element(-500))).toBe(0);
  });

  test('animates through requestAnimationFrame; reduced motion jumps at once', async () => {
    const f = frames();
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => f.frame(cb) as number);
    const scrolls: number[] = [];
    vi.spyOn(window, 'scrollTo').mockImplementation(((_x: number, y: number) => void scrolls.push(y)) as unknown as typeof window.scrollTo);
    const done = scrollToElement(window, element(430));
    f.run(0);
    f.run(150);
    f.run(300);
    await done;
    expect(scrolls).toEqual([0, 283, 400]);

    scrolls.length = 0;
    vi.spyOn(window, 'matchMedia').mockReturnValue({ matches: true } as MediaQueryList);
    await scrollToElement(window, element(430));
    expect(scrolls).toEqual([400]);
    expect(f.pending()).toBe(0);
  });
});

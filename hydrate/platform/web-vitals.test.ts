// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakePerformance, setVisibility, type FakePerformance } from '../test-support/fake-performance.ts';
import { collectWebVitals, VITALS_COLLECT_MS } from './web-vitals.ts';

let fake: FakePerformance;
let metrics: Array<{ name: string; value: number; at: number }>;
let stops: string[];
const running: Array<{ stop(): void }> = [];
beforeEach(() => {
  vi.useFakeTimers();
  fake = fakePerformance();
  metrics = [];
  stops = [];
  setVisibility(document, 'visible');
});
afterEach(() => {
  // Stopped before the next test so that no listener outlives its test.
  for (const r of running.splice(0)) r.stop();
  vi.useRealTimers();
});

const start = () => {
  const handle = collectWebVitals({
    doc: document,
    observer: fake.Observer,
    performance: fake.performance,
    onMetric: (name, value, at) => metrics.push({ name, value, at }),
    onStop: (reason) => stops.push(reason),
  });
  running.push(handle);
  return handle;
};
const last = (name: string) => metrics.filter((m) => m.name === name).at(-1)?.value;

describe('web-vitals collection', () => {
  test('observes the five entry types, buffered, events at the 40 ms threshold', () => {
    start();
    expect(fake.observedTypes().sort()).toEqual(['event', 'first-input', 'largest-contentful-paint', 'layout-shift', 'paint']);
    expect(fake.observeCalls.every((c) => c.buffered === true)).toBe(true);
    expect(fake.observeCalls.find((c) => c.type === 'event')?.durationThreshold).toBe(40);
  });

  test('TTFB from the navigation entry, FCP from the first-contentful-paint entry', () => {
    fake.setNavigation({ responseStart: 420 });
    fake.setNow(500);
    start();
    fake.emit('paint', [{ name: 'first-paint', startTime: 900 }, { name: 'first-contentful-paint', startTime: 1000 }]);
    expect(metrics).toEqual([
      { name: 'TTFB', value: 420, at: 500 },
      { name: 'FCP', value: 1000, at: 500 },
    ]);
  });

  test('LCP follows the latest candidate', () => {
    start();
    fake.emit('largest-contentful-paint', [{ startTime: 800 }, { startTime: 1200, renderTime: 1300 }]);
    fake.emit('largest-contentful-paint', [{ startTime: 2600 }]);
    expect(metrics.filter((m) => m.name === 'LCP').map((m) => m.value)).toEqual([1300, 2600]);
  });

  test('LCP stops following candidates after the first input', () => {
    start();
    fake.emit('largest-contentful-paint', [{ startTime: 800 }]);
    document.dispatchEvent(new Event('keydown'));
    fake.emit('largest-contentful-paint', [{ startTime: 5000 }]);
    expect(metrics.filter((m) => m.name === 'LCP').map((m) => m.value)).toEqual([800]);
  });

  test('FID is the first input delay, reported once', () => {
    start();
    fake.emit('first-input', [{ startTime: 100, processingStart: 160 }]);
    fake.emit('first-input', [{ startTime: 200, processingStart: 900 }]);
    expect(metrics.filter((m) => m.name === 'FID').map((m) => m.value)).toEqual([60]);
  });

  test('INP: the longest interaction while there are fewer than 50', () => {
    start();
    fake.emit('event', [
      { interactionId: 1, startTime: 10, duration: 80 },
      { interactionId: 1, startTime: 12, duration: 120 },
      { interactionId: 0, startTime: 20, duration: 900 },
      { interactionId: 2, startTime: 30, duration: 96 },
    ]);
    expect(last('INP')).toBe(120);
  });

  test('INP skips the worst interaction once there are 50 or more', () => {
    start();
    const entries = Array.from({ length: 50 }, (_, i) => ({ interactionId: i + 1, startTime: i, duration: 100 + i }));
    fake.emit('event', entries);
    expect(last('INP')).toBe(148);
  });

  test('CLS: the largest session window; input-driven shifts do not count', () => {
    start();
    fake.emit('layout-shift', [
      { startTime: 0, value: 0.05, hadRecentInput: false },
      { startTime: 500, value: 0.05, hadRecentInput: false },
      { startTime: 900, value: 0.5, hadRecentInput: true },
    ]);
    expect(last('CLS')).toBeCloseTo(0.1);
    // A gap over 1 s starts a new window; it only counts once it is larger.
    fake.emit('layout-shift', [{ startTime: 3000, value: 0.04, hadRecentInput: false }]);
    expect(last('CLS')).toBeCloseTo(0.1);
    fake.emit('layout-shift', [
      { startTime: 3500, value: 0.04, hadRecentInput: false },
      { startTime: 4000, value: 0.04, hadRecentInput: false },
    ]);
    expect(last('CLS')).toBeCloseTo(0.12);
  });

  test('CLS windows end after 5 s even without a gap', () => {
    start();
    const shifts = Array.from({ length: 12 }, (_, i) => ({ startTime: i * 900, value: 0.01, hadRecentInput: false }));
    fake.emit('layout-shift', shifts);
    // 0, 900, …, 4500 fit in one window (6 shifts); 5400 starts the next.
    expect(last('CLS')).toBeCloseTo(0.06);
  });

  test('collection stops after 60000 ms', () => {
    expect(VITALS_COLLECT_MS).toBe(60000);
    start();
    vi.advanceTimersByTime(59_999);
    expect(stops).toEqual([]);
    expect(fake.observedTypes()).toHaveLength(5);
    vi.advanceTimersByTime(1);
    expect(stops).toEqual(['timeout']);
    expect(fake.observedTypes()).toEqual([]);
  });

  test('collection stops when the page is hidden; later entries are ignored', () => {
    const vitals = start();
    setVisibility(document, 'hidden');
    expect(stops).toEqual(['hidden']);
    fake.emit('paint', [{ name: 'first-contentful-paint', startTime: 10 }]);
    expect(metrics).toEqual([]);
    vitals.stop();
    expect(stops).toEqual(['hidden']);
  });

  test('unsupported entry types are skipped', () => {
    fake = fakePerformance(['event', 'layout-shift']);
    start();
    expect(fake.observedTypes().sort()).toEqual(['first-input', 'largest-contentful-paint', 'paint']);
  });
});

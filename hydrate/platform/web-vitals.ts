import type { MetricName } from '../shared/platform-wire.ts';

/** Seed §9: page-speed metrics are collected up to 60000 ms or until the page is hidden. */
export const VITALS_COLLECT_MS = 60_000;

/** INP ignores interactions shorter than this (the Event Timing API's minimum threshold). */
const EVENT_DURATION_THRESHOLD_MS = 40;
/** CLS session windows: a gap over 1 s or a window over 5 s starts a new window. */
const CLS_GAP_MS = 1000;
const CLS_WINDOW_MS = 5000;

type ObserverCtor = new (callback: (list: { getEntries(): PerformanceEntry[] }) => void) => {
  observe(options: { type: string; buffered?: boolean; durationThreshold?: number }): void;
  disconnect(): void;
};

export interface VitalsOptions {
  doc: Document;
  onMetric(name: MetricName, value: number, at: number): void;
  /** Called once, when collection stops (60 s or hidden). */
  onStop?(reason: 'timeout' | 'hidden'): void;
  observer?: ObserverCtor;
  performance?: Pick<Performance, 'now' | 'getEntriesByType'>;
  collectMs?: number;
}

interface EventTimingEntry extends PerformanceEntry {
  interactionId?: number;
  processingStart?: number;
}
interface LayoutShiftEntry extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
}
interface LcpEntry extends PerformanceEntry {
  renderTime?: number;
  loadTime?: number;
}

/**
 * Observes FCP, LCP, TTFB, FID, INP and CLS with PerformanceObserver and reports each value
 * as it changes. A browser without an entry type simply never reports that metric.
 */
export function collectWebVitals(options: VitalsOptions): { stop(): void } {
  const { doc, onMetric } = options;
  const perf = options.performance ?? globalThis.performance;
  const Observer = options.observer ?? (globalThis.PerformanceObserver as unknown as ObserverCtor | undefined);
  const observers: Array<{ disconnect(): void }> = [];
  let stopped = false;

  const report = (name: MetricName, value: number) => {
    if (!stopped && Number.isFinite(value) && value >= 0) onMetric(name, value, perf.now());
  };

  const navigation = perf.getEntriesByType?.('navigation')?.[0] as PerformanceNavigationTiming | undefined;
  if (navigation && navigation.responseStart > 0) report('TTFB', navigation.responseStart);

  function observe(type: string, handle: (entries: PerformanceEntry[]) => void, extra: { durationThreshold?: number } = {}): void {
    if (!Observer) return;
    try {
      const observer = new Observer((list) => handle(list.getEntries()));
      observer.observe({ type, buffered: true, ...extra });
      observers.push(observer);
    } catch {
      // Unsupported entry type: that metric is not collected in this browser.
    }
  }

  observe('paint', (entries) => {
    for (const e of entries) if (e.name === 'first-contentful-paint') report('FCP', e.startTime);
  });
  // LCP candidates after the visitor's first input describe what they caused, not the load.
  let lcpFinal = false;
  observe('largest-contentful-paint', (entries) => {
    const last = entries[entries.length - 1] as LcpEntry | undefined;
    if (last && !lcpFinal) report('LCP', last.renderTime || last.loadTime || last.startTime);
  });
  const onInput = () => {
    lcpFinal = true;
  };
  for (const type of ['keydown', 'pointerdown'] as const) doc.addEventListener(type, onInput, { capture: true, once: true });
  let fidDone = false;
  observe('first-input', (entries) => {
    const first = entries[0] as EventTimingEntry | undefined;
    if (first && !fidDone && first.processingStart !== undefined) {
      fidDone = true;
      report('FID', first.processingStart - first.startTime);
    }
  });

  // INP: the longest interaction, skipping one per 50 interactions (the 98th percentile).
  const interactions = new Map<number, number>();
  observe(
    'event',
    (entries) => {
      let changed = false;
      for (const e of entries as EventTimingEntry[]) {
        if (!e.interactionId) continue;
        if (e.duration > (interactions.get(e.interactionId) ?? -1)) {
          interactions.set(e.interactionId, e.duration);
          changed = true;
        }
      }
      if (!changed) return;
      const sorted = [...interactions.values()].sort((a, b) => b - a);
      report('INP', sorted[Math.min(Math.floor(interactions.size / 50), sorted.length - 1)]!);
    },
    { durationThreshold: EVENT_DURATION_THRESHOLD_MS },
  );

  let clsMax = 0;
  let windowSum = 0;
  let windowStart = 0;
  let windowLast = 0;
  observe('layout-shift', (entries) => {
    for (const e of entries as LayoutShiftEntry[]) {
      if (e.hadRecentInput) continue;
      if (windowSum > 0 && e.startTime - windowLast < CLS_GAP_MS && e.startTime - windowStart < CLS_WINDOW_MS) {
        windowSum += e.value;
      } else {
        windowSum = e.value;
        windowStart = e.startTime;
      }
      windowLast = e.startTime;
      if (windowSum > clsMax) {
        clsMax = windowSum;
        report('CLS', clsMax);
      }
    }
  });

  const stop = (reason: 'timeout' | 'hidden') => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    doc.removeEventListener('visibilitychange', onVisibility);
    for (const type of ['keydown', 'pointerdown'] as const) doc.removeEventListener(type, onInput, { capture: true });
    for (const o of observers) o.disconnect();
    options.onStop?.(reason);
  };
  const onVisibility = () => {
    if (doc.visibilityState === 'hidden') stop('hidden');
  };
  const timer = setTimeout(() => stop('timeout'), options.collectMs ?? VITALS_COLLECT_MS);
  doc.addEventListener('visibilitychange', onVisibility);

  return { stop: () => stop('timeout') };
}

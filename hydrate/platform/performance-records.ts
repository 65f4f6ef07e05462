import {
  PAGE_LOAD_ID_PATTERN,
  PERFORMANCE_WIRE,
  rateMetric,
  type MetricName,
  type PerformanceBatch,
  type PerformanceRecord,
} from '../shared/platform-wire.ts';
import type { ErrorReporter } from '../runtime/error-reporter.ts';
import type { HttpClient } from '../runtime/http-client.ts';
import { PERFORMANCE_MESSAGES, fillMessage } from './platform-messages.ts';
import { collectWebVitals, type VitalsOptions } from './web-vitals.ts';

/** Seed §9: records are flushed 30000 ms after load or when the page is hidden. */
export const FLUSH_AFTER_LOAD_MS = 30_000;

/** Rounded before rating, so the rating the server recomputes from the value agrees. */
export function roundMetric(name: MetricName, value: number): number {
  return name === 'CLS' ? Math.round(value * 10_000) / 10_000 : Math.round(value);
}

export function toRecord(name: MetricName, value: number, at: number): PerformanceRecord {
  const rounded = roundMetric(name, value);
  return { metric: name, value: rounded, rating: rateMetric(name, rounded), at: Math.max(0, Math.round(at)) };
}

/** GET the settings (30 s timeout); failures go to the error reporter and yield null. */
export async function fetchPageLoadId(client: HttpClient, reporter: ErrorReporter): Promise<string | null> {
  const result = await client.request('GET', PERFORMANCE_WIRE.settingsPath, { timeoutMs: PERFORMANCE_WIRE.settingsTimeoutMs });
  if (!result.ok || result.status !== PERFORMANCE_WIRE.settingsSuccessStatus) {
    reporter.reportError('performance_settings', { message: fillMessage(PERFORMANCE_MESSAGES.settingsStatus, { code: result.status ?? 0 }) });
    return null;
  }
  const id = (result.body as { pageLoadId?: unknown } | null)?.pageLoadId;
  if (typeof id !== 'string' || !PAGE_LOAD_ID_PATTERN.test(id)) {
    reporter.reportError('performance_settings', { message: PERFORMANCE_MESSAGES.pageLoadId });
    return null;
  }
  return id;
}

export interface PerformanceRecordsOptions {
  doc: Document;
  client: HttpClient;
  reporter: ErrorReporter;
  pagePath: string;
  /** Seams for tests (stubbed PerformanceObserver / performance). */
  observer?: VitalsOptions['observer'];
  performance?: VitalsOptions['performance'];
}

export interface PerformanceRecordsHandle {
  /** Sends what is pending now (also what the timers and `visibilitychange` call). */
  flush(): void;
  stop(): void;
}

/**
 * Collects the six metrics and sends them as batches keyed by the page's pageLoadId: a
 * metric's latest value waits in `pending` until the next flush, so a value that changes
 * after a flush (CLS, INP, LCP) is sent again with the next one.
 */
export function startPerformanceRecords(options: PerformanceRecordsOptions): PerformanceRecordsHandle {
  const { doc, client, reporter } = options;
  const win = doc.defaultView as Window;
  const pending = new Map<MetricName, PerformanceRecord>();
  let pageLoadId: string | null = null;
  let settled = false;
  let flushWanted = false;
  let stopped = false;

  const vitals = collectWebVitals({
    doc,
    observer: options.observer,
    performance: options.performance,
    onMetric(name, value, at) {
      pending.set(name, toRecord(name, value, at));
    },
  });

  function send(batch: PerformanceBatch): void {
    const text = JSON.stringify(batch);
    const nav = win.navigator as Navigator & { sendBeacon?: Navigator['sendBeacon'] };
    // A beacon survives the page being hidden or closed; a string body goes out as text/plain.
    if (typeof nav.sendBeacon === 'function' && nav.sendBeacon(PERFORMANCE_WIRE.recordsPath, text)) return;
    void client
      .request('POST', PERFORMANCE_WIRE.recordsPath, { body: text, contentType: PERFORMANCE_WIRE.recordsContentType, keepalive: true })
      .then((result) => {
        if (!result.ok) reporter.reportError('performance_records', { status: result.status, message: result.message });
      });
  }

  function flush(): void {
    if (pending.size === 0) return;
    if (!pageLoadId) {
      // Records can only be sent under a pageLoadId; without one they wait for the settings answer.
      flushWanted = !settled;
      return;
    }
    const records = [...pending.values()];
    pending.clear();
    for (let i = 0; i < records.length; i += PERFORMANCE_WIRE.maxRecordsPerBatch) {
      send({ pageLoadId, pagePath: options.pagePath, records: records.slice(i, i + PERFORMANCE_WIRE.maxRecordsPerBatch) });
    }
  }

  void fetchPageLoadId(client, reporter).then((id) => {
    settled = true;
    pageLoadId = id;
    if (stopped) return;
    if (!id) pending.clear();
    else if (flushWanted) flush();
  });

  let timer: ReturnType<typeof setTimeout> | null = null;
  const armTimer = () => {
    timer = setTimeout(flush, FLUSH_AFTER_LOAD_MS);
  };
  if (doc.readyState === 'complete') armTimer();
  else win.addEventListener('load', armTimer, { once: true });

  const onVisibility = () => {
    if (doc.visibilityState === 'hidden') flush();
  };
  doc.addEventListener('visibilitychange', onVisibility);
  win.addEventListener('pagehide', flush);

  return {
    flush,
    stop() {
      stopped = true;
      vitals.stop();
      if (timer) clearTimeout(timer);
      win.removeEventListener('load', armTimer);
      doc.removeEventListener('visibilitychange', onVisibility);
      win.removeEventListener('pagehide', flush);
    },
  };
}

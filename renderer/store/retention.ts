import { backgroundLoop } from '../background-loop.ts';
import type { RetentionTable } from './repository.ts';
import type { Store } from './store.ts';

// Anonymous visitors write analytics, error reports, tracker events, performance records,
// form keys and carts without signing in; rate limits bound how fast, and this sweep bounds how long
// those rows are kept. Each instance sweeps on start and then periodically; the deletes are
// idempotent, so N instances on one database may sweep at once.

const DAY_MS = 24 * 60 * 60_000;

/** How long rows are kept, in ms, per table the sweep empties. */
export interface RetentionPeriods {
  /** census_events: RecordHit, RecordEvent, button, form, overlay and quick-view events. */
  censusEvents: number;
  /** clanker_events: the newer tracker's events. */
  clankerEvents: number;
  /** js_error_reports: RecordJavascriptErrors. */
  jsErrorReports: number;
  /** performance_page_loads with their performance_records. */
  performancePageLoads: number;
  /** form_submission_keys: a key is refused 30 minutes after issue anyway. */
  formSubmissionKeys: number;
}

export const DEFAULT_RETENTION: RetentionPeriods = {
  censusEvents: 90 * DAY_MS,
  clankerEvents: 90 * DAY_MS,
  jsErrorReports: 30 * DAY_MS,
  performancePageLoads: 30 * DAY_MS,
  formSubmissionKeys: 1 * DAY_MS,
};

export interface SweepLimits {
  /** Rows per DELETE statement (each statement is short; other queries run between them). */
  batchSize: number;
  /** Statements per table per sweep; a sweep that stops here is followed by another soon. */
  maxBatches: number;
}

export const DEFAULT_SWEEP_LIMITS: SweepLimits = { batchSize: 500, maxBatches: 40 };

export interface SweepResult {
  deleted: Record<RetentionTable, number>;
  /** False when some table still had expired rows when its batch budget ran out. */
  complete: boolean;
}

/** Deletes the rows older than their table's period (and ended rate-limit windows), in bounded batches. */
export async function sweepExpired(
  store: Store,
  now: number,
  periods: RetentionPeriods,
  limits: SweepLimits = DEFAULT_SWEEP_LIMITS,
): Promise<SweepResult> {
  const cutoffs: Record<RetentionTable, number> = {
    censusEvents: now - periods.censusEvents,
    clankerEvents: now - periods.clankerEvents,
    jsErrorReports: now - periods.jsErrorReports,
    performancePageLoads: now - periods.performancePageLoads,
    formSubmissionKeys: now - periods.formSubmissionKeys,
    rateLimitCounters: now,
    // Unbought carts once expired: anyone may make one per request (add to cart, a gift card's
    // checkout), and they were kept for ever, so the carts table only grew.
    expiredCarts: now,
  };
  const deleted = {} as Record<RetentionTable, number>;
  let complete = true;
  for (const [table, cutoff] of Object.entries(cutoffs) as [RetentionTable, number][]) {
    deleted[table] = 0;
    for (let batch = 0; ; batch++) {
      if (batch === limits.maxBatches) {
        complete = false;
        break;
      }
      const gone = await store.read.deleteExpired(table, cutoff, limits.batchSize);
      deleted[table] += gone;
      if (gone < limits.batchSize) break;
    }
  }
  return { deleted, complete };
}

export interface RetentionSweepOptions {
  store: Store;
  now: () => number;
  periods: RetentionPeriods;
  /** Between sweeps (default 10 minutes); a sweep that ran out of batches is followed after 1 s. */
  intervalMs?: number;
  limits?: SweepLimits;
  onError?: (error: unknown) => void;
}

export interface RetentionSweep {
  /** Runs a sweep now (or joins the one running). */
  run(): Promise<SweepResult | null>;
  /** Stops the timer and waits for a running sweep, so the store can be closed after it. */
  stop(): Promise<void>;
}

export const DEFAULT_SWEEP_INTERVAL_MS = 10 * 60_000;
const CATCH_UP_MS = 1000;

/** Sweeps at once and then every `intervalMs`; the timers are unref'd, so they never keep a process alive. */
export function startRetentionSweep(options: RetentionSweepOptions): RetentionSweep {
  const interval = options.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  const loop = backgroundLoop(
    () => sweepExpired(options.store, options.now(), options.periods, options.limits),
    // A sweep that ran out of batches left rows behind: the next one follows soon.
    (result) => (result && !result.complete ? CATCH_UP_MS : interval),
    (error) => options.onError?.(error),
  );
  loop.start();
  return { run: loop.run, stop: loop.stop };
}

/**
 * A piece of background work that repeats on a timer: the outbox worker (mail/outbox-worker.ts),
 * the retention sweep (store/retention.ts) and the recovery of after-answer jobs
 * (api/after-response.ts). One copy of the loop, because its rules are
 * easy to get subtly wrong twice:
 * - one run at a time: `run()` while a run is going joins it instead of starting another;
 * - a failed run is reported and the loop goes on (a database that is briefly gone must not
 *   end mail delivery or the sweep for the life of the process);
 * - after each run, by timer or by hand, the next one is due after `nextDelay(result)` (null
 *   when it failed), replacing any timer still pending;
 * - timers are unref'd, so the loop never keeps a process alive;
 * - `stop()` waits for a running run, so the store can be closed after it.
 */
export interface BackgroundLoop<T> {
  /** Runs the work now (or joins the run going); null when it failed. */
  run(): Promise<T | null>;
  /** Starts the timer: a first run at once. */
  start(): void;
  stop(): Promise<void>;
}

export function backgroundLoop<T>(work: () => Promise<T>, nextDelay: (result: T | null) => number, onError: (error: unknown) => void): BackgroundLoop<T> {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<T | null> | null = null;
  let stopped = true;

  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => void run(), delay);
    timer.unref();
  };

  function run(): Promise<T | null> {
    running ??= work()
      .catch((error: unknown) => {
        onError(error);
        return null;
      })
      .then((result) => {
        running = null;
        if (timer) clearTimeout(timer);
        schedule(nextDelay(result));
        return result;
      });
    return running;
  }

  return {
    run,
    start() {
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

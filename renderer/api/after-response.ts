import type { FastifyBaseLogger } from 'fastify';
import type { Repository } from '../store/repository.ts';
import type { Store } from '../store/store.ts';
import type { AfterAnswerJob } from '../store/types.ts';

/**
 * Work a handler hands off so that its answer does not wait for it: the answer's timing then
 * cannot say what the work found. The password reset request (routes/password-reset-routes.ts)
 * looks the address up and, for an account, stores a token and queues a mail; done before
 * answering, a known address was answered 2–5 ms later than an unknown one, which told anyone
 * with a stopwatch which addresses have accounts.
 *
 * The work starts on the event loop's next check phase (`setImmediate`), after the handler's
 * answer was written; a failure goes to `onError` (the caller logs it without the visitor's
 * values). The app's close waits for `idle()`, so a shutdown never cuts a queued mail short.
 * Nothing here survives a crash by itself: work that must is an `AfterAnswerJobs` job.
 */
export class AfterResponse {
  readonly #pending = new Set<Promise<void>>();

  run(work: () => Promise<void>, onError: (error: unknown) => void): void {
    const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch(onError)
      .finally(() => this.#pending.delete(task));
    this.#pending.add(task);
  }

  /** How many handed-off tasks have not ended yet. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Resolves once every task handed off so far, and any they hand off, has ended. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}

/** The work of one kind of job, run inside the transaction that deletes the job. */
export type AfterAnswerJobHandler = (repo: Repository, job: AfterAnswerJob) => Promise<void>;

export interface AfterAnswerJobLimits {
  /** How long a new job is left to its own request before the recovery may take it. */
  graceMs: number;
  /** Runs by the recovery before a job is dropped (with a log line, never its address). */
  maxAttempts: number;
  /** Wait after a recovery run's claim, doubled per earlier attempt, at most `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Jobs one recovery run claims at most. */
  batch: number;
}

export const DEFAULT_JOB_LIMITS: AfterAnswerJobLimits = {
  graceMs: 30_000,
  maxAttempts: 5,
  retryBaseMs: 30_000,
  retryMaxMs: 15 * 60_000,
  batch: 20,
};

export interface RecoveryResult {
  /** Jobs dropped after their last attempt. */
  dropped: number;
  claimed: number;
  /** Claimed jobs that ran (their mail is queued, or there was none to queue). */
  done: number;
  failed: number;
}

/**
 * Work owed past an answer that must survive a crash (mail/README.md "After the answer: durable jobs").
 * Before answering, a handler records the job: one INSERT of `after_answer_jobs`, the same
 * statement whatever the address is, so neither the statements nor their timing say whether it
 * has an account (or is on the mailing list). After the answer the request runs its job; a
 * crash, a kill or a failure there leaves the row, and the recovery (each start, then every
 * `JOB_RECOVERY_INTERVAL_MS`) claims and runs it, a bounded number of times with backoff.
 *
 * A job runs in one transaction that first deletes its row, only if nobody claimed it since
 * (`takeAfterAnswerJob`): its work (token, queued mail) commits with the delete or not at all,
 * so a mail is queued exactly once even when the request and a recovery (this process's or
 * another's on one PostgreSQL database) reach the job together.
 */
export class AfterAnswerJobs {
  readonly #handlers = new Map<string, AfterAnswerJobHandler>();
  readonly limits: AfterAnswerJobLimits;

  constructor(
    private readonly deps: { store: Store; now: () => number; newId: (prefix: string) => string; afterResponse: AfterResponse },
    limits: Partial<AfterAnswerJobLimits> = {},
  ) {
    this.limits = { ...DEFAULT_JOB_LIMITS, ...limits };
  }

  /** Says how jobs of `kind` run; registered with the routes, before the first recovery. */
  handle(kind: string, handler: AfterAnswerJobHandler): void {
    this.#handlers.set(kind, handler);
  }

  /**
   * Records a job in `repo` (the caller's transaction, or `store.read` for a statement of its
   * own); the caller then answers, and calls `runAfterAnswer` once the record is committed.
   */
  async record(repo: Repository, kind: string, email: string, detail: Record<string, unknown> = {}): Promise<string> {
    const id = this.deps.newId('j');
    const now = this.deps.now();
    await repo.recordAfterAnswerJob({ id, kind, email, detail, createdOn: now, dueAt: now + this.limits.graceMs });
    return id;
  }

  /**
   * Runs the recorded job after the answer. A failure is logged (the error serializer masks
   * addresses) and leaves the job to the recovery.
   */
  runAfterAnswer(id: string, log: FastifyBaseLogger): void {
    this.deps.afterResponse.run(
      async () => {
        await this.#run(id, 0);
      },
      (error) => log.error({ err: error, jobId: id }, 'after-answer job failed; it will be retried'),
    );
  }

  /** One recovery round: drops the spent jobs, then claims the due ones and runs them. */
  async recover(log: FastifyBaseLogger): Promise<RecoveryResult> {
    const { store, now } = this.deps;
    const at = now();
    // A read first: most runs find nothing due, and a write through the pages' read cache
    // (store/read-cache.ts) would drop it every `recoveryMs`.
    if ((await store.read.countDueAfterAnswerJobs(at)) === 0) return { dropped: 0, claimed: 0, done: 0, failed: 0 };
    const dropped = await store.read.dropSpentAfterAnswerJobs(at, this.limits.maxAttempts);
    for (const job of dropped) {
      // The visitor was told a mail was on its way: the owner hears that none will come.
      log.error({ jobId: job.id, kind: job.kind, attempts: job.attempts }, 'after-answer job dropped after its last attempt: its mail is not sent');
    }
    const claimed = await store.read.claimAfterAnswerJobs(at, this.limits.batch, this.limits.retryBaseMs, this.limits.retryMaxMs);
    let done = 0;
    let failed = 0;
    for (const job of claimed) {
      try {
        if (await this.#run(job.id, job.attempts)) done += 1;
      } catch (error) {
        failed += 1;
        log.error({ err: error, jobId: job.id, kind: job.kind, attempts: job.attempts }, 'after-answer job failed; it will be retried');
      }
    }
    return { dropped: dropped.length, claimed: claimed.length, done, failed };
  }

  /** True when the job ran here; false when it was gone or claimed by another run. */
  #run(id: string, attempts: number): Promise<boolean> {
    return this.deps.store.transaction(async (repo) => {
      const job = await repo.takeAfterAnswerJob(id, attempts);
      if (!job) return false;
      const handler = this.#handlers.get(job.kind);
      if (!handler) throw new Error(`no handler for after-answer jobs of kind ${job.kind}`);
      await handler(repo, job);
      return true;
    });
  }
}

/** Between recovery runs; a run that claimed a full batch is followed at once. */
export const JOB_RECOVERY_INTERVAL_MS = 30_000;

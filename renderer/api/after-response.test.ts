import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { enqueueMail } from '../mail/outbox-worker.ts';
import { Repository } from '../store/repository.ts';
import type { SqlStore } from '../store/store.ts';
import { acceptanceSeed, ADMIN_TOKEN, START, withCrumb } from '../test-support/api-harness.ts';
import { onEachStore, type OpenedStore } from '../test-support/store-backends.ts';
import { reseed } from '../test-support/test-store.ts';
import { AfterAnswerJobs, AfterResponse, DEFAULT_JOB_LIMITS } from './after-response.ts';

// The work a password reset request and a newsletter sign-up owe past their answers is recorded
// before the answer (after_answer_jobs) and survives a crash: the next start finishes it, a
// failed run is retried with backoff and at last dropped with a log line naming no address, and
// a job reached by its request and by recoveries at once queues its mail once. On PGlite and on
// PostgreSQL (where the claims of concurrent runs really race).

const GRACE = DEFAULT_JOB_LIMITS.graceMs;
const RESET_PATH = '/api/site-users/account/password-reset';
const ADDRESS = /alice@example\.com|reader@example\.com/i;
/** Between recovery runs in these tests: only the start's run and the test's own ones happen. */
const NO_TIMER = 24 * 60 * 60_000;

function jobsSuite(name: string, open: () => Promise<OpenedStore>) {
  describe(name, () => {
    let store: SqlStore;
    let close: () => Promise<void>;
    const clock = { now: START };
    const lines: string[] = [];
    const apps: FastifyInstance[] = [];

    beforeAll(async () => {
      ({ store, close } = await open());
    }, 60_000);

    afterAll(async () => {
      await close?.();
    });

    beforeEach(async () => {
      await reseed(store, await acceptanceSeed());
      clock.now = START;
      lines.length = 0;
    });

    afterEach(async () => {
      vi.restoreAllMocks();
      for (const app of apps.splice(0)) await app.close();
    });

    async function start(options: Parameters<typeof buildApp>[0]['afterAnswerJobs'] = {}): Promise<FastifyInstance> {
      const app = await buildApp({
        store,
        now: () => clock.now,
        adminToken: ADMIN_TOKEN,
        retention: false,
        afterAnswerJobs: { recoveryMs: NO_TIMER, ...options },
        logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
      });
      apps.push(app);
      return app;
    }

    /** A started app whose start-up recovery run has ended: a later `run()` must not join it. */
    async function started(options: Parameters<typeof start>[0] = {}): Promise<FastifyInstance> {
      const app = await start(options);
      await app.ready();
      await app.afterAnswerRecovery!.run();
      return app;
    }

    const askReset = (app: FastifyInstance, email: string) => app.inject(withCrumb({ method: 'POST', url: RESET_PATH, payload: { email } }));

    async function signUp(app: FastifyInstance, email: string) {
      const key = (await app.inject(withCrumb({ method: 'POST', url: '/api/form/FormSubmissionKey' }))).json().key as string;
      const answer = await app.inject(
        withCrumb({ method: 'POST', url: '/api/form/SaveFormSubmission', payload: { key, formId: 'news', form: JSON.stringify({ em: email }), contentSource: 'c', pagePath: '/', pagePermissionTypeValue: 1 } }),
      );
      expect(answer.statusCode, answer.body).toBe(200);
    }

    const mails = async () => (await store.read.listOutbox()).map((row) => `${row.to}: ${row.subject}`).sort();
    const logged = () => lines.map((line) => JSON.parse(line) as { level: number; msg: string; kind?: string; attempts?: number });

    it('a crash after the answers loses no mail: the next start sends the reset and the welcome once, and nothing to an unknown or subscribed address', async () => {
      const before = await started();
      // The crash: the process dies after answering, before any job runs.
      vi.spyOn(AfterAnswerJobs.prototype, 'runAfterAnswer').mockImplementation(() => {});
      expect((await askReset(before, 'alice@example.com')).statusCode).toBe(200);
      expect((await askReset(before, 'nobody@example.com')).statusCode).toBe(200);
      await signUp(before, 'reader@example.com');
      // On the list now: this sign-up's job owes no welcome.
      await signUp(before, 'Reader@Example.com');
      vi.restoreAllMocks();
      // Recorded at one clock time: listed in no particular order.
      expect((await store.read.listAfterAnswerJobs()).map((job) => JSON.stringify([job.kind, job.email, job.detail])).sort()).toEqual(
        [
          ['password-reset', 'alice@example.com', {}],
          ['password-reset', 'nobody@example.com', {}],
          ['newsletter-welcome', 'reader@example.com', { welcome: true }],
          ['newsletter-welcome', 'Reader@Example.com', { welcome: false }],
        ].map((job) => JSON.stringify(job)).sort(),
      );
      expect(await mails()).toEqual([]);

      // The new process starts once the requests' own runs would have been long done.
      clock.now += GRACE;
      const after = await start();
      await after.ready();
      // The start's recovery run, waited for (a hang guard, not a time bound).
      await vi.waitFor(async () => expect(await store.read.listAfterAnswerJobs()).toEqual([]), { timeout: 30_000, interval: 20 });
      expect(await mails()).toEqual(['alice@example.com: Reset your password', expect.stringMatching(/^reader@example\.com: You are subscribed to the .* newsletter$/)]);
      // Later runs find nothing more to send (the first call lets the start's run end).
      await after.afterAnswerRecovery!.run();
      clock.now += 60 * 60_000;
      expect(await after.afterAnswerRecovery!.run()).toEqual({ dropped: 0, claimed: 0, done: 0, failed: 0 });
      expect(await mails()).toHaveLength(2);
    });

    it('an address unsubscribed before the recovery ran its sign-up gets no welcome', async () => {
      const app = await started();
      vi.spyOn(AfterAnswerJobs.prototype, 'runAfterAnswer').mockImplementation(() => {});
      await signUp(app, 'reader@example.com');
      vi.restoreAllMocks();
      expect(await store.read.removeFromMailingList('reader@example.com')).toBe(true);
      clock.now += GRACE;
      expect(await app.afterAnswerRecovery!.run()).toEqual({ dropped: 0, claimed: 1, done: 1, failed: 0 });
      expect(await mails()).toEqual([]);
      expect(await store.read.listAfterAnswerJobs()).toEqual([]);
    });

    it('a start within the grace leaves a job to its request; a job its request ran is never run again', async () => {
      const app = await started();
      vi.spyOn(AfterAnswerJobs.prototype, 'runAfterAnswer').mockImplementation(() => {});
      await askReset(app, 'alice@example.com');
      vi.restoreAllMocks();
      clock.now += GRACE - 1;
      expect(await app.afterAnswerRecovery!.run()).toEqual({ dropped: 0, claimed: 0, done: 0, failed: 0 });
      clock.now += 1;
      expect(await app.afterAnswerRecovery!.run()).toEqual({ dropped: 0, claimed: 1, done: 1, failed: 0 });

      await askReset(app, 'alice@example.com');
      await app.storefrontApiSettled();
      clock.now += GRACE;
      expect(await app.afterAnswerRecovery!.run()).toEqual({ dropped: 0, claimed: 0, done: 0, failed: 0 });
      expect(await mails()).toEqual(['alice@example.com: Reset your password', 'alice@example.com: Reset your password']);
    });

    it('a run that fails after the answer (the mail could not be queued) is retried by the recovery: one mail, no address logged', async () => {
      const app = await started();
      vi.spyOn(Repository.prototype, 'queueOutbox').mockRejectedValueOnce(new Error('outbox refused alice@example.com'));
      const answer = await askReset(app, 'alice@example.com');
      expect(answer.statusCode).toBe(200);
      await app.storefrontApiSettled();
      expect(await mails()).toEqual([]);
      expect(await store.read.listAfterAnswerJobs()).toMatchObject([{ kind: 'password-reset', attempts: 0 }]);
      clock.now += GRACE;
      expect(await app.afterAnswerRecovery!.run()).toEqual({ dropped: 0, claimed: 1, done: 1, failed: 0 });
      expect(await mails()).toEqual(['alice@example.com: Reset your password']);
      expect(await store.read.listAfterAnswerJobs()).toEqual([]);
      expect(logged().filter((entry) => entry.level >= 50).map((entry) => entry.msg)).toEqual(['after-answer job failed; it will be retried']);
      expect(lines.join('\n')).not.toMatch(ADDRESS);
    });

    it('a job that keeps failing is retried with doubling waits, then dropped with a log line that names no address', async () => {
      const app = await started({ maxAttempts: 3, retryBaseMs: 1000, retryMaxMs: 60_000 });
      vi.spyOn(Repository.prototype, 'queueOutbox').mockRejectedValue(new Error('outbox refused alice@example.com'));
      await askReset(app, 'alice@example.com');
      await app.storefrontApiSettled();
      clock.now += GRACE;
      const jobs = () => store.read.listAfterAnswerJobs();
      const recover = () => app.afterAnswerRecovery!.run();
      expect(await recover()).toEqual({ dropped: 0, claimed: 1, done: 0, failed: 1 });
      expect(await jobs()).toMatchObject([{ attempts: 1, dueAt: clock.now + 1000 }]);
      clock.now += 999;
      expect(await recover()).toMatchObject({ claimed: 0 });
      clock.now += 1;
      expect(await recover()).toMatchObject({ claimed: 1, failed: 1 });
      expect(await jobs()).toMatchObject([{ attempts: 2, dueAt: clock.now + 2000 }]);
      clock.now += 2000;
      expect(await recover()).toMatchObject({ claimed: 1, failed: 1 });
      expect(await jobs()).toMatchObject([{ attempts: 3, dueAt: clock.now + 4000 }]);
      clock.now += 4000;
      expect(await recover()).toEqual({ dropped: 1, claimed: 0, done: 0, failed: 0 });
      expect(await jobs()).toEqual([]);
      expect(await mails()).toEqual([]);
      const errors = logged().filter((entry) => entry.level >= 50);
      expect(errors.map((entry) => entry.msg)).toEqual([
        'after-answer job failed; it will be retried',
        'after-answer job failed; it will be retried',
        'after-answer job failed; it will be retried',
        'after-answer job failed; it will be retried',
        'after-answer job dropped after its last attempt: its mail is not sent',
      ]);
      expect(errors.at(-1)).toMatchObject({ kind: 'password-reset', attempts: 3 });
      expect(lines.join('\n')).not.toMatch(ADDRESS);
    });

    it('a job reached at once by its request and by two recoveries (two processes) queues its mail once', async () => {
      const afterResponse = new AfterResponse();
      let ids = 0;
      const deps = { store, now: () => clock.now, newId: (prefix: string) => `${prefix}-${++ids}`, afterResponse };
      // No grace: every job is due to the recoveries as soon as it is recorded.
      const processes = [new AfterAnswerJobs(deps, { graceMs: 0, batch: 50 }), new AfterAnswerJobs(deps, { graceMs: 0, batch: 50 })];
      const runs: string[] = [];
      for (const jobs of processes) {
        jobs.handle('test-mail', async (repo, job) => {
          runs.push(job.id);
          await enqueueMail(repo, { id: deps.newId('m'), to: job.email, subject: 'Hello', body: job.id, queuedOn: clock.now });
        });
      }
      const log = { error: () => {}, warn: () => {} } as unknown as FastifyBaseLogger;
      const recorded: string[] = [];
      for (let i = 0; i < 20; i++) recorded.push(await processes[0]!.record(store.read, 'test-mail', `reader${i}@example.com`));
      for (const id of recorded) processes[0]!.runAfterAnswer(id, log);
      const results = await Promise.all([processes[0]!.recover(log), processes[1]!.recover(log), afterResponse.idle()]);
      expect(await store.read.listAfterAnswerJobs()).toEqual([]);
      expect(runs.sort()).toEqual([...recorded].sort());
      expect((await store.read.listOutbox()).map((row) => row.body).sort()).toEqual([...recorded].sort());
      // Whoever ran a job, nobody ran it twice, and no claim was counted as a failure.
      expect(results[0].failed + results[1].failed).toBe(0);
    });
  });
}

await onEachStore('after-answer jobs', 'jobs', jobsSuite);

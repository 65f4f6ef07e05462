import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openMemoryStore, type SqlStore } from '../store/store.ts';
import { onEachStore, type OpenedStore } from '../test-support/store-backends.ts';
import { startSmtpSink, type SmtpSink } from '../test-support/smtp-sink.ts';
import {
  backoffMs,
  createOutboxWorker,
  emlTransport,
  enqueueMail,
  mailSettingsFromEnv,
  MailSettingsError,
  maskAddress,
  outboxMessageId,
  smtpTransport,
  type OutboxWorkerOptions,
} from './outbox-worker.ts';

const FROM = 'Quire Shop <shop@quire.test>';
const BASE = 1_000;

/** A clock the test moves by hand: no test waits for wall-clock time. */
function manualClock(start = 1_700_000_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

async function queue(store: SqlStore, id: string, to: string, subject: string, body: string, at: number): Promise<void> {
  await store.transaction((repo) => enqueueMail(repo, { id, to, subject, body, queuedOn: at }));
}

function outboxSuite(name: string, open: () => Promise<OpenedStore>) {
  describe(name, () => {
    let store: SqlStore;
    let close: () => Promise<void>;
    let sink: SmtpSink;
    let clock: ReturnType<typeof manualClock>;
    const lines: string[] = [];

    const worker = (extra: Partial<OutboxWorkerOptions> = {}) =>
      createOutboxWorker({
        store,
        transport: smtpTransport(sink.url),
        from: FROM,
        maxAttempts: 3,
        retryBaseMs: BASE,
        retryMaxMs: 60_000,
        now: clock.now,
        log: (line) => lines.push(line),
        ...extra,
      });

    beforeAll(async () => {
      ({ store, close } = await open());
      sink = await startSmtpSink();
    }, 60_000);

    afterAll(async () => {
      await sink?.close();
      await close?.();
    });

    beforeEach(async () => {
      await store.read.truncateAll();
      sink.received.length = 0;
      sink.refuse = null;
      lines.length = 0;
      clock = manualClock();
    });

    it('delivers each queued message to the SMTP server once, with a stable Message-ID, and marks it sent', async () => {
      await queue(store, 'm1', 'ada@example.com', 'Rare vinyl is back in stock', 'Good news: Rare vinyl is back in stock.', clock.now());
      await queue(store, 'm2', 'bob@example.com', 'New submission: Contact', 'Name: Bob', clock.now());
      const w = worker();
      expect(await w.tick()).toEqual({ sent: 2, retried: 0, failed: 0 });
      const mails = await sink.waitFor(2);
      expect(mails.map((mail) => [mail.to, mail.subject, mail.text.trim()])).toEqual([
        [['ada@example.com'], 'Rare vinyl is back in stock', 'Good news: Rare vinyl is back in stock.'],
        [['bob@example.com'], 'New submission: Contact', 'Name: Bob'],
      ]);
      expect(mails[0]!.from).toBe('shop@quire.test');
      expect(mails[0]!.messageId).toBe(outboxMessageId('m1', FROM));
      expect(mails[0]!.messageId).toBe('<outbox-m1@quire.test>');
      const rows = await store.read.listOutbox();
      expect(rows.map((row) => [row.id, row.status, row.attempts, row.sentAt, row.messageId])).toEqual([
        ['m1', 'sent', 1, clock.now(), '<outbox-m1@quire.test>'],
        ['m2', 'sent', 1, clock.now(), '<outbox-m2@quire.test>'],
      ]);
      // Nothing is due any more: a further tick sends nothing.
      expect(await w.tick()).toEqual({ sent: 0, retried: 0, failed: 0 });
      expect(sink.received).toHaveLength(2);
      // The log names the message by a masked address and its subject, never the address.
      expect(lines.join('\n')).not.toMatch(/ada@example\.com|bob@example\.com/);
      expect(lines[0]).toContain('a***@example.com');
      expect(lines[0]).toContain('"Rare vinyl is back in stock"');
      await w.stop();
    });

    it('retries a refused attempt after the backoff, then delivers it', async () => {
      let refusals = 1;
      sink.refuse = () => (refusals-- > 0 ? { code: 451, message: 'Greylisted, try again later' } : null);
      await queue(store, 'm1', 'cy@example.com', 'Back in stock', 'Hello', clock.now());
      const w = worker();
      expect(await w.tick()).toEqual({ sent: 0, retried: 1, failed: 0 });
      expect(sink.received).toHaveLength(0);
      let [row] = await store.read.listOutbox();
      expect(row).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: clock.now() + BASE, claimedBy: null });
      expect(row!.lastError).toContain('Greylisted');
      // Not due before the backoff has passed.
      clock.advance(BASE - 1);
      expect(await w.tick()).toEqual({ sent: 0, retried: 0, failed: 0 });
      clock.advance(1);
      expect(await w.tick()).toEqual({ sent: 1, retried: 0, failed: 0 });
      const [mail] = await sink.waitFor(1);
      expect(mail).toMatchObject({ to: ['cy@example.com'], subject: 'Back in stock' });
      expect(mail!.text.trim()).toBe('Hello');
      [row] = await store.read.listOutbox();
      expect(row).toMatchObject({ status: 'sent', attempts: 2 });
      await w.stop();
    });

    it('backs off exponentially and marks the message failed after the last attempt', async () => {
      sink.refuse = () => ({ code: 421, message: 'Service not available' });
      await queue(store, 'm1', 'dee@example.com', 'Back in stock', 'Hello', clock.now());
      const w = worker();
      const delays: number[] = [];
      for (let attempt = 1; attempt <= 3; attempt++) {
        const before = clock.now();
        await w.tick();
        const [row] = await store.read.listOutbox();
        if (row!.status === 'pending') {
          delays.push(row!.nextAttemptAt - before);
          clock.advance(row!.nextAttemptAt - before);
        }
      }
      expect(delays).toEqual([BASE, 2 * BASE]);
      const [row] = await store.read.listOutbox();
      expect(row).toMatchObject({ status: 'failed', attempts: 3 });
      // A failed message is never picked up again.
      clock.advance(24 * 3_600_000);
      expect(await w.tick()).toEqual({ sent: 0, retried: 0, failed: 0 });
      expect(sink.received).toHaveLength(0);
      expect(lines.at(-1)).toContain('failed for good after 3 attempt(s)');
      expect(lines.join('\n')).not.toContain('dee@example.com');
      await w.stop();
    });

    it('marks a permanently refused message (5xx) failed at once', async () => {
      sink.refuse = () => ({ code: 550, message: 'No such mailbox' });
      await queue(store, 'm1', 'nobody@example.com', 'Back in stock', 'Hello', clock.now());
      const w = worker();
      expect(await w.tick()).toEqual({ sent: 0, retried: 0, failed: 1 });
      const [row] = await store.read.listOutbox();
      expect(row).toMatchObject({ status: 'failed', attempts: 1 });
      await w.stop();
    });

    it('sends nothing again after a restart: a new worker over the same store finds nothing due', async () => {
      await queue(store, 'm1', 'eve@example.com', 'Back in stock', 'Hello', clock.now());
      const first = worker();
      expect((await first.tick()).sent).toBe(1);
      await first.stop();
      await sink.waitFor(1);
      const second = worker();
      clock.advance(7 * 24 * 3_600_000);
      expect(await second.tick()).toEqual({ sent: 0, retried: 0, failed: 0 });
      expect(sink.received).toHaveLength(1);
      await second.stop();
    });

    it('resends a message whose worker died mid-delivery only after its claim lapses, with the same Message-ID', async () => {
      await queue(store, 'm1', 'fay@example.com', 'Back in stock', 'Hello', clock.now());
      // A worker that claimed the row and died before marking it (crash between the SMTP
      // server's acceptance and the mark): the claim is held until its lease ends.
      const lease = 60_000;
      await store.transaction((repo) => repo.claimOutbox(clock.now(), 'dead-worker', clock.now() + lease, 10));
      const w = worker({ leaseMs: lease });
      expect(await w.tick()).toEqual({ sent: 0, retried: 0, failed: 0 });
      clock.advance(lease);
      expect(await w.tick()).toEqual({ sent: 1, retried: 0, failed: 0 });
      const [mail] = await sink.waitFor(1);
      expect(mail!.messageId).toBe('<outbox-m1@quire.test>');
      const [row] = await store.read.listOutbox();
      expect(row).toMatchObject({ status: 'sent', attempts: 2 });
      await w.stop();
    });

    it('an accepted message whose mark fails is not counted as refused: it is resent only after the lease', async () => {
      await queue(store, 'm1', 'gil@example.com', 'Back in stock', 'Hello', clock.now());
      let failMark = true;
      const read = new Proxy(store.read, {
        get(target, name, receiver) {
          if (name === 'markOutboxSent' && failMark) {
            return async () => {
              failMark = false;
              throw new Error('connection terminated');
            };
          }
          const value = Reflect.get(target, name, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const flaky = { kind: store.kind, read, transaction: store.transaction.bind(store), close: () => store.close() };
      const lease = 60_000;
      const w = worker({ store: flaky, leaseMs: lease });
      await expect(w.tick()).rejects.toThrow('connection terminated');
      await sink.waitFor(1);
      let [row] = await store.read.listOutbox();
      // Still claimed and pending, no error recorded: the SMTP server did take it.
      expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: null });
      expect(row!.claimedUntil).toBe(clock.now() + lease);
      expect(await w.tick()).toEqual({ sent: 0, retried: 0, failed: 0 });
      clock.advance(lease);
      expect(await w.tick()).toEqual({ sent: 1, retried: 0, failed: 0 });
      const mails = await sink.waitFor(2);
      // The duplicate the at-least-once window allows, recognisable by its Message-ID.
      expect(mails.map((mail) => mail.messageId)).toEqual(['<outbox-m1@quire.test>', '<outbox-m1@quire.test>']);
      [row] = await store.read.listOutbox();
      expect(row).toMatchObject({ status: 'sent', attempts: 2 });
      await w.stop();
    });

    it('two workers ticking at once deliver every message exactly once', async () => {
      for (let i = 0; i < 12; i++) await queue(store, `m${String(i).padStart(2, '0')}`, `v${i}@example.com`, `Subject ${i}`, 'Hello', clock.now());
      const a = worker({ batchSize: 4, workerId: 'a' });
      const b = worker({ batchSize: 4, workerId: 'b' });
      let total = 0;
      for (let round = 0; round < 6; round++) {
        const [ra, rb] = await Promise.all([a.tick(), b.tick()]);
        total += ra.sent + rb.sent;
      }
      expect(total).toBe(12);
      const mails = await sink.waitFor(12);
      expect(mails.map((mail) => mail.subject).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `Subject ${i}`).sort());
      expect((await store.read.listOutbox()).every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
      await Promise.all([a.stop(), b.stop()]);
    });
  });
}

await onEachStore('outbox worker', 'outbox', outboxSuite);

describe('the .eml fallback (no SMTP_URL)', () => {
  let store: SqlStore;
  let dir: string;

  beforeAll(async () => {
    store = await openMemoryStore();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-eml-'));
  });

  afterAll(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes each message as DATA_DIR/outbox/<id>.eml and logs one masked line per message', async () => {
    const clock = manualClock();
    await queue(store, 'm1', 'grace.hopper@example.com', 'Rare vinyl is back in stock', 'Good news.', clock.now());
    const lines: string[] = [];
    const outbox = path.join(dir, 'outbox');
    const w = createOutboxWorker({ store, transport: emlTransport(outbox), from: FROM, now: clock.now, log: (line) => lines.push(line) });
    expect(await w.tick()).toEqual({ sent: 1, retried: 0, failed: 0 });
    const file = path.join(outbox, 'm1.eml');
    const raw = fs.readFileSync(file, 'utf8');
    expect(raw).toMatch(/^To: grace\.hopper@example\.com$/m);
    expect(raw).toMatch(/^Subject: Rare vinyl is back in stock$/m);
    expect(raw).toMatch(/^Message-ID: <outbox-m1@quire\.test>$/m);
    expect(raw).toContain('Good news.');
    expect(lines).toEqual([`quire: mail written (no SMTP_URL, not sent): to g***@example.com, "Rare vinyl is back in stock", ${file}`]);
    expect(fs.readdirSync(outbox)).toEqual(['m1.eml']);
    // Written once: the row is sent, a new worker writes nothing.
    const again = createOutboxWorker({ store, transport: emlTransport(outbox), from: FROM, now: clock.now });
    expect((await again.tick()).sent).toBe(0);
    await Promise.all([w.stop(), again.stop()]);
  });

  it('a stored address is one address: a comma or semicolon in it never sends the mail elsewhere', async () => {
    const clock = manualClock();
    await queue(store, 'c1', 'a,victim@x.co', 'Back in stock', 'Hi.', clock.now());
    await queue(store, 'c2', 'a;other@x.co', 'Back in stock', 'Hi.', clock.now());
    const outbox = path.join(dir, 'outbox-list');
    const w = createOutboxWorker({ store, transport: emlTransport(outbox), from: FROM, now: clock.now });
    expect((await w.tick()).sent).toBe(2);
    expect(fs.readFileSync(path.join(outbox, 'c1.eml'), 'utf8')).toMatch(/^To: <"a,victim"@x\.co>$/m);
    expect(fs.readFileSync(path.join(outbox, 'c2.eml'), 'utf8')).toMatch(/^To: <"a;other"@x\.co>$/m);
    await w.stop();
  });
});

describe('mail settings', () => {
  it('reads SMTP_URL, MAIL_FROM and the retry settings, with DATA_DIR/outbox for the .eml files', () => {
    expect(mailSettingsFromEnv({ DATA_DIR: '/srv/quire' })).toEqual({
      smtpUrl: null,
      from: 'Quire Store <store@localhost>',
      emlDir: path.resolve('/srv/quire/outbox'),
      maxAttempts: 8,
      retryBaseMs: 30_000,
      retryMaxMs: 3_600_000,
      pollMs: 2_000,
    });
    const set = mailSettingsFromEnv({ SMTP_URL: 'smtp://mail.example.com:2525', MAIL_FROM: 'Shop <shop@example.com>', MAIL_MAX_ATTEMPTS: '3', MAIL_RETRY_BASE_MS: '500', MAIL_POLL_MS: '100' });
    expect(set).toMatchObject({ smtpUrl: 'smtp://mail.example.com:2525', from: 'Shop <shop@example.com>', maxAttempts: 3, retryBaseMs: 500, pollMs: 100 });
  });

  it('refuses bad values with one line naming the setting', () => {
    expect(() => mailSettingsFromEnv({ SMTP_URL: 'mail.example.com' })).toThrow(MailSettingsError);
    expect(() => mailSettingsFromEnv({ MAIL_FROM: 'shop' })).toThrow(/MAIL_FROM/);
    expect(() => mailSettingsFromEnv({ MAIL_MAX_ATTEMPTS: '0' })).toThrow(/MAIL_MAX_ATTEMPTS must be an integer from 1 to 100/);
  });

  it('doubles the delay per attempt up to the cap, and masks addresses for the log', () => {
    expect([1, 2, 3, 4, 10].map((n) => backoffMs(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(maskAddress('grace.hopper@example.com')).toBe('g***@example.com');
    expect(maskAddress('nonsense')).toBe('[email]');
  });
});

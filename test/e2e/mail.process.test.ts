// Email that arrives (issue 15), through `bin/start.mjs` as deployed: restock send-all via
// the admin API reaches an SMTP server given as SMTP_URL; without SMTP_URL the messages are
// .eml files under DATA_DIR/outbox, listed in the log with masked addresses; with
// `--workers 2` on PostgreSQL both workers deliver, and no message twice. An order placed
// through the checkout API sends its receipt the same way.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../renderer/store/store.ts';
import { PG_URL, reachablePostgres, throwAwaySchema } from '../../renderer/test-support/postgres.ts';
import { startSmtpSink, type SmtpSink } from '../../renderer/test-support/smtp-sink.ts';
import { Browser } from './browser.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';

const ADMIN = { authorization: 'Bearer mail-admin' };
const RESTOCK = '/api/site-users/account/notifications/restock';

/** Signs `emails` up for the sold-out tee in L, restocks it and sends every notice (B14). */
async function signUpRestockAndSendAll(origin: string, emails: string[]): Promise<void> {
  const visitor = Browser.at(origin);
  expect((await visitor.get('/')).status).toBe(200);
  // Sold out again (a later round): sign-ups are taken only for a variant out of stock.
  const soldOut = await visitor.request('PUT', '/api/commerce/inventory/stock/tee/tee-l', { qtyInStock: 0 }, ADMIN);
  expect(soldOut.status, soldOut.text).toBe(200);
  for (const [index, email] of emails.entries()) {
    const signedUp = await visitor.post(RESTOCK, { productId: 'tee', variantId: 'tee-l', siteVisitorEmail: email, captchaToken: `local-ok:demo-site-key:mail-${index}-${Math.random()}` });
    expect(signedUp.status, signedUp.text).toBe(200);
  }
  const stocked = await visitor.request('PUT', '/api/commerce/inventory/stock/tee/tee-l', { qtyInStock: 5 }, ADMIN);
  expect(stocked.status, stocked.text).toBe(200);
  const sent = await visitor.post(`${RESTOCK}/send/all`, { sendRequests: [{ productId: 'tee', variantId: 'tee-l' }] }, ADMIN);
  expect(sent.status, sent.text).toBe(200);
  expect(sent.json<{ results: { sentCount: number }[] }>().results).toEqual([{ productId: 'tee', variantId: 'tee-l', sentCount: emails.length }]);
}

/** Waits for a state of the server's output (a hang is caught by the test's timeout). */
async function outputMatching(server: ServerProcess, pattern: RegExp, count: number): Promise<string[]> {
  for (;;) {
    const matches = server.output().match(new RegExp(pattern.source, 'gm')) ?? [];
    if (matches.length >= count) return matches;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('mail from the server process', () => {
  const dataDirs: string[] = [];
  let server: ServerProcess | null = null;
  let sink: SmtpSink | null = null;

  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-mail-'));
    dataDirs.push(dir);
    return dir;
  };

  afterEach(async () => {
    await server?.kill('SIGTERM');
    server = null;
    await sink?.close();
    sink = null;
  });
  afterAll(() => {
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restock send-all via the admin API reaches the SMTP server of SMTP_URL, and a restart sends nothing twice', async () => {
    sink = await startSmtpSink();
    const dir = dataDir();
    server = await startServer({
      port: await freePort(),
      env: { DATA_DIR: dir, ADMIN_TOKEN: 'mail-admin', SMTP_URL: sink.url, MAIL_FROM: 'Demo Shop <shop@demo.test>', MAIL_POLL_MS: '100' },
    });
    await signUpRestockAndSendAll(server.origin, ['night.owl@example.com', 'early.bird@example.com']);
    const mails = await sink.waitFor(2);
    expect(mails.map((mail) => mail.to[0]).sort()).toEqual(['early.bird@example.com', 'night.owl@example.com']);
    for (const mail of mails) {
      expect(mail.from).toBe('shop@demo.test');
      expect(mail.subject).toBe('Classic Tee is back in stock');
      // The size signed up for, the shop, and the product's page on the server that sent it.
      expect(mail.text.trim()).toBe(`Good news: Classic Tee (L) is back in stock at Quire Demo Shop.\n\nOrder it here: ${server!.origin}/shop/tee`);
      expect(mail.messageId).toMatch(/^<outbox-.+@demo\.test>$/);
    }
    const lines = await outputMatching(server, /^quire: mail sent: .*$/, 2);
    expect(lines.join('\n')).toContain('n***@example.com');
    expect(server.output()).not.toMatch(/night\.owl@example\.com|early\.bird@example\.com/);

    // A restart on the same DATA_DIR sends nothing again: the worker claims the oldest due
    // rows first, so once a message queued after the restart has arrived, a resend of the
    // earlier two would have arrived before it.
    await server.kill('SIGTERM');
    server = await startServer({
      port: await freePort(),
      env: { DATA_DIR: dir, ADMIN_TOKEN: 'mail-admin', SMTP_URL: sink.url, MAIL_FROM: 'Demo Shop <shop@demo.test>', MAIL_POLL_MS: '100' },
    });
    await signUpRestockAndSendAll(server.origin, ['late.lark@example.com']);
    await sink.waitFor(3);
    expect(sink.received.map((mail) => mail.to[0])).toEqual([...mails.slice(0, 2).map((mail) => mail.to[0]), 'late.lark@example.com']);
  }, 240_000);

  it('an order placed with the test card: stock one lower, in the admin list, and its receipt reaches SMTP_URL', async () => {
    sink = await startSmtpSink();
    server = await startServer({
      port: await freePort(),
      env: { DATA_DIR: dataDir(), ADMIN_TOKEN: 'mail-admin', SMTP_URL: sink.url, MAIL_FROM: 'Demo Shop <shop@demo.test>', MAIL_POLL_MS: '100' },
    });
    const visitor = Browser.at(server.origin);
    expect((await visitor.get('/')).status).toBe(200);
    const stock = async () => (await visitor.get('/api/commerce/inventory/stock?itemId=tee')).json<{ results: { variantId: string; qtyInStock: number }[] }>();
    const before = await stock();
    const added = await visitor.post('/api/commerce/shopping-cart/entries', { itemId: 'tee', sku: 'TEE-S', quantity: 1 });
    expect(added.status, added.text).toBe(200);
    const cartToken = added.json<{ shoppingCart: { id: string } }>().shoppingCart.id;
    const checkout = await visitor.get(`/api/commerce/checkout?cartToken=${cartToken}`);
    const firstOption = checkout.json<{ shippingOptions: { id: string }[] }>().shippingOptions[0]!.id;
    const card = { provider: 'test', cardNumber: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
    const order = {
      cartToken, email: 'order.buyer@example.com', shippingOptionId: firstOption, idempotencyKey: 'e2e-order-1',
      shippingAddress: { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Main St', city: 'New York', region: 'NY', postalCode: '10001', country: 'US' },
    };
    const declined = await visitor.post('/api/commerce/checkout/place', { ...order, idempotencyKey: 'e2e-declined', payment: { ...card, cardNumber: '4000000000000002' } });
    expect(declined.status, declined.text).toBe(402);
    const placed = await visitor.post('/api/commerce/checkout/place', { ...order, payment: card });
    expect(placed.status, placed.text).toBe(200);
    const { orderId, orderNumber } = placed.json<{ orderId: string; orderNumber: number }>();
    const after = await stock();
    const qty = (view: typeof before) => view.results.find((row) => row.variantId === 'tee-s')?.qtyInStock;
    expect(qty(after)).toBe(qty(before)! - 1);
    const listed = await visitor.request('GET', '/api/commerce/orders', undefined, ADMIN);
    expect(listed.json<{ orders: { id: string }[] }>().orders.map((row) => row.id)).toEqual([orderId]);
    const [receipt] = await sink.waitFor(1);
    expect(receipt).toMatchObject({ to: ['order.buyer@example.com'], subject: `Your order #${orderNumber} from Quire Demo Shop` });
    expect(receipt!.text).toContain('Classic Tee (S)');
    expect(server.output()).not.toMatch(/order\.buyer@example\.com|4242424242424242|4000000000000002/);
  }, 240_000);

  it('a password reset answered just before a SIGKILL is mailed by the next start, once', async () => {
    sink = await startSmtpSink();
    const dir = dataDir();
    const env = { DATA_DIR: dir, ADMIN_TOKEN: 'mail-admin', SMTP_URL: sink.url, MAIL_POLL_MS: '100' };
    server = await startServer({ port: await freePort(), env });
    expect(await server.kill('SIGKILL')).toBe(null);
    // What the killed process left: a request's job recorded before its answer and never run
    // (api/after-response.ts); killing it in the microseconds between the two is not something
    // a test can time, so the row is written as the request writes it, while no server runs.
    const store = await openStore({ dataDir: dir });
    try {
      const at = Date.now() - 60_000;
      await store.read.recordAfterAnswerJob({ id: 'j-crash', kind: 'password-reset', email: 'Demo@Example.com', detail: {}, createdOn: at, dueAt: at + 30_000 });
    } finally {
      await store.close();
    }
    server = await startServer({ port: await freePort(), env });
    const [mail] = await sink.waitFor(1);
    expect(mail).toMatchObject({ to: ['demo@example.com'], subject: 'Reset your password' });
    expect(mail!.text).toMatch(/\/account\/reset-password#reset-password=[A-Za-z0-9_-]+/);
    await server.kill('SIGTERM');
    server = null;
    const after = await openStore({ dataDir: dir });
    try {
      expect(await after.read.listAfterAnswerJobs()).toEqual([]);
      expect((await after.read.listOutbox()).filter((row) => row.subject === 'Reset your password').map((row) => row.status)).toEqual(['sent']);
    } finally {
      await after.close();
    }
    expect(sink.received).toHaveLength(1);
  }, 240_000);

  it('without SMTP_URL writes each message to DATA_DIR/outbox/<id>.eml and lists it in the log', async () => {
    const dir = dataDir();
    server = await startServer({ port: await freePort(), env: { DATA_DIR: dir, ADMIN_TOKEN: 'mail-admin', MAIL_POLL_MS: '100' } });
    await signUpRestockAndSendAll(server.origin, ['night.owl@example.com']);
    const [line] = await outputMatching(server, /^quire: mail written \(no SMTP_URL, not sent\): .*$/, 1);
    expect(line).toMatch(/: to n\*\*\*@example\.com, "Classic Tee is back in stock", .*\.eml$/);
    const file = line!.slice(line!.lastIndexOf(', ') + 2);
    expect(path.dirname(file)).toBe(path.join(dir, 'outbox'));
    const raw = fs.readFileSync(file, 'utf8');
    expect(raw).toMatch(/^To: night\.owl@example\.com$/m);
    expect(raw).toMatch(/^Subject: Classic Tee is back in stock$/m);
    expect(server.output()).not.toContain('night.owl@example.com');
  }, 180_000);
});

const pgUrl = await reachablePostgres();
const pgName = pgUrl === null ? `mail with --workers 2 (skipped: no PostgreSQL at ${PG_URL})` : 'mail with --workers 2 on PostgreSQL';

describe.skipIf(pgUrl === null)(pgName, () => {
  let server: ServerProcess | null = null;
  let sink: SmtpSink | null = null;
  let drop: (() => Promise<void>) | null = null;

  afterAll(async () => {
    await server?.kill('SIGTERM');
    await sink?.close();
    await drop?.();
  });

  it('both workers run an outbox worker, and every message is delivered exactly once', async () => {
    sink = await startSmtpSink();
    const schema = await throwAwaySchema(pgUrl!, 'mail');
    drop = schema.drop;
    server = await startServer({
      port: await freePort(),
      args: ['--workers', '2'],
      env: { DATABASE_URL: schema.databaseUrl, ADMIN_TOKEN: 'mail-admin', SMTP_URL: sink.url, MAIL_POLL_MS: '20' },
    });
    const emails = Array.from({ length: 6 }, (_, i) => `buyer${i}@example.com`);
    await signUpRestockAndSendAll(server.origin, emails);
    await sink.waitFor(emails.length);
    // Wait until the store says every message is sent, then nothing more may arrive.
    const client = new pg.Client({ connectionString: schema.databaseUrl });
    await client.connect();
    try {
      for (;;) {
        const { rows } = await client.query<{ pending: string }>(`SELECT count(*) AS pending FROM outbox WHERE status <> 'sent'`);
        if (Number(rows[0]!.pending) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await client.end();
    }
    expect(sink.received.map((mail) => mail.to[0]).sort()).toEqual([...emails].sort());
  }, 240_000);
});

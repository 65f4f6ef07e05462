import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acceptanceSeed, adminHeaders, json, useApiHarness, withCrumb } from '../test-support/api-harness.ts';
import { startSmtpSink, type SmtpSink } from '../test-support/smtp-sink.ts';
import { createOutboxWorker, smtpTransport } from './outbox-worker.ts';

// The mail the API queues reaches a real SMTP server through the outbox worker: restock
// send / send-all (every signed-up address) and the owner's form notifications.

const h = useApiHarness();
const RESTOCK = '/api/site-users/account/notifications/restock';
let sink: SmtpSink;
const lines: string[] = [];

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
});
beforeEach(() => {
  sink.received.length = 0;
  lines.length = 0;
});

function worker() {
  return createOutboxWorker({ store: h.store, transport: smtpTransport(sink.url), from: 'Shop <shop@quire.test>', now: () => h.clock.now, log: (line) => lines.push(line) });
}

describe('restock send through the outbox', () => {
  async function signUp(variantId: string, email: string) {
    h.clock.now += 1000;
    const response = await h.inject(withCrumb({ method: 'POST', url: RESTOCK, payload: { productId: 'pso', variantId, siteVisitorEmail: email, isJoinMailingList: false } }));
    expect(response.statusCode, response.body).toBe(200);
  }

  it('send-all delivers one notice to every signed-up address, once', async () => {
    for (const email of ['ann@example.com', 'ben@example.com', 'cat@example.com']) await signUp('vso1', email);
    await signUp('vso2', 'dan@example.com');
    for (const variant of ['vso1', 'vso2']) {
      const stocked = await h.inject({ method: 'PUT', url: `/api/commerce/inventory/stock/pso/${variant}`, payload: { qtyInStock: 3 }, headers: adminHeaders() });
      expect(stocked.statusCode, stocked.body).toBe(200);
    }
    const sent = await h.inject({
      method: 'POST',
      url: `${RESTOCK}/send/all`,
      payload: { sendRequests: [{ productId: 'pso', variantId: 'vso1' }, { productId: 'pso', variantId: 'vso2' }] },
      headers: adminHeaders(),
    });
    expect(json(sent).results.map((result: { sentCount: number }) => result.sentCount)).toEqual([3, 1]);
    // Queued, not yet delivered: the request does not wait for SMTP.
    expect(sink.received).toHaveLength(0);

    const w = worker();
    expect(await w.tick()).toEqual({ sent: 4, retried: 0, failed: 0 });
    const mails = await sink.waitFor(4);
    expect(mails.map((mail) => mail.to[0]).sort()).toEqual(['ann@example.com', 'ben@example.com', 'cat@example.com', 'dan@example.com']);
    for (const mail of mails) {
      expect(mail.subject).toBe('Rare vinyl is back in stock');
      expect(mail.text.trim()).toBe('Good news: Rare vinyl is back in stock.');
    }
    expect(lines.join('\n')).not.toMatch(/(ann|ben|cat|dan)@example\.com/);
    // A second send finds nobody pending, and the worker nothing due.
    const again = await h.inject({ method: 'POST', url: `${RESTOCK}/send`, payload: { productId: 'pso', variantId: 'vso1' }, headers: adminHeaders() });
    expect(json(again)).toEqual({ sentCount: 0 });
    expect((await w.tick()).sent).toBe(0);
    expect(sink.received).toHaveLength(4);
    await w.stop();
  });
});

describe('form notifications', () => {
  async function submit(formId: string) {
    const key = json(await h.inject(withCrumb({ method: 'POST', url: '/api/form/FormSubmissionKey' }))).key;
    return h.inject(
      withCrumb({
        method: 'POST',
        url: '/api/form/SaveFormSubmission',
        payload: {
          key,
          formId,
          form: JSON.stringify({ name: ['Ann', 'Lee'], msg: 'Do you ship to Oslo?' }),
          pageTitle: 'Contact us',
          pageId: 'page-1',
          contentSource: 'c',
          pagePath: '/contact',
          pagePermissionTypeValue: 1,
        },
      }),
    );
  }

  it('a form with notifyEmail tells the owner of each saved submission, with its fields', async () => {
    const seed = await acceptanceSeed();
    seed.forms = seed.forms!.map((form) => (form.id === 'contact' ? { ...form, notifyEmail: 'owner@shop.test' } : form));
    await h.reset({ seed });
    const saved = await submit('contact');
    expect(saved.statusCode, saved.body).toBe(200);
    const w = worker();
    expect((await w.tick()).sent).toBe(1);
    const [mail] = await sink.waitFor(1);
    expect(mail!.to).toEqual(['owner@shop.test']);
    expect(mail!.subject).toBe('New submission: Contact');
    expect(mail!.text).toBe('A visitor submitted "Contact" on /contact.\n\nName: Ann Lee\nMessage: Do you ship to Oslo?\n');
    await w.stop();
  });

  it('a reply goes to the visitor (Reply-To from the email field), and characters that reorder text are written out', async () => {
    const seed = await acceptanceSeed();
    seed.forms = seed.forms!.map((form) =>
      form.id === 'contact' ? { ...form, notifyEmail: 'owner@shop.test', fields: [...(form.fields ?? []), { id: 'em', type: 'email', title: 'Email' }] } : form,
    );
    await h.reset({ seed });
    const key = json(await h.inject(withCrumb({ method: 'POST', url: '/api/form/FormSubmissionKey' }))).key;
    const saved = await h.inject(
      withCrumb({
        method: 'POST',
        url: '/api/form/SaveFormSubmission',
        payload: {
          key,
          formId: 'contact',
          form: JSON.stringify({ name: ['Ann', 'Lee'], msg: 'See \u202egnp.exe', em: 'ann@example.com' }),
          pageTitle: 'Contact us',
          pageId: 'page-1',
          contentSource: 'c',
          pagePath: '/contact',
          pagePermissionTypeValue: 1,
        },
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const w = worker();
    expect((await w.tick()).sent).toBe(1);
    const [mail] = await sink.waitFor(1);
    expect(mail!.headers['reply-to']).toBe('ann@example.com');
    expect(mail!.text).toBe('A visitor submitted "Contact" on /contact.\n\nName: Ann Lee\nMessage: See [U+202E]gnp.exe\nEmail: ann@example.com\n');
    expect(mail!.raw).not.toContain('\u202e');
    await w.stop();
  });

  it('a form without an email field sets no Reply-To', async () => {
    const seed = await acceptanceSeed();
    seed.forms = seed.forms!.map((form) => (form.id === 'contact' ? { ...form, notifyEmail: 'owner@shop.test' } : form));
    await h.reset({ seed });
    expect((await submit('contact')).statusCode).toBe(200);
    const [row] = await h.store.read.listOutbox();
    expect(row!.headers ?? null).toBeNull();
  });

  it('a form without notifyEmail queues nothing', async () => {
    expect((await submit('contact')).statusCode).toBe(200);
    expect(await h.store.read.listOutbox()).toEqual([]);
  });
});

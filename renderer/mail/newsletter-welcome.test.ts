import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { withCrumb } from '../test-support/api-harness.ts';
import { useDemoHarness } from '../test-support/page-harness.ts';
import { recordStatements } from '../test-support/statement-log.ts';
import { newsletterWelcomeMail } from './newsletter-welcome.ts';
import { createOutboxWorker, emlTransport } from './outbox-worker.ts';

// A newsletter sign-up on the demo site's newsletter form queues one welcome mail carrying the
// address's signed unsubscribe link; following that link reaches the unsubscribe page (300)
// and its button (or a mail client's one-click POST) takes the address off the list.

const h = useDemoHarness({ resetEach: true });
const EMAIL = 'Reader@Example.com';

async function signUp(email: string) {
  const key = (await h.inject(withCrumb({ method: 'POST', url: '/api/form/FormSubmissionKey' }))).json().key as string;
  const response = await h.inject(
    withCrumb({
      method: 'POST',
      url: '/api/form/SaveFormSubmission',
      payload: { key, formId: 'newsletter', form: JSON.stringify({ 'newsletter-email': email }), contentSource: 'c', pagePath: '/', pagePermissionTypeValue: 1 },
    }),
  );
  expect(response.statusCode, response.body).toBe(200);
  // The welcome is queued after the answer (api/after-response.ts).
  await h.app.storefrontApiSettled();
}

const form = (fields: Record<string, string>) => ({ 'content-type': 'application/x-www-form-urlencoded', payload: new URLSearchParams(fields).toString() });

describe('newsletter welcome mail', () => {
  it('a sign-up queues exactly one mail whose link leads to the unsubscribe page, whose button removes the address', async () => {
    await signUp(EMAIL);
    // The same address again (another case, spaces) is on the list already: no second mail.
    await signUp('  reader@example.com ');
    const rows = await h.store.read.listOutbox();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ to: EMAIL, subject: 'You are subscribed to the Quire Demo Shop newsletter' });
    const link = /Unsubscribe: (\S+)/.exec(row!.body)![1]!;
    expect(row!.html).toContain(`<a href="${link.replaceAll('&', '&amp;')}">Unsubscribe</a>`);
    expect(row!.headers).toEqual({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });

    const url = new URL(link);
    expect(url.pathname).toBe('/newsletter/unsubscribe');
    const opened = await h.inject(url.pathname + url.search);
    expect(opened.statusCode).toBe(303);
    const pagePath = opened.headers.location as string;
    expect(pagePath.startsWith('/unsubscribe?')).toBe(true);
    const asking = await h.inject(pagePath);
    expect(asking.statusCode).toBe(200);
    expect(asking.body).toContain('Unsubscribe <strong>Reader@Example.com</strong> from the');
    expect(await h.store.read.isOnMailingList(EMAIL)).toBe(true);

    const button = /<form class="sf-unsubscribe-form" method="post" action="\/newsletter\/unsubscribe">([\s\S]*?)<\/form>/.exec(asking.body)![1]!;
    const fields = Object.fromEntries([...button.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&')]));
    const { payload, ...headers } = form(fields);
    const posted = await h.inject({ method: 'POST', url: '/newsletter/unsubscribe', headers, payload });
    expect(posted.statusCode).toBe(303);
    expect(await h.store.read.isOnMailingList(EMAIL)).toBe(false);
    expect((await h.inject(pagePath)).body).toContain('is unsubscribed');
  });

  it('the link takes a mail client’s one-click POST (RFC 8058); a forged token removes nothing', async () => {
    await signUp(EMAIL);
    await signUp('other@example.com');
    const rows = await h.store.read.listOutbox();
    expect(rows).toHaveLength(2);
    const link = new URL(/Unsubscribe: (\S+)/.exec(rows.find((r) => r.to === EMAIL)!.body)![1]!);
    const { payload, ...headers } = form({ 'List-Unsubscribe': 'One-Click' });
    const forged = `/newsletter/unsubscribe?${new URLSearchParams({ email: 'other@example.com', token: link.searchParams.get('token')! })}`;
    expect((await h.inject({ method: 'POST', url: forged, headers, payload })).statusCode).toBe(200);
    expect(await h.store.read.isOnMailingList('other@example.com')).toBe(true);
    const clicked = await h.inject({ method: 'POST', url: link.pathname + link.search, headers, payload });
    expect(clicked.statusCode).toBe(200);
    expect(await h.store.read.isOnMailingList(EMAIL)).toBe(false);
    // Neither a button form nor a one-click body: a 400 in the API error shape.
    const empty = await h.inject({ method: 'POST', url: '/newsletter/unsubscribe', ...form({}) });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
  });

  it('the delivered message (.eml, the bytes SMTP carries) has the List-Unsubscribe headers and the link in text and HTML; the log has no address', async () => {
    await signUp(EMAIL);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-welcome-'));
    const lines: string[] = [];
    const worker = createOutboxWorker({ store: h.store, transport: emlTransport(dir), from: 'Shop <shop@quire.test>', now: () => h.clock.now, log: (line) => lines.push(line) });
    try {
      expect((await worker.tick()).sent).toBe(1);
      const [file] = fs.readdirSync(dir);
      const eml = fs.readFileSync(path.join(dir, file!), 'utf8');
      const link = /Unsubscribe: (\S+)/.exec((await h.store.read.listOutbox())[0]!.body)![1]!;
      // Header lines may be folded; unfold before matching.
      const head = eml.slice(0, eml.indexOf('\n\n')).replace(/\n[ \t]+/g, ' ');
      expect(head).toContain(`List-Unsubscribe: <${link}>`);
      expect(head).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect(eml).toContain('Content-Type: text/plain');
      expect(eml).toContain('Content-Type: text/html');
      expect(lines.join('\n')).not.toMatch(/reader@example\.com/i);
      expect(lines.join('\n')).toContain('R***@Example.com');
    } finally {
      await worker.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an address new to the list and one already on it cost the answer the same statements; the welcome comes after it', async () => {
    // Past the earlier tests' windows of the per-address limits (one app serves the file).
    h.clock.now += 24 * 60 * 60_000;
    await signUp('already@example.com');
    await h.app.ready();
    // The retention sweep's and the job recovery's statements are not the sign-up's.
    await h.app.retentionSweep?.stop();
    await h.app.afterAnswerRecovery?.stop();
    // Every statement, in and out of transactions, with the answer's arrival marked.
    const statements = recordStatements(h.store.client);
    const run = async (email: string) => {
      const key = (await h.inject(withCrumb({ method: 'POST', url: '/api/form/FormSubmissionKey' }))).json().key as string;
      statements.length = 0;
      const answer = await h.inject(
        withCrumb({ method: 'POST', url: '/api/form/SaveFormSubmission', payload: { key, formId: 'newsletter', form: JSON.stringify({ 'newsletter-email': email }), contentSource: 'c', pagePath: '/', pagePermissionTypeValue: 1 } }),
      );
      const before = [...statements];
      await h.app.storefrontApiSettled();
      return { answer, before, after: statements.map(table).slice(before.length) };
    };
    const table = (sql: string) => /^BEGIN$|(?:FROM|INTO|UPDATE) (\w+)/.exec(sql)?.[1] ?? sql;
    const known = await run('already@example.com');
    const fresh = await run('fresh@example.com');
    vi.restoreAllMocks();
    expect(known.answer.statusCode).toBe(200);
    expect(fresh.answer.statusCode).toBe(200);
    // The same statements, SQL for SQL: the sign-up's, and the job's one INSERT in its
    // transaction, which keeps the welcome through a crash (api/after-response.ts).
    expect(fresh.before).toEqual(known.before);
    expect(known.before.map(table)).toContain('after_answer_jobs');
    expect(known.before.map(table)).not.toContain('outbox');
    // After the answer each job is taken (deleted) in a transaction of its own: the address
    // already on the list gets nothing; the new one its welcome (unsubscribe secret read, mail queued).
    expect(known.after).toEqual(['BEGIN', 'after_answer_jobs']);
    expect(fresh.after.slice(0, 2)).toEqual(['BEGIN', 'after_answer_jobs']);
    expect(fresh.after.at(-1)).toBe('outbox');
    expect((await h.store.read.listOutbox()).map((mail) => mail.to).sort()).toEqual(['already@example.com', 'fresh@example.com']);
    expect(await h.store.read.listAfterAnswerJobs()).toEqual([]);
  });

  it('the message escapes the address and names the site', () => {
    const mail = newsletterWelcomeMail('a<b>@example.com', 'Shop & Co', 'https://shop.example/newsletter/unsubscribe?email=x&token=y');
    expect(mail.html).toContain('a&lt;b&gt;@example.com');
    expect(mail.html).toContain('Shop &amp; Co newsletter');
    expect(mail.html).toContain('href="https://shop.example/newsletter/unsubscribe?email=x&amp;token=y"');
    expect(mail.body).toContain('Unsubscribe: https://shop.example/newsletter/unsubscribe?email=x&token=y');
  });
});

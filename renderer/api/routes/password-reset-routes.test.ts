import { describe, expect, it, vi } from 'vitest';
import { USER_PASSWORD, json, useApiHarness, withCrumb } from '../../test-support/api-harness.ts';
import { RESET_REQUESTED_MESSAGE } from './password-reset-routes.ts';
import { recordStatements } from '../../test-support/statement-log.ts';

// A member's forgotten password (designed here): the neutral request, the mail with its
// single-use link, the new password, and the limits, against the shared PGlite database.

const h = useApiHarness();

const post = (url: string, payload: Record<string, unknown>, cookies: Record<string, string> = {}) =>
  h.inject(withCrumb({ method: 'POST', url, payload, cookies }));
const requestPath = '/api/site-users/account/password-reset';
/** The request, and then the mail work it handed off past its answer (after-response.ts). */
async function requestReset(email: string) {
  const answer = await post(requestPath, { email });
  await h.app.storefrontApiSettled();
  return answer;
}
const setPassword = (token: string, password: string) => post('/api/site-users/account/password', { token, password });
const check = (token: string) => post('/api/site-users/account/password-reset/check', { token });
const signIn = (password: string) => post('/api/site-users/account/session', { email: 'alice@example.com', password });

async function resetMails() {
  return (await h.store.read.listOutbox()).filter((row) => row.subject === 'Reset your password');
}

/** The token of the newest reset mail, read from its link's fragment. */
async function mailedToken(): Promise<string> {
  const mails = await resetMails();
  const match = /\/account\/reset-password#reset-password=([A-Za-z0-9_-]+)/.exec(mails.at(-1)?.body ?? '');
  if (!match) throw new Error('no reset link in the mail');
  return match[1]!;
}

describe('password reset (designed here)', () => {
  it('answers an unknown address exactly as a known one, and mails only the account', async () => {
    const unknown = await requestReset('nobody@example.com');
    const known = await requestReset('Alice@Example.com');
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(json(unknown)).toEqual({ success: true, message: RESET_REQUESTED_MESSAGE });
    expect(unknown.body).toBe(known.body);
    const mails = await resetMails();
    expect(mails.map((m) => m.to)).toEqual(['alice@example.com']);
    const token = await mailedToken();
    // Only the token's hash is stored.
    const rows = await h.store.client.query('SELECT token_hash FROM password_resets');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('does the same awaited work for a known address and an unknown one: the answer waits for no lookup, token or mail', async () => {
    // Every statement the store runs, and a gate that holds every transaction until the
    // answer is in: an answer that waited for the lookup (or the token, or the mail) would
    // never come, and the statements run before it would differ between the two addresses.
    // The retention sweep's and the job recovery's statements are not the request's: they run
    // at ready, and are stopped.
    await h.app.ready();
    await h.app.retentionSweep?.stop();
    await h.app.afterAnswerRecovery?.stop();
    let open!: () => void;
    let gate = new Promise<void>((resolve) => (open = resolve));
    const statements = recordStatements(h.store.client, () => gate);
    const answerOf = async (email: string) => {
      statements.length = 0;
      const answer = await post(requestPath, { email });
      const before = [...statements];
      open();
      await h.app.storefrontApiSettled();
      gate = new Promise<void>((resolve) => (open = resolve));
      return { answer, before, after: [...statements] };
    };
    const unknown = await answerOf('nobody@example.com');
    const known = await answerOf('alice@example.com');
    vi.restoreAllMocks();

    // The same statements before the answer, SQL for SQL: the job's INSERT, which keeps the
    // request through a crash (after-response.ts), and nothing else of the store's but the
    // limiters' counts, in memory on PGlite, in the database for both addresses alike on
    // PostgreSQL (rate-limits.ts).
    expect(known.before).toEqual(unknown.before);
    expect(known.before.filter((sql) => !/rate_limit_counters/.test(sql))).toEqual([expect.stringMatching(/^INSERT INTO after_answer_jobs /)]);
    const meaningful = (r: typeof known.answer) => ({
      status: r.statusCode,
      headers: Object.fromEntries(Object.entries(r.headers).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name))),
      body: r.rawPayload,
    });
    expect(meaningful(known.answer)).toEqual(meaningful(unknown.answer));
    expect(json(known.answer)).toEqual({ success: true, message: RESET_REQUESTED_MESSAGE });
    // After the answer, in one transaction, each job was taken (deleted); the known address
    // got its token and mail, the unknown one only its lookup. No job is left holding an address.
    const tables = (sql: string[]) => sql.map((statement) => /^BEGIN$|(?:FROM|INTO) (\w+)/.exec(statement)?.[1] ?? statement);
    expect(tables(unknown.after.slice(unknown.before.length))).toEqual(['BEGIN', 'after_answer_jobs', 'site_users']);
    expect(tables(known.after.slice(known.before.length))).toEqual(['BEGIN', 'after_answer_jobs', 'site_users', 'password_resets', 'outbox']);
    expect((await resetMails()).map((m) => m.to)).toEqual(['alice@example.com']);
    expect(await h.store.read.listAfterAnswerJobs()).toEqual([]);
  });

  it('sets the new password once: the old one and the used link stop working, every session ends', async () => {
    const session = await signIn(USER_PASSWORD);
    expect(session.statusCode).toBe(200);
    const sessionId = [session.headers['set-cookie']].flat().map(String).find((c) => c.startsWith('SiteUserSecureAuthToken='))!.split(';')[0]!.split('=')[1]!;
    expect(await h.store.read.getLiveSession(sessionId, h.clock.now)).not.toBeNull();

    await requestReset('alice@example.com');
    const token = await mailedToken();
    expect(json(await check(token))).toEqual({ valid: true });
    const changed = await setPassword(token, 'a brand new secret');
    expect(changed.statusCode).toBe(200);
    expect(json(changed).message).toBe('Password changed. Sign in with your new password.');
    expect(changed.headers['set-cookie'] ?? []).not.toContainEqual(expect.stringContaining('SiteUserSecureAuthToken='));
    expect(await h.store.read.getLiveSession(sessionId, h.clock.now)).toBeNull();

    expect(json(await check(token)).code).toBe('RESET_LINK_USED');
    const again = await setPassword(token, 'another new secret');
    expect(again.statusCode).toBe(400);
    expect(json(again)).toEqual({ error: 'This reset link was already used. Ask for a new one.', code: 'RESET_LINK_USED' });
    expect((await signIn(USER_PASSWORD)).statusCode).toBe(401);
    expect((await signIn('a brand new secret')).statusCode).toBe(200);
  });

  it('expires after 30 minutes by the clock, and a new request replaces the old token', async () => {
    await requestReset('alice@example.com');
    const first = await mailedToken();
    // A minute on, so the outbox lists the second mail last.
    h.clock.now += 60_000;
    await requestReset('alice@example.com');
    const second = await mailedToken();
    expect(second).not.toBe(first);
    const replaced = await setPassword(first, 'a brand new secret');
    expect(json(replaced).code).toBe('RESET_LINK_INVALID');

    h.clock.now += 30 * 60_000 - 1;
    // Not used up by the replaced link's try; one millisecond later it has expired.
    h.clock.now += 1;
    expect(json(await check(second)).code).toBe('RESET_LINK_EXPIRED');
    const late = await setPassword(second, 'a brand new secret');
    expect(late.statusCode).toBe(400);
    expect(json(late)).toEqual({ error: 'This reset link has expired. Ask for a new one.', code: 'RESET_LINK_EXPIRED' });
    expect((await signIn(USER_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a short password and a bad body in the shared shape, echoing nothing', async () => {
    await requestReset('alice@example.com');
    const token = await mailedToken();
    const short = await setPassword(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(json(short)).toEqual({ error: 'Choose a password of at least 8 characters.', code: 'WEAK_PASSWORD' });
    const unknown = await setPassword('x'.repeat(32), 'long enough password');
    expect(json(unknown).code).toBe('RESET_LINK_INVALID');
    const bad = await requestReset('not an email');
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).toEqual({ error: 'Enter a valid email address.', code: 'EMAIL_INVALID' });
    expect(bad.body).not.toContain('not an email');
    const noCrumb = await h.inject({ method: 'POST', url: '/api/site-users/account/password-reset', payload: { email: 'alice@example.com' } });
    expect(noCrumb.statusCode).toBe(403);
    expect(await resetMails()).toHaveLength(1);
    // The short try did not use the link up.
    expect((await setPassword(token, 'long enough password')).statusCode).toBe(200);
  });

  it('counts requests per address and per client address, known or not', async () => {
    await h.reset({ limits: { passwordResetRequests: { limit: 2, windowMs: 60 * 60_000 }, passwordResetRequestsPerIp: { limit: 4, windowMs: 60 * 60_000 } } });
    expect((await requestReset('alice@example.com')).statusCode).toBe(200);
    expect((await requestReset('ALICE@example.com')).statusCode).toBe(200);
    const third = await requestReset('alice@example.com');
    expect(third.statusCode).toBe(429);
    // How long, in words at the email field, from the same Retry-After (the window is an hour).
    expect(third.headers['retry-after']).toBe('3600');
    expect(json(third)).toEqual({ error: 'Too many requests.', code: 'RATE_LIMITED', errors: { email: 'Too many password reset requests. Please try again in 60 minutes.' } });
    expect(await resetMails()).toHaveLength(2);
    // The fourth request from this address (another email) still passes; the fifth does not.
    expect((await requestReset('nobody@example.com')).statusCode).toBe(200);
    expect((await requestReset('someone@example.com')).statusCode).toBe(429);
    h.clock.now += 60 * 60_000;
    expect((await requestReset('alice@example.com')).statusCode).toBe(200);
    expect(await resetMails()).toHaveLength(3);
  });
});

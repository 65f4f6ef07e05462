import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Repository } from '../store/repository.ts';
import type { Store } from '../store/store.ts';
import type { OutboxRow } from '../store/types.ts';
import { backgroundLoop } from '../background-loop.ts';
import { maskEmails } from '../log-redaction.ts';
import { isValidEmail } from '../../hydrate/shared/email.ts';

/*
 * The outbox worker (README.md here): delivers the rows of the `outbox` table that a request
 * queued in its own transaction. Delivery is at least once: a row is claimed (a lease, so a
 * crashed worker's claim lapses), handed to the transport, then marked sent; a crash between
 * the SMTP server's acceptance and the mark resends it once with the same Message-ID.
 */

/** A message as a request queues it: the worker adds the sender and a stable Message-ID. */
export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text. */
  body: string;
  /** An HTML alternative of `body`. */
  html?: string | null;
  /** Extra headers, e.g. `List-Unsubscribe` (the worker's own win over them). */
  headers?: Record<string, string> | null;
  productId?: string | null;
  variantId?: string | null;
}

/**
 * Queues `message` in the caller's transaction (`repo` from `store.transaction`), so the mail
 * exists exactly when the change that causes it commits. Restock notices, form notifications
 * and order receipts all go through here.
 */
export async function enqueueMail(repo: Repository, message: MailMessage & { id: string; queuedOn: number }): Promise<void> {
  await repo.queueOutbox({
    id: message.id,
    to: message.to,
    subject: message.subject,
    body: message.body,
    html: message.html ?? null,
    headers: message.headers ?? null,
    productId: message.productId ?? null,
    variantId: message.variantId ?? null,
    queuedOn: message.queuedOn,
  });
}

/** What a transport did with one message. */
export interface DeliveryReceipt {
  /** For the log line: where the message went (a file path or the SMTP server's reply). */
  detail: string;
}

/** Hands one rendered message over; throws when refused (`responseCode` 5xx: permanently). */
export interface MailTransport {
  readonly kind: 'smtp' | 'eml';
  deliver(row: OutboxRow, envelope: { from: string; messageId: string }): Promise<DeliveryReceipt>;
  close(): void;
}

export interface MailSettings {
  /** `smtp://` / `smtps://` URL (nodemailer's form), or null: write `.eml` files to `emlDir`. */
  smtpUrl: string | null;
  from: string;
  emlDir: string;
  /** Attempts per message before it is marked failed. */
  maxAttempts: number;
  /** Delay after the first refused attempt; doubled after each further one. */
  retryBaseMs: number;
  /** The longest delay between attempts. */
  retryMaxMs: number;
  /** How often the worker looks for due messages. */
  pollMs: number;
}

export const DEFAULT_MAIL_SETTINGS = {
  maxAttempts: 8,
  retryBaseMs: 30_000,
  retryMaxMs: 3_600_000,
  pollMs: 2_000,
} as const;

/** A bad mail setting; main.ts prints it as one line and exits. */
export class MailSettingsError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new MailSettingsError(`${name} must be an integer from ${min} to ${max}, not "${env[name]}"`);
  return value;
}

/** SMTP_URL, MAIL_FROM, MAIL_MAX_ATTEMPTS, MAIL_RETRY_BASE_MS, MAIL_RETRY_MAX_MS, MAIL_POLL_MS; `.eml` files go to DATA_DIR/outbox. */
export function mailSettingsFromEnv(env: NodeJS.ProcessEnv): MailSettings {
  const smtpUrl = env.SMTP_URL?.trim() || null;
  if (smtpUrl !== null && !/^smtps?:\/\/[^/]/.test(smtpUrl)) throw new MailSettingsError('SMTP_URL must be smtp://[user:pass@]host[:port] or smtps://…');
  const from = env.MAIL_FROM?.trim() || 'Quire Store <store@localhost>';
  if (!/@/.test(from)) throw new MailSettingsError('MAIL_FROM must be an address, e.g. "Shop <shop@example.com>"');
  const hour = 3_600_000;
  const retryBaseMs = integer(env, 'MAIL_RETRY_BASE_MS', DEFAULT_MAIL_SETTINGS.retryBaseMs, 1, 24 * hour);
  return {
    smtpUrl,
    from,
    emlDir: path.resolve(env.DATA_DIR?.trim() || './data', 'outbox'),
    maxAttempts: integer(env, 'MAIL_MAX_ATTEMPTS', DEFAULT_MAIL_SETTINGS.maxAttempts, 1, 100),
    retryBaseMs,
    retryMaxMs: Math.max(retryBaseMs, integer(env, 'MAIL_RETRY_MAX_MS', DEFAULT_MAIL_SETTINGS.retryMaxMs, 1, 7 * 24 * hour)),
    pollMs: integer(env, 'MAIL_POLL_MS', DEFAULT_MAIL_SETTINGS.pollMs, 10, hour),
  };
}

/** `n***@example.com`: enough to tell messages apart in a log, not a visitor's address. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '[email]';
  return `${address[0]}***${address.slice(at)}`;
}

/** The Message-ID of a row: the same on every attempt, so a resend after a crash is recognisable. */
export function outboxMessageId(rowId: string, from: string): string {
  const domain = /@([^\s>]+)/.exec(from)?.[1] ?? 'localhost';
  return `<outbox-${rowId}@${domain}>`;
}

/** What nodemailer renders for a row: the same bytes over SMTP and in an `.eml` file. */
function mailOptions(row: OutboxRow, envelope: { from: string; messageId: string }) {
  // A queued Reply-To (the visitor's address on a form notification) is given to nodemailer as
  // one address, like `to`: as header text it would be parsed as a list or group.
  const { replyTo, headers } = splitReplyTo(row.headers);
  return {
    from: envelope.from,
    // One address, never a list: given as text, nodemailer reads `a,victim@x.co` as two
    // addresses and `a;b@x.co` as a group, and sent a sign-up stored as one address to
    // another. The form rule refuses such addresses now (hydrate/shared/email.ts); rows queued
    // before still go only to the address as stored (quoted: `"a,victim"@x.co`).
    to: { name: '', address: row.to },
    subject: row.subject,
    text: row.body,
    ...(row.html ? { html: row.html } : {}),
    messageId: envelope.messageId,
    // A fixed date per row, so the rendered message is the same on every attempt.
    date: new Date(row.queuedOn),
    ...(replyTo ? { replyTo: { name: '', address: replyTo } } : {}),
    headers: { ...headers, 'X-Quire-Outbox-Id': row.id },
  };
}

/** The row's headers without Reply-To (any case), and that address when it is one. */
function splitReplyTo(rowHeaders: Record<string, string> | null | undefined): { replyTo: string | null; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  let replyTo: string | null = null;
  for (const [name, value] of Object.entries(rowHeaders ?? {})) {
    if (name.toLowerCase() === 'reply-to') replyTo = isValidEmail(value.trim()) ? value.trim() : null;
    else headers[name] = value;
  }
  return { replyTo, headers };
}

/** Delivery over SMTP with nodemailer (one pooled-free connection per message; timeouts bounded). */
export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl, {
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  } as never);
  return {
    kind: 'smtp',
    async deliver(row, envelope) {
      const info = (await transporter.sendMail(mailOptions(row, envelope))) as { response?: string };
      return { detail: `accepted: ${maskEmails(String(info.response ?? ''))}` };
    },
    close: () => transporter.close(),
  };
}

/**
 * The embedded default: each message rendered by nodemailer (streamTransport) into
 * `dir/<id>.eml`. Written to a temporary name and renamed, so a file is whole or absent; a
 * rewrite after a crash replaces it with the same bytes.
 */
export function emlTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'eml',
    async deliver(row, envelope) {
      const info = (await transporter.sendMail(mailOptions(row, envelope))) as { message: Buffer };
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${row.id.replace(/[^A-Za-z0-9_-]/g, '_')}.eml`);
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, info.message);
      fs.renameSync(temp, file);
      return { detail: file };
    },
    close: () => transporter.close(),
  };
}

export function transportFor(settings: MailSettings): MailTransport {
  return settings.smtpUrl ? smtpTransport(settings.smtpUrl) : emlTransport(settings.emlDir);
}

/** What one tick did. */
export interface TickResult {
  sent: number;
  retried: number;
  failed: number;
}

export interface OutboxWorkerOptions {
  store: Store;
  transport: MailTransport;
  from: string;
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  pollMs?: number;
  /** How long a claim holds: longer than one delivery can take (the SMTP timeouts above). */
  leaseMs?: number;
  /** Messages claimed per tick. */
  batchSize?: number;
  now?: () => number;
  /** This worker's name in `claimed_by`; unique per worker. */
  workerId?: string;
  /** One line per message (addresses masked); errors of the loop itself. */
  log?: (line: string) => void;
}

export interface OutboxWorker {
  /** Claims and delivers the due messages once (tests drive this by hand). */
  tick(): Promise<TickResult>;
  /** Runs `tick` every `pollMs` (at once, then again while a tick found a full batch). */
  start(): void;
  /** Stops the timer and waits for a running tick. */
  stop(): Promise<void>;
}

/** The delay before attempt `attempts + 1`: base, 2×base, 4×base … capped at `max`. */
export function backoffMs(attempts: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
}

const DEFAULT_LEASE_MS = 5 * 60_000;
const DEFAULT_BATCH = 20;

/** An SMTP reply code from 500 up: the server will never take this message as it is. */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return maskEmails(message).slice(0, 500);
}

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const now = options.now ?? Date.now;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAIL_SETTINGS.maxAttempts;
  const retryBaseMs = options.retryBaseMs ?? DEFAULT_MAIL_SETTINGS.retryBaseMs;
  const retryMaxMs = options.retryMaxMs ?? DEFAULT_MAIL_SETTINGS.retryMaxMs;
  const pollMs = options.pollMs ?? DEFAULT_MAIL_SETTINGS.pollMs;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  const log = options.log ?? (() => {});
  const { store, transport } = options;

  async function deliverOne(row: OutboxRow, result: TickResult): Promise<void> {
    const messageId = outboxMessageId(row.id, options.from);
    const what = `to ${maskAddress(row.to)}, "${maskEmails(row.subject)}"`;
    let receipt: DeliveryReceipt;
    try {
      receipt = await transport.deliver(row, { from: options.from, messageId });
    } catch (error) {
      const permanent = isPermanent(error);
      const last = permanent || row.attempts >= maxAttempts;
      const next = last ? null : now() + backoffMs(row.attempts, retryBaseMs, retryMaxMs);
      await store.read.markOutboxAttemptFailed(row.id, workerId, next, errorText(error), messageId);
      if (last) {
        result.failed++;
        log(`quire: mail failed for good after ${row.attempts} attempt(s): ${what}: ${errorText(error)}`);
      } else {
        result.retried++;
        log(`quire: mail attempt ${row.attempts} refused, retrying in ${Math.round((next! - now()) / 1000)} s: ${what}: ${errorText(error)}`);
      }
      return;
    }
    // Accepted. A failure to record it (database gone) is not a refusal: it propagates, the
    // row stays claimed, and it is resent only after the lease (the at-least-once window).
    const marked = await store.read.markOutboxSent(row.id, workerId, now(), messageId);
    result.sent++;
    const verb = transport.kind === 'eml' ? 'mail written (no SMTP_URL, not sent)' : 'mail sent';
    log(`quire: ${verb}: ${what}, ${receipt.detail}${marked ? '' : ' (claim lapsed: another worker may send it again)'}`);
  }

  async function tick(): Promise<TickResult> {
    const result: TickResult = { sent: 0, retried: 0, failed: 0 };
    const at = now();
    // The claim commits before any delivery: no row lock is held while talking to SMTP.
    const claimed = await store.transaction((repo) => repo.claimOutbox(at, workerId, at + leaseMs, batchSize));
    for (const row of claimed) await deliverOne(row, result);
    return result;
  }

  const loop = backgroundLoop(
    tick,
    // A full batch means more may be due: the next tick follows at once.
    (result) => (result !== null && result.sent + result.retried + result.failed >= batchSize ? 0 : pollMs),
    (error) => log(`quire: outbox worker: ${errorText(error)}`),
  );

  return {
    tick,
    start: () => loop.start(),
    async stop() {
      await loop.stop();
      transport.close();
    },
  };
}

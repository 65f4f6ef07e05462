// A real SMTP server in the test process (the smtp-server package) on 127.0.0.1 and a free
// port, no TLS, no auth: the outbox tests assert what it received, and can make it refuse.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  from: string;
  headers: Record<string, string>;
  subject: string;
  messageId: string;
  /** The body as text (quoted-printable decoded; test bodies are plain text). */
  text: string;
  raw: string;
}

/** An SMTP reply to refuse with: `{code: 451}` is temporary, `{code: 550}` permanent. */
export interface Refusal {
  code: number;
  message?: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** Called at each RCPT TO; return a refusal to refuse that recipient (and so the attempt). */
  refuse: ((address: string, session: SMTPServerSession) => Refusal | null) | null;
  /** Resolves once `count` messages have arrived (states, not times). */
  waitFor(count: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

export function parseMail(raw: string, envelope: { from: string; to: string[] }): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  let body = split < 0 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  // Unfold continuation lines, then one header per line.
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) body = decodeQuotedPrintable(body);
  else if (/base64/i.test(headers['content-transfer-encoding'] ?? '')) body = Buffer.from(body, 'base64').toString('utf8');
  return {
    to: envelope.to,
    from: envelope.from,
    headers,
    subject: headers.subject ?? '',
    messageId: headers['message-id'] ?? '',
    text: body.replace(/\r\n/g, '\n'),
    raw,
  };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const sink: SmtpSink = {
    url: '',
    received: [],
    refuse: null,
    waitFor(count) {
      if (sink.received.length >= count) return Promise.resolve(sink.received);
      return new Promise((resolve) => waiters.push({ count, resolve: () => resolve(sink.received) }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address: SMTPServerAddress, session, callback) {
      const refusal = sink.refuse?.(address.address, session) ?? null;
      if (refusal) {
        const error = new Error(refusal.message ?? 'Try again later') as Error & { responseCode: number };
        error.responseCode = refusal.code;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        };
        sink.received.push(parseMail(Buffer.concat(chunks).toString('utf8'), envelope));
        for (const waiter of [...waiters]) {
          if (sink.received.length >= waiter.count) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  sink.url = `smtp://127.0.0.1:${port}`;
  return sink;
}

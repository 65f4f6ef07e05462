import { EventEmitter } from 'node:events';
import net from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentBytes, releaseDocument } from './document-bytes.ts';
import { send } from './document-writer.ts';
import { shellFrame } from './shell.ts';

// Pages are encoded into slabs that are written again once every page in them has been sent
// (document-bytes.ts, `releaseDocument` on the response's 'finish', document-writer.ts `send`).
// Over real sockets, with pages larger than the socket buffers and clients that read late (the
// rest of a page waits in Node's write queue), every page must arrive as it was rendered.

let app: FastifyInstance;
let port = 0;
const frame = shellFrame({ locale: 'en-US', title: 'Slabs', pageType: 1, pillCart: '', context: { pageType: 1 }, captchaLocal: false });
const NO_STYLE = Buffer.alloc(0);

/** Page `n`: ~600 K characters (more than a paused reader's socket takes), two-byte for odd `n`, each line naming it. */
function body(n: number): string {
  const line = `<p>page ${n} ${n % 2 ? 'é—' : 'ab'} ${'x'.repeat(60)}</p>\n`;
  return line.repeat(7800);
}

/** The page as sent, copied out of its slab, which is then released. */
function expected(n: number): string {
  const bytes = documentBytes(frame, NO_STYLE, [body(n)]);
  const text = bytes.toString('utf8');
  releaseDocument(bytes);
  return text;
}

beforeAll(async () => {
  app = Fastify({ logger: false });
  app.get<{ Params: { n: string } }>('/page/:n', (request, reply) => {
    const n = Number(request.params.n);
    return send(reply, 200, documentBytes(frame, NO_STYLE, [body(n)]));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await app?.close();
});

/** The body of one response read from a raw socket whose reading starts after `delayMs`. */
function fetchRaw(path: string, delayMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('error', reject);
    socket.once('connect', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      if (delayMs > 0) {
        socket.pause();
        setTimeout(() => socket.resume(), delayMs);
      }
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const split = bytes.indexOf('\r\n\r\n');
      resolve(bytes.subarray(split + 4).toString('utf8'));
    });
  });
}

describe('pages over sockets while slabs are written again', () => {
  it('every page of 96, 12 at a time, a third of them read late, arrives as rendered', async () => {
    for (let wave = 0; wave < 8; wave++) {
      const ns = Array.from({ length: 12 }, (_, k) => wave * 12 + k);
      const bodies = await Promise.all(ns.map((n) => fetchRaw(`/page/${n}`, n % 3 === 0 ? 300 : 0)));
      bodies.forEach((got, k) => {
        const want = expected(ns[k]!);
        expect(got.length, `page ${ns[k]}`).toBe(want.length);
        expect(got === want, `page ${ns[k]}`).toBe(true);
      });
    }
  }, 120_000);

  it('send lets a page\'s slab be written again only after its response has finished', () => {
    // A reply whose response finishes when the test says.
    const raw = new EventEmitter();
    const sent: Buffer[] = [];
    const reply = { raw, code: () => reply, header: () => reply, send: (b: Buffer) => (sent.push(b), reply) } as unknown as FastifyReply;
    const page = (n: number) => documentBytes(frame, NO_STYLE, [body(n).slice(0, 200_000)]);
    // A page opening a slab, sent; the rest of that slab's pages released at once.
    let first = page(1);
    for (let k = 0; k < 20; k++) {
      const next = page(k);
      if (next.buffer !== first.buffer) {
        first = next;
        break;
      }
      releaseDocument(next);
    }
    send(reply, 200, first);
    expect(sent[0]).toBe(first);
    const others: Buffer[] = [];
    for (let k = 0; k < 40; k++) {
      const next = page(k);
      others.push(next);
      releaseDocument(next);
    }
    expect(others.some((p) => p.buffer === first.buffer && p.byteOffset !== first.byteOffset)).toBe(true);
    expect(others.filter((p) => p.buffer === first.buffer).every((p) => p.byteOffset > first.byteOffset)).toBe(true);
    raw.emit('finish');
    const after: Buffer[] = [];
    for (let k = 0; k < 40; k++) after.push(page(k));
    expect(after.some((p) => p.buffer === first.buffer && p.byteOffset === first.byteOffset)).toBe(true);
    for (const p of after) releaseDocument(p);
  });
});

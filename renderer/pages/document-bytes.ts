import { CAPTCHA_CONTAINER, CAPTCHA_LOCAL_LINE, type ShellFrame } from './shell.ts';

/**
 * Pages are encoded straight into a slab and sent as slices of it, never copied. A slab is
 * appended to until it is full, and a slice a socket still holds is never overwritten: a full
 * slab is written again only once every page in it has been sent (`releaseDocument`), else it
 * is freed with its last view (Node's own pool works this way for small buffers). Encoding into free space is one pass over the text: sizing an exact buffer
 * first is a second one (over a two-byte string, as soon as a page holds a `—`). A page has
 * room in a slab when its bound does (3 bytes a unit): at 2 MB, a page of up to ~690 K
 * characters. At 512 KB, a long post of 164 K characters was sized exactly, and
 * `Buffer.byteLength` was 31% of its render and encoding (bench/README.md, "Long pages in one
 * pass").
 */
const SLAB_SIZE = 2 * 1024 * 1024;
/**
 * A page whose bound is larger than a slab gets a buffer of its bound, written in one pass, up
 * to this bound; past it, one of its exact size (`exactBytes`). Memory a page has reserved and
 * not written is not touched, so the system does not commit it.
 */
const ONE_PASS_MAX = 48 * 1024 * 1024;

/**
 * A slab and its pages. Once every page written into a full slab has been sent
 * (`releaseDocument`), the slab is kept for reuse: memory fresh from the system costs a page
 * fault per 4 KB the first time it is written, and a new slab's first writes cost the gallery
 * page ~55 µs of its ~85 µs encoding, more than the UTF-8 write itself (bench/README.md,
 * "Slabs reused").
 */
interface Slab {
  readonly buf: Buffer;
  used: number;
  /** Pages handed out and not yet released. */
  pending: number;
  /** No longer written to: reused once `pending` is 0. */
  full: boolean;
}
/** Full slabs whose pages have all been sent, ready to be written again; at most `SPARE_SLABS`. */
const spare: Buffer[] = [];
const SPARE_SLABS = 2;
/** The slab of each page handed out and not released: a page released twice, or a buffer that is not a page, changes nothing. */
const handedOut = new WeakMap<Buffer, Slab>();
let slab = newSlab(Buffer.allocUnsafeSlow(SLAB_SIZE));

function newSlab(buf: Buffer): Slab {
  return { buf, used: 0, pending: 0, full: false };
}

function reuse(s: Slab): void {
  if (spare.length < SPARE_SLABS) spare.push(s.buf);
}

/**
 * Tells that a page from `documentBytes` has been sent (the socket has written it): its bytes
 * may be written over once the rest of its slab's pages are sent too. A page never released
 * keeps its slab from reuse, and the slab is freed with its last view, as before.
 */
export function releaseDocument(page: Buffer): void {
  const s = handedOut.get(page);
  if (s === undefined) return;
  handedOut.delete(page);
  if (--s.pending === 0 && s.full) reuse(s);
}

/** A UTF-16 code unit takes at most 3 bytes of UTF-8 (a surrogate pair, 2 units, takes 4). */
const UTF8_MAX_PER_UNIT = 3;
const CAPTCHA_CONTAINER_BYTES = Buffer.from(CAPTCHA_CONTAINER);
const CAPTCHA_LOCAL_LINE_BYTES = Buffer.byteLength(CAPTCHA_LOCAL_LINE);

/**
 * The page document as one buffer, written piece by piece. The body comes as the engine's
 * output parts (`RenderResult.parts`), or one string: each part is flattened and encoded on its
 * own, so a character beyond Latin-1 makes only its own part a two-byte copy, not the whole
 * page (engine/runtime.ts, `Runtime.chunks`). The captcha widget is looked for in the body's
 * bytes.
 */
export function documentBytes(frame: ShellFrame, style: Buffer, body: string | readonly string[]): Buffer {
  const parts = typeof body === 'string' ? [body] : joinSplitPairs(body);
  let bodyUnits = 0;
  for (const p of parts) bodyUnits += p.length;
  const units = frame.head.length + frame.open.length + bodyUnits + frame.close.length + CAPTCHA_LOCAL_LINE.length + frame.end.length;
  const bound = units * UTF8_MAX_PER_UNIT + style.length;
  if (bound > SLAB_SIZE) {
    if (bound > ONE_PASS_MAX) return exactBytes(frame, style, parts);
    const out = Buffer.allocUnsafeSlow(bound);
    return out.subarray(0, writeDocument(out, 0, frame, style, parts));
  }
  if (SLAB_SIZE - slab.used < bound) {
    slab.full = true;
    if (slab.pending === 0) reuse(slab);
    slab = newSlab(spare.pop() ?? Buffer.allocUnsafeSlow(SLAB_SIZE));
  }
  const start = slab.used;
  const end = writeDocument(slab.buf, start, frame, style, parts);
  // The next page starts 8-byte aligned.
  slab.used = (end + 7) & ~7;
  slab.pending++;
  const page = slab.buf.subarray(start, end);
  handedOut.set(page, slab);
  return page;
}

/**
 * A page too large for one pass, in a buffer of its exact size: every piece is measured, then
 * written (joining the parts first would make a copy of the whole page, two bytes a character
 * if one part is two-byte).
 */
function exactBytes(frame: ShellFrame, style: Buffer, parts: readonly string[]): Buffer {
  let bodyBytes = 0;
  for (const p of parts) bodyBytes += Buffer.byteLength(p);
  const fixed = Buffer.byteLength(frame.head) + style.length + Buffer.byteLength(frame.open) + Buffer.byteLength(frame.close) + Buffer.byteLength(frame.end);
  const out = Buffer.allocUnsafeSlow(fixed + bodyBytes + CAPTCHA_LOCAL_LINE_BYTES);
  return out.subarray(0, writeDocument(out, 0, frame, style, parts));
}

/** Writes the document into `out` from `start`, room given; returns where it ends. */
function writeDocument(out: Buffer, start: number, frame: ShellFrame, style: Buffer, parts: readonly string[]): number {
  let at = start + out.write(frame.head, start);
  at += style.copy(out, at);
  at += out.write(frame.open, at);
  const bodyStart = at;
  for (const p of parts) at += out.write(p, at);
  const captcha = frame.captchaLocal && (frame.pillCartHasCaptcha || out.subarray(bodyStart, at).indexOf(CAPTCHA_CONTAINER_BYTES) !== -1);
  at += out.write(frame.close, at);
  if (captcha) at += out.write(CAPTCHA_LOCAL_LINE, at);
  at += out.write(frame.end, at);
  return at;
}

/**
 * The parts, with any two that a surrogate pair straddles joined: encoded apart, each half
 * would become U+FFFD. (A chunk ends where an append crossed its boundary, so only data
 * holding lone surrogates in two adjacent values can do this.) Reading a part's last
 * character flattens it, which its encoding does anyway.
 */
function joinSplitPairs(parts: readonly string[]): readonly string[] {
  let out: string[] | null = null;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0 && endsHigh(parts[i - 1]) && startsLow(parts[i])) {
      out ??= parts.slice(0, i);
      out[out.length - 1] += parts[i];
    } else if (out !== null) out.push(parts[i]);
  }
  return out ?? parts;
}

function endsHigh(s: string): boolean {
  const c = s.charCodeAt(s.length - 1);
  return c >= 0xd800 && c <= 0xdbff;
}

function startsLow(s: string): boolean {
  const c = s.charCodeAt(0);
  return c >= 0xdc00 && c <= 0xdfff;
}

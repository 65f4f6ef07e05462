import { CAPTCHA_CONTAINER, CAPTCHA_LOCAL_LINE, type ShellFrame } from './shell.ts';

/**
 * Pages are encoded straight into a slab and sent as slices of it, never copied. A slab is only
 * ever appended to, so a slice a socket still holds is never overwritten; a full slab is
 * replaced and freed once its last page has been sent (Node's own pool works this way for
 * small buffers). Encoding into free space is one pass over the text: sizing an exact buffer
 * first is a second one (over a two-byte string, as soon as a page holds a `—`).
 */
const SLAB_SIZE = 512 * 1024;
let slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
let slabUsed = 0;
/** A UTF-16 code unit takes at most 3 bytes of UTF-8 (a surrogate pair, 2 units, takes 4). */
const UTF8_MAX_PER_UNIT = 3;
const CAPTCHA_CONTAINER_BYTES = Buffer.from(CAPTCHA_CONTAINER);

/**
 * The page document as one buffer, written piece by piece: the body, the one big piece, is
 * flattened and encoded once, and the captcha widget is looked for in its bytes.
 */
export function documentBytes(frame: ShellFrame, style: Buffer, body: string): Buffer {
  const units = frame.head.length + frame.open.length + body.length + frame.close.length + CAPTCHA_LOCAL_LINE.length + frame.end.length;
  const bound = units * UTF8_MAX_PER_UNIT + style.length;
  if (bound > SLAB_SIZE) {
    const captcha = frame.captchaLocal && (frame.pillCartHasCaptcha || body.includes(CAPTCHA_CONTAINER));
    return Buffer.from(frame.head + style.toString() + frame.open + body + frame.close + (captcha ? CAPTCHA_LOCAL_LINE : '') + frame.end);
  }
  if (SLAB_SIZE - slabUsed < bound) {
    slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
    slabUsed = 0;
  }
  const start = slabUsed;
  let at = start + slab.write(frame.head, start);
  at += style.copy(slab, at);
  at += slab.write(frame.open, at);
  const bodyStart = at;
  at += slab.write(body, at);
  const captcha = frame.captchaLocal && (frame.pillCartHasCaptcha || slab.subarray(bodyStart, at).indexOf(CAPTCHA_CONTAINER_BYTES) !== -1);
  at += slab.write(frame.close, at);
  if (captcha) at += slab.write(CAPTCHA_LOCAL_LINE, at);
  at += slab.write(frame.end, at);
  // The next page starts 8-byte aligned.
  slabUsed = (at + 7) & ~7;
  return slab.subarray(start, at);
}

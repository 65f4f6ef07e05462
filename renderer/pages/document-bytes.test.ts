import { describe, expect, it } from 'vitest';
import { documentBytes, releaseDocument } from './document-bytes.ts';
import { CAPTCHA_CONTAINER, renderShell, shellFrame, shellStyle, type ShellInput } from './shell.ts';

const style = shellStyle('body { color: #333; }\n');

function input(body: string, extra: Partial<ShellInput> = {}): ShellInput {
  return {
    locale: 'en-US',
    title: 'Classic Tee — Demo',
    pageType: 50,
    style,
    body,
    pillCart: '<div class="sf-pill-cart-wrapper"></div>',
    context: { pageType: 50, pagePath: '/shop/tee' },
    captchaLocal: false,
    ...extra,
  };
}

/** The document as the string renderer writes it, and as bytes. */
function both(i: ShellInput): { text: string; bytes: Buffer } {
  return { text: renderShell(i), bytes: documentBytes(shellFrame(i), Buffer.from(style), i.body) };
}

describe('documentBytes', () => {
  it('writes the same document as renderShell, in UTF-8', () => {
    const { text, bytes } = both(input('<p>★★★★☆ 2–3 days · “quoted” 😀</p>'));
    expect(bytes.toString('utf8')).toBe(text);
  });

  it('adds the local captcha script only when the body or the pill cart holds a widget', () => {
    const widget = `<div ${CAPTCHA_CONTAINER}></div>`;
    for (const i of [
      input(`<form>${widget}</form>`, { captchaLocal: true }),
      input('<form></form>', { captchaLocal: true }),
      input('<form></form>', { captchaLocal: true, pillCart: widget }),
      input(`<form>${widget}</form>`, { captchaLocal: false }),
    ]) {
      const { text, bytes } = both(i);
      expect(bytes.toString('utf8')).toBe(text);
    }
    expect(both(input(`<p>${widget}</p>`, { captchaLocal: true })).text).toContain('captcha-local.js');
  });

  it('writes the engine output parts as the same bytes as their concatenation', () => {
    const frame = shellFrame(input(''));
    const parts = ['<p>one', ' — two ', '', 'three “four”</p>', 'x'.repeat(5000) + 'é'];
    expect(documentBytes(frame, Buffer.from(style), parts).toString('utf8')).toBe(renderShell(input(parts.join(''))));
    // A surrogate pair cut between two parts (lone surrogates in adjacent values) stays one character.
    const cut = ['a\ud83d', '\ude00b', '\ud83d', '\ude00\ud83d', '\ude00'];
    const bytes = documentBytes(frame, Buffer.from(style), cut);
    expect(bytes.toString('utf8')).toBe(renderShell(input('a😀b😀😀')));
    expect(bytes.includes(Buffer.from('\uFFFD'))).toBe(false);
  });

  it('never overwrites the bytes of a page already handed out', () => {
    const first = documentBytes(shellFrame(input('<p>first</p>')), Buffer.from(style), '<p>first</p>');
    const kept = Buffer.from(first);
    // Enough pages to fill several slabs.
    const body = `<p>${'é'.repeat(20_000)}</p>`;
    const bodies = Array.from({ length: 240 }, (_, n) => `<p>${'é'.repeat(20_000)}${n}</p>`);
    const later = bodies.map((body) => documentBytes(shellFrame(input(body)), Buffer.from(style), body));
    expect(first.equals(kept)).toBe(true);
    later.forEach((page, n) => expect(page.toString('utf8')).toBe(renderShell(input(bodies[n]!))));
  });

  it('writes a full slab again once every page in it has been released, and only then', () => {
    const frame = shellFrame(input(''));
    const css = Buffer.from(style);
    let n = 0;
    const page = () => {
      const body = `<p>${n++} ${'é'.repeat(30_000)}</p>`;
      return { body, bytes: documentBytes(frame, css, body) };
    };
    const text = (p: { body: string }) => renderShell(input(p.body));
    // Pages until one opens a slab, then that slab's pages until the next opens another.
    let last = page();
    for (let k = 0; k < 100; k++) {
      const next = page();
      const opened = next.bytes.buffer !== last.bytes.buffer;
      last = next;
      if (opened) break;
    }
    const first = last.bytes.buffer;
    const own = [last];
    for (let k = 0; k < 100; k++) {
      const next = page();
      last = next;
      if (next.bytes.buffer !== first) break;
      own.push(next);
    }
    expect(last.bytes.buffer).not.toBe(first);
    expect(own.length).toBeGreaterThan(3);
    // All but one released, one of them twice: the slab is not written again.
    const [kept, twice, ...rest] = own;
    releaseDocument(twice!.bytes);
    releaseDocument(twice!.bytes);
    for (const p of rest) releaseDocument(p.bytes);
    const later = [last];
    while (later.length < 3 * own.length) later.push(page());
    expect(later.some((p) => p.bytes.buffer === first)).toBe(false);
    expect(kept!.bytes.toString('utf8')).toBe(text(kept!));
    // The last one released: the next slab opened is that memory, and every page is still right.
    releaseDocument(kept!.bytes);
    releaseDocument(Buffer.from('not a page'));
    const after = Array.from({ length: 2 * own.length }, page);
    expect(after.some((p) => p.bytes.buffer === first)).toBe(true);
    for (const p of [...later, ...after]) expect(p.bytes.toString('utf8')).toBe(text(p));
  });

  it('writes a page larger than a slab in one buffer of its own', () => {
    const body = `<p>${'x'.repeat(800_000)}—</p>`;
    const { text, bytes } = both(input(body));
    // The buffer is the page's bound, written once.
    expect(bytes.buffer.byteLength).toBeGreaterThan(2 * bytes.length);
    expect(bytes.toString('utf8')).toBe(text);
    expect(bytes.length).toBe(Buffer.byteLength(text));
    // As parts, with the captcha widget in one of them.
    const parts = ['<p>' + 'x'.repeat(700_000), `<div ${CAPTCHA_CONTAINER}></div>`, 'é'.repeat(100_000) + '—</p>'];
    const i = input(parts.join(''), { captchaLocal: true });
    const asParts = documentBytes(shellFrame(i), Buffer.from(style), parts);
    expect(asParts.toString('utf8')).toBe(renderShell(i));
    expect(asParts.toString('utf8')).toContain('captcha-local.js');
  });

  // Past 48 MiB of bound (3 bytes a character: some 16.8 M characters), the page is measured first.
  it('writes a page of over 16.8 M characters in a buffer of its exact size', () => {
    const parts = ['<p>' + 'x'.repeat(17_000_000), '—é</p>'];
    const bytes = documentBytes(shellFrame(input('')), Buffer.from(style), parts);
    expect(bytes.equals(Buffer.from(renderShell(input(parts.join('')))))).toBe(true);
    // Its size and the room for the captcha line, which this page does not take.
    expect(bytes.buffer.byteLength - bytes.length).toBeLessThan(200);
  });
});

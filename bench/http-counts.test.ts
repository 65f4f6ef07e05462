// The per-request counter's pure parts: option parsing and the areas a profile is read into.
import { describe, expect, it } from 'vitest';
import { areaOf, parseCountArgs } from './http-counts.ts';

describe('bench http-counts', () => {
  it('parses its options, the product page by default', () => {
    expect(parseCountArgs([]).urls).toEqual(['/shop/tee']);
    const o = parseCountArgs(['--url', '/', '--url', '/shop', '--requests', '50', '--strace', '--bundle', 'dist/x/main.mjs']);
    expect(o).toMatchObject({ urls: ['/', '/shop'], requests: 50, strace: true });
    expect(o.bundle).toMatch(/\/dist\/x\/main\.mjs$/);
    expect(() => parseCountArgs(['--requests', '0'])).toThrow(/requests/);
    expect(() => parseCountArgs(['--bogus'])).toThrow(/unknown option/);
  });

  it("puts a frame in its part of the server by the file the bundle's source map names", () => {
    expect(areaOf('../../engine/compile.ts', 'f')).toBe('engine');
    expect(areaOf('../../formatters/commerce.ts', 'apply')).toBe('formatters');
    expect(areaOf('../../renderer/pages/document-bytes.ts', 'documentBytes')).toBe('renderer: document bytes');
    expect(areaOf('../../renderer/pages/page-renderer.ts', 'render')).toBe('renderer');
    expect(areaOf('../../hydrate/protocol/props.ts', 'serializeProps')).toBe('renderer');
    expect(areaOf('../../node_modules/fastify/lib/reply.js', 'send')).toBe('Fastify and plugins');
    expect(areaOf('../../node_modules/@fastify/cookie/index.js', 'serialize')).toBe('Fastify and plugins');
    expect(areaOf('node:_http_outgoing', '_storeHeader')).toBe('Node (HTTP, streams, timers)');
    expect(areaOf('', 'writev')).toBe('native: writev');
    expect(areaOf('', '(idle)')).toBe('(idle)');
  });
});

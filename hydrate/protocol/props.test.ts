import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { parseProps, serializeProps, serverOnly, SERVER_ONLY_KEYS } from './props.ts';
import { CONTEXT_SCRIPT_ID, ISLAND_PROTOCOL_VERSION, PROTOCOL_VERSION_ATTR } from './markers.ts';

function roundTrip(value: unknown): unknown {
  const out = serializeProps(value);
  if (!out.ok) throw new Error(`serialize failed: ${out.error.code}`);
  const back = parseProps(out.text);
  if (!back.ok) throw new Error(`parse failed: ${back.error.code}`);
  return back.value;
}

describe('props round trip', () => {
  const table: Array<{ name: string; value: unknown }> = [
    { name: 'null', value: null },
    { name: 'empty object', value: {} },
    { name: 'empty array', value: [] },
    { name: 'booleans', value: [true, false] },
    { name: 'numbers', value: [0, 1, -1, 1.5, 1e21, Number.MAX_SAFE_INTEGER] },
    { name: 'script closer in a string', value: { t: '</script><script>alert(1)</script>' } },
    { name: 'html comment opener', value: { t: '<!-- x -->' } },
    { name: 'ampersands and quotes', value: { t: `a & b "c" 'd'` } },
    { name: 'line separators', value: { t: 'a\u2028b\u2029c' } },
    { name: 'unicode', value: { t: 'Adding… ¥ € 😀' } },
    { name: 'unsafe key', value: { '</script>': 1 } },
    { name: 'nested', value: { a: [{ b: { c: [1, 'two', null] } }] } },
    {
      name: 'page context shape',
      value: {
        websiteId: 'w1', pageType: 50, itemId: null,
        store: { selectedCurrency: 'USD', expressCheckout: false },
        siteUser: { authenticated: true, siteUserId: 'u1', xsrfToken: 'X1' },
        captcha: { siteKey: 'k', provider: 'local' },
      },
    },
  ];
  for (const row of table) {
    test(`${row.name} comes back equal`, () => {
      expect(roundTrip(row.value)).toEqual(row.value);
    });
  }

  test('-0 normalizes to 0 so that a second round trip is stable', () => {
    expect(Object.is(roundTrip(-0), 0)).toBe(true);
  });

  test('undefined object members are omitted, as JSON does', () => {
    expect(roundTrip({ a: undefined, b: 1 })).toEqual({ b: 1 });
  });

  test('any JSON value round-trips (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const normalized = JSON.parse(JSON.stringify(value), (k, v) => (k === '__proto__' ? undefined : v));
        expect(roundTrip(value)).toEqual(normalized);
      }),
      { numRuns: 300 },
    );
  });

  test('a flat object (scalar members, written without the sanitizing copy) reads exactly as it does nested (property)', () => {
    const scalar = fc.oneof(fc.string(), fc.boolean(), fc.constant(null), fc.double(), fc.constant(-0), fc.constant(undefined), fc.constantFrom('</script>', 'a&b', '\u2028'));
    const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'password', 'Secret', 'xsrfToken', 'pageType'));
    fc.assert(
      fc.property(fc.dictionary(key, scalar), (flat) => {
        const alone = serializeProps(flat);
        // Inside an array the object goes through the sanitizing copy.
        const nested = serializeProps([flat]);
        expect(alone.ok).toBe(nested.ok);
        if (alone.ok && nested.ok) {
          expect(alone.text).toBe(nested.text.slice(1, -1));
          expect(alone.dropped).toEqual(nested.dropped.map((path) => path.slice('/0'.length)));
        }
        if (!alone.ok && !nested.ok) expect(alone.error.code).toBe(nested.error.code);
      }),
      { numRuns: 500 },
    );
    expect(serializeProps({ a: 1 }, { maxDepth: 0, maxChars: 100 })).toMatchObject({ ok: false, error: { code: 'PROPS_TOO_DEEP' } });
  });

  test('serialized text never contains characters that can end a script element', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, s) => {
        const out = serializeProps({ value, s });
        expect(out.ok).toBe(true);
        if (out.ok) expect(out.text).not.toMatch(/[<>&\u2028\u2029]/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('props errors have stable codes and never throw', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  let deep: unknown = 1;
  for (let i = 0; i < 100; i++) deep = [deep];
  const table: Array<{ name: string; value: unknown; code: string; path?: string }> = [
    { name: 'function', value: { f: () => 1 }, code: 'PROPS_NOT_SERIALIZABLE', path: '/f' },
    { name: 'NaN', value: { n: Number.NaN }, code: 'PROPS_NOT_SERIALIZABLE', path: '/n' },
    { name: 'Infinity', value: [Infinity], code: 'PROPS_NOT_SERIALIZABLE', path: '/0' },
    { name: 'bigint', value: { b: 1n }, code: 'PROPS_NOT_SERIALIZABLE', path: '/b' },
    { name: 'Date', value: { d: new Date(0) }, code: 'PROPS_NOT_SERIALIZABLE', path: '/d' },
    { name: 'Map', value: new Map(), code: 'PROPS_NOT_SERIALIZABLE', path: '' },
    { name: 'undefined in array', value: [1, undefined], code: 'PROPS_NOT_SERIALIZABLE', path: '/1' },
    { name: 'undefined root', value: undefined, code: 'PROPS_NOT_SERIALIZABLE', path: '' },
    { name: 'cycle', value: cyclic, code: 'PROPS_CYCLE', path: '/self' },
    { name: 'too deep', value: deep, code: 'PROPS_TOO_DEEP' },
  ];
  for (const row of table) {
    test(row.name, () => {
      const out = serializeProps(row.value);
      expect(out.ok).toBe(false);
      if (!out.ok) {
        expect(out.error.code).toBe(row.code);
        if (row.path !== undefined) expect(out.error.path).toBe(row.path);
      }
    });
  }

  test('a shared (non-cyclic) object may appear twice', () => {
    const shared = { x: 1 };
    expect(roundTrip({ a: shared, b: shared })).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });

  test('oversized output is refused', () => {
    const out = serializeProps({ s: 'x'.repeat(100) }, { maxDepth: 64, maxChars: 50 });
    expect(out.ok ? 'ok' : out.error.code).toBe('PROPS_TOO_LARGE');
  });

  test.each(['', '{', '{"a":}', 'undefined', "{'a':1}"])('parse of %j fails with PROPS_PARSE', (text) => {
    const out = parseProps(text);
    expect(out.ok ? 'ok' : out.error.code).toBe('PROPS_PARSE');
  });

  test('parse drops __proto__ keys instead of touching prototypes', () => {
    const out = parseProps('{"__proto__":{"polluted":true},"a":1}');
    expect(out.ok).toBe(true);
    if (out.ok) {
      expect(out.value).toEqual({ a: 1 });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });
});

describe('server-only values never reach the HTML', () => {
  const SECRET = 'S3CR3T-do-not-ship';
  const storeRecord = {
    websiteId: 'w1',
    siteUser: {
      authenticated: true,
      siteUserId: 'u1',
      xsrfToken: 'visible-xsrf',
      passwordHash: `scrypt$${SECRET}`,
      sessionId: SECRET,
    },
    settings: { adminToken: SECRET, Secret: SECRET, captcha: { siteKey: 'public-key', clientSecret: SECRET } },
    internal: serverOnly({ note: SECRET }),
    list: [1, serverOnly(SECRET), 3],
  };

  /** The same page assembly the renderer performs: the serialized context inside the shell. */
  function pageHtml(context: unknown): string {
    const out = serializeProps(context);
    if (!out.ok) throw new Error(out.error.code);
    return `<!doctype html><html><body><script type="application/json" id="${CONTEXT_SCRIPT_ID}" ${PROTOCOL_VERSION_ATTR}="${ISLAND_PROTOCOL_VERSION}">${out.text}</script></body></html>`;
  }

  test('no secret text appears in the page and public tokens do', () => {
    const html = pageHtml(storeRecord);
    expect(html).not.toContain(SECRET);
    expect(html).toContain('visible-xsrf');
    expect(html).toContain('public-key');
  });

  test('every dropped value is reported by path', () => {
    const out = serializeProps(storeRecord);
    expect(out.ok).toBe(true);
    if (out.ok) {
      expect(out.dropped.sort()).toEqual(
        [
          '/siteUser/passwordHash', '/siteUser/sessionId', '/settings/adminToken', '/settings/Secret',
          '/settings/captcha/clientSecret', '/internal', '/list/1',
        ].sort(),
      );
    }
  });

  test('server-only keys are dropped at any depth (property)', () => {
    const keys = [...SERVER_ONLY_KEYS];
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.jsonValue(), fc.integer({ min: 0, max: 5 }), (key, filler, depth) => {
        let node: Record<string, unknown> = { [key]: SECRET, filler };
        for (let i = 0; i < depth; i++) node = { wrap: node, [key.toUpperCase()]: SECRET };
        const out = serializeProps(node);
        expect(out.ok).toBe(true);
        if (out.ok) expect(out.text).not.toContain(SECRET);
      }),
      { numRuns: 200 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { asBoolean, hasManyMembers, MANY_MEMBERS, noteManyMembers, isInheritedName, member, type JsonObject, asDouble, asLong, isTruthy, JDouble, javaDouble, jsNumber, jsonEquals, jsonString, JsonSyntaxError, narrowCut, parsedPlainLength, parsedJsonText, toJsonExact, latin1Image, narrowText, parseJson, parseJsonWalk, renderText, textOf, toJson, JSON_PIECE, toJsonPieces, toJsonPretty, type Value } from './value.ts';

describe('javaDouble (Java Double.toString)', () => {
  it.each([
    [1, '1.0'], [2.5, '2.5'], [100.25, '100.25'], [0.001, '0.001'], [1e7, '1.0E7'], [1e21, '1.0E21'],
    [1.5e-7, '1.5E-7'], [-5e-4, '-5.0E-4'], [0.1, '0.1'], [123456.789, '123456.789'], [0, '0.0'], [-0, '-0.0'],
    [NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity'], [9999999, '9999999.0'], [12345678.9, '1.23456789E7'],
  ])('%s → %s', (x, s) => expect(javaDouble(x)).toBe(s));

  // The short-decimal path (at most six fraction digits) against V8's shortest digits.
  const viaString = (x: number): string => {
    const s = String(Math.abs(x));
    return (x < 0 ? '-' : '') + (s.includes('.') ? s : s + '.0');
  };
  it('writes short decimals as String does, and longer ones through it', () => {
    const short = fc.tuple(fc.integer({ min: 0, max: 9_999_999 }), fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 6 }), fc.boolean()).map(([w, f, k, neg]) => {
      const x = Number(w + '.' + String(f).padStart(6, '0').slice(0, k || 1));
      return neg ? -x : x;
    });
    const any = fc.double({ min: 1e-3, max: 9_999_999.999, noNaN: true });
    fc.assert(
      fc.property(fc.oneof(short, any, any.map((x) => -x)), (x) => {
        if (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e7 || x === 0) return;
        expect(javaDouble(x)).toBe(viaString(x));
      }),
      { numRuns: 5000 },
    );
    for (const [x, s] of [[0.938, '0.938'], [0.000001 + 0.001, '0.001001'], [1.000001, '1.000001'], [9999999.999999, '9999999.999999'], [0.1 + 0.2, '0.30000000000000004'], [1234.5, '1234.5'], [-0.05, '-0.05']] as const) {
      expect(javaDouble(x)).toBe(s);
    }
  });
});

describe('jsNumber (Number#toString)', () => {
  it('writes every number as String does, wide integers from two halves, -0 as 0', () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.double(), fc.constantFrom(2 ** 31, -(2 ** 31), 2 ** 31 - 1, 1e15 + 7, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 1e21)), (x) => {
        expect(jsNumber(x)).toBe(Object.is(x, -0) ? '0' : String(x));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('parseJson strings', () => {
  it('reads every string as JSON.parse does, in texts with and without characters beyond Latin-1', () => {
    const unit = fc.constantFrom('a', 'é', '—', '😀', '"', '\\', '\n', '\u0001', '/', ' ', 'Z', '\ud83d');
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 30 }), { maxLength: 8 }), fc.boolean(), (strings, wide) => {
        const value = { k: strings, [strings[0] ?? 'x']: strings.join(''), tail: wide ? '—' : 'plain' };
        const text = JSON.stringify(value);
        expect(parseJson(text)).toEqual(JSON.parse(text));
      }),
    );
    // Escapes written by hand, which JSON.stringify would not write, in a wide text.
    expect(parseJson('["\\u00e9\\/x\\t", "—"]')).toEqual(['é/x\t', '—']);
  });
});

describe('narrowCut, narrowText', () => {
  it('gives the same text, whatever the whole it was cut from', () => {
    for (const [whole, part] of [['ab — cd', 'ab '], ['ab — cd', 'ab —'], ['abcd', 'ab'], ['é—', 'é'], ['', ''], ['😀x', 'x']]) {
      expect(narrowCut(whole, part)).toBe(part);
      expect(narrowText(part)).toBe(part);
    }
  });

  it('copies every Latin-1 character of a run as it is', () => {
    let all = '';
    for (let c = 0; c <= 0xff; c++) all += String.fromCharCode(c);
    const wide = `${all}—`;
    expect(latin1Image(wide.slice(0, 256), false)).toBe(all);
    expect(latin1Image('', false)).toBe('');
    // Characters beyond Latin-1 move nothing: every other character stays where it was.
    const image = latin1Image(wide + 'x😀y', false);
    expect(image.length).toBe(wide.length + 4);
    expect(image.slice(0, 256)).toBe(all);
    expect(image[257]).toBe('x');
    expect(image[260]).toBe('y');
    // A unit beyond Latin-1 is its low byte (`ⅻ` U+217B would be `{`), or with `wideAsY` `ÿ`.
    expect(latin1Image('a—b', false)).toBe('a\u0014b');
    expect(latin1Image('a\u217b\u017d\u0123—😀', true)).toBe('aÿÿÿÿÿÿ');
  });
});

describe('parseJson keeps number kinds', () => {
  it('integral floats are JDouble, big integers bigint', () => {
    const v = parseJson('{"a": 1.0, "b": 1, "c": 12345678901234567890, "d": 1e21, "e": 2.5, "f": -0.0}') as Record<string, unknown>;
    expect(v.a).toEqual(new JDouble(1));
    expect(v.b).toBe(1);
    expect(v.c).toBe(12345678901234567890n);
    expect(v.d).toEqual(new JDouble(1e21));
    expect(v.e).toBe(2.5);
    expect(Object.is((v.f as JDouble).value, -0)).toBe(true);
  });

  it('rejects malformed text with an offset', () => {
    for (const bad of ['', '{', '{"a" 1}', '[1,]', '01', '"\\x"', 'nul', '{"a":1} x', '"\u0001"']) {
      expect(() => parseJson(bad), bad).toThrow(JsonSyntaxError);
    }
    try {
      parseJson('[1, 2, }');
    } catch (e) {
      expect((e as JsonSyntaxError).offset).toBe(7);
    }
  });

  it('refuses nesting deeper than 2000 instead of overflowing the stack', () => {
    expect(() => parseJson('['.repeat(100_000))).toThrow(/Nesting too deep/);
  });

  it('a __proto__ key is an own member, not the prototype', () => {
    const v = parseJson('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__']);
  });

  it('member reads own members only, inherited names included', () => {
    const own = parseJson('{"__proto__": 1, "constructor": "c", "toString": null, "a": {"b": 2}}') as JsonObject;
    expect([member(own, '__proto__'), member(own, 'constructor'), member(own, 'toString'), member(own, 'a')]).toEqual([1, 'c', null, { b: 2 }]);
    for (const obj of [{}, Object.create(null)]) {
      for (const name of Object.getOwnPropertyNames(Object.prototype)) expect(member(obj, name)).toBeUndefined();
    }
    expect(member({}, 'missing')).toBeUndefined();
  });
});

/** Every value with its kind, members in their enumeration order (which tells a key's position). */
function shape(v: unknown): unknown {
  if (v instanceof JDouble) return ['double', Object.is(v.value, -0) ? '-0' : v.value];
  if (typeof v === 'bigint') return ['bigint', String(v)];
  if (typeof v === 'number') return ['number', Object.is(v, -0) ? '-0' : v];
  if (Array.isArray(v)) return v.map(shape);
  if (v !== null && typeof v === 'object') {
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    return Object.keys(v).map((k) => [k, shape((v as JsonObject)[k])]);
  }
  return v;
}

describe('parseJson is JSON.parse with the number kinds put back', () => {
  const same = (text: string): void => {
    expect(shape(parseJson(text)), text).toEqual(shape(parseJsonWalk(text)));
  };

  // Numbers as JSON writes them and as Java writes its doubles, and the ones that round.
  const numberText = fc.oneof(
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
    fc.integer({ min: -1e6, max: 1e6 }).map((x) => `${x}.0`),
    fc.constantFrom('-0', '-0.0', '0.0', '1e3', '1E+3', '1.5e1', '2.5e-1', '1e-400', '1e400', '-1e400', '0.99999999999999999999', '12345678901234567890', '-9007199254740993', '9007199254740991', '9007199254740992', '123456789012345.5', '1234567890123456.5', '12345678901234567.5', '100000000000000000000.0'),
  );
  const key = fc.oneof(fc.constantFrom('a', 'b', '__proto__', '0', '7', 'k\\"x', 'é—', 'constructor', 'toString'), fc.string({ maxLength: 4 }).map((k) => JSON.stringify(k).slice(1, -1)));
  const ws = fc.constantFrom('', '', ' ', '\n\t ');
  const { value } = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, numberText, fc.string({ maxLength: 6 }).map((x) => JSON.stringify(x)), fc.constantFrom('true', 'false', 'null', '"1.0"', '"a\\\\"', '"\\"1.0"'), tie('object'), tie('array')),
    // Keys may repeat: JSON.parse keeps the last value, at the first one's place.
    object: fc.array(fc.tuple(ws, key, ws, tie('value'), ws), { maxLength: 5 }).map((m) => '{' + m.map(([a, k, b, v, c]) => `${a}"${k}"${b}:${c}${v}${a}`).join(',') + '}'),
    array: fc.array(fc.tuple(ws, tie('value'), ws), { maxLength: 5 }).map((a) => '[' + a.map(([x, v, y]) => x + v + y).join(',') + ']'),
  }));
  const spaced = fc.tuple(ws, value, ws).map(([a, t, b]) => a + t + b);

  it('gives the tree the walk gives, number kinds, key order and repeated keys included (5,000 texts)', () => {
    fc.assert(fc.property(spaced, same), { numRuns: 5000 });
  });

  it('repeated keys, nesting, and the walk deciding what it alone decides', () => {
    for (const text of ['{"a":1.0,"a":1}', '{"a":{"x":1.0},"a":{"x":1}}', '{"a":{"x":1.0},"a":5}', '{"a":[1.0],"a":{"0":1}}', '{"a":1,"a":2.0}',
      '{"__proto__":1.0}', '{"__proto__":{"x":2.0}}', '[[[[1.0]]],[2.0,{"k":[3,4.0]}]]', '{"k\\"":1.0,"k\\u0041":2.0}', '7.0', '12345678901234567890',
      ' [ 1.0 , "x\\\\" , 2.0 ] ', '[' .repeat(1999) + '1.0' + ']'.repeat(1999), '[' .repeat(2000) + ']'.repeat(2000), '{"a":' .repeat(1000) + '1.0' + '}'.repeat(1000)]) {
      same(text);
    }
    expect(() => parseJson('['.repeat(2001) + '1' + ']'.repeat(2001))).toThrow(/Nesting too deep/);
    expect(() => parseJsonWalk('['.repeat(2001) + '1' + ']'.repeat(2001))).toThrow(/Nesting too deep/);
  });

  it('hands back the tree JSON.parse built, objects of any size, with the lost numbers written into it', () => {
    // Its objects hold their members inside and never become hash tables, which nothing in
    // JavaScript can see without V8's natives: the test holds the path that gives them instead.
    const text = JSON.stringify({ big: Object.fromEntries(Array.from({ length: 60 }, (_, k) => [`member${k}`, k])), d: 1 }).replace('"d":1', '"d":1.0');
    const spy = vi.spyOn(JSON, 'parse');
    try {
      const v = parseJson(text) as JsonObject;
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.results[0].value).toBe(v);
      expect(v.d).toEqual(new JDouble(1));
      expect(shape(v)).toEqual(shape(parseJsonWalk(text)));
    } finally {
      spy.mockRestore();
    }
  });
});

describe('text forms', () => {
  it('renderText prints doubles JavaScript-style but array elements Java-style', () => {
    expect(renderText(new JDouble(1))).toBe('1');
    expect(renderText(1e21)).toBe('1e+21');
    expect(renderText(-0)).toBe('0');
    expect(renderText([1, 2.5, 'x', null, true, [3], { y: 1 }, new JDouble(1)])).toBe('1,2.5,x,null,true,,,1.0');
    expect(renderText({ a: 1 })).toBe('');
    expect(renderText(null)).toBe('');
    expect(renderText(undefined)).toBe('');
    expect(renderText(12345678901234567890n)).toBe('12345678901234567890');
  });

  it('textOf is the reference asText', () => {
    expect(textOf(new JDouble(1))).toBe('1.0');
    expect(textOf(null)).toBe('null');
    expect(textOf(undefined)).toBe('');
    expect(textOf([1])).toBe('');
    expect(textOf(7)).toBe('7');
  });

  it('toJson writes Jackson output', () => {
    expect(toJson({ a: new JDouble(2), b: [1, 'x"\n\u0001'], c: undefined, d: NaN })).toBe('{"a":2.0,"b":[1,"x\\"\\n\\u0001"],"c":null,"d":"NaN"}');
    expect(toJsonPretty({ a: [1, { b: 2 }], e: {}, f: [] })).toBe('{\n  "a": [ 1, {\n    "b": 2\n  } ],\n  "e": { },\n  "f": [ ]\n}');
  });

  it('toJson quotes keys right, however many keys it has seen', () => {
    const wide: JsonObject = {};
    for (let i = 0; i < 1500; i++) wide['k' + (i % 700) + 'x'.repeat(i % 90)] = i;
    wide['a"b'] = 1;
    expect(toJson(wide)).toBe(JSON.stringify(wide));
    expect(toJsonExact(wide)).toBe(JSON.stringify(wide));
    expect(toJsonExact({ 'a"b': 'c', n: [{ 'a"b': NaN }] })).toBe('{"a\\"b":"c","n":[{"a\\"b":"NaN"}]}');
    expect(toJson({ 'a"b': 'c' })).toBe('{"a\\"b":"c"}');
  });

  it('jsonString writes a string as Jackson does, with few escapes or many (JSON.stringify from 32)', () => {
    // Jackson: the two-letter escapes, other controls as upper-case `\u00XX`, everything else as it is (lone surrogates too).
    const SHORT: Record<number, string> = { 0x22: '\\"', 0x5c: '\\\\', 0x0a: '\\n', 0x09: '\\t', 0x0d: '\\r', 0x08: '\\b', 0x0c: '\\f' };
    const jackson = (s: string) => {
      let out = '"';
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        out += SHORT[c] ?? (c < 0x20 ? '\\u' + c.toString(16).toUpperCase().padStart(4, '0') : s[i]);
      }
      return out + '"';
    };
    const unit = fc.oneof(fc.constantFrom('\u0000', '\u001f', '\u000b', '\ud800', '\udfff', '\\', '"', '\n', 'u', '\\u', '00', 'é', '—'), fc.string({ maxLength: 1 }), fc.string({ unit: 'binary', maxLength: 1 }));
    fc.assert(fc.property(fc.string({ unit, maxLength: 120 }), (s) => {
      expect(jsonString(s)).toBe(jackson(s));
    }), { numRuns: 3000 });
    const dense = ['"'.repeat(100_000), '\\'.repeat(40) + 'u0041', '"'.repeat(31) + '\u0001', '"'.repeat(32) + '\u0001', '"'.repeat(40) + '\ud83d', '\u0001' + '"'.repeat(40), 'x\n'.repeat(40)];
    for (const s of dense) expect(jsonString(s)).toBe(jackson(s));
  });

  // toJson hands data JSON.stringify writes the same way to it; the exact writer gives the
  // reference text to compare.
  it('toJson writes the same text through JSON.stringify as through the exact writer', () => {
    const exact = (v: Value) => toJsonExact(v);
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\u001f', '\u000b', '\ud800', '\udfff', '\\', '"', '\n', 'u', '</'), fc.string({ maxLength: 1 }), fc.string({ unit: 'binary', maxLength: 1 })) });
    const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(1e-3, 9.99e-4, 1e7, 9999999.5, 1e21, -0, 1e-7, NaN, Infinity));
    const scalar = fc.oneof(text, number, fc.boolean(), fc.constant(null), fc.constant(undefined), fc.double().map((x) => new JDouble(Math.trunc(x))), fc.bigInt().map((b) => b * 2n ** 60n));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('tree'), { maxLength: 5 }), fc.dictionary(text, tie('tree'), { maxKeys: 5 })),
    }));
    fc.assert(fc.property(tree as fc.Arbitrary<Value>, (v) => {
      expect(toJson(v)).toBe(exact(v));
    }), { numRuns: 2000 });
    const plain = { a: [1, 2.5, 'x', null, true, { b: 'é\u2028' }], '__proto__': 3 };
    expect(toJson(plain)).toBe(exact(plain));
  });
});

describe('parsed plain containers (parsedPlain)', () => {
  const map = (n: number, value: (k: number) => string = (k) => String(k)) => '{' + Array.from({ length: n }, (_, k) => `"key${k}":${value(k)}`).join(',') + '}';
  const marked = (v: unknown) => parsedPlainLength(v as JsonObject) !== undefined;

  it('marks the root and objects of 128 members, when JSON.stringify writes their numbers as Java does', () => {
    const text = `{"m":${map(128)},"s":${map(127)},"list":[${Array.from({ length: 200 }, (_, k) => `"item ${k}"`).join(',')}]}`;
    const v = parseJson(text) as JsonObject;
    expect(parsedPlainLength(v)).toBe(text.length);
    expect(parsedPlainLength(v.m as JsonObject)).toBe(map(128).length);
    expect(marked(v.s)).toBe(false);
    expect(marked(v.list)).toBe(false);
    expect(marked(parseJson(`[${map(128)}]`))).toBe(true);
    expect(marked(parseJson(' {"a": [1, 2]} '))).toBe(true);
    // Plain doubles keep the mark: 1e-3 <= |x| < 1e7 is written alike.
    for (const x of ['0.001', '-0.5', '9999999.5', '0.0012', '0.01', '123.25', '-0']) expect(marked(parseJson(map(130, () => x))), x).toBe(true);
  });

  it('leaves unmarked every container above a number it would write otherwise', () => {
    for (const x of ['12.0', '1e3', '1.5E-7', '0.0001', '0.00099', '12345678.5', '-10000000.5', '12345678901234567890', '-0.0']) {
      const v = parseJson(`{"a":${map(128)},"b":{"c":${map(140, (k) => (k === 77 ? x : String(k)))}}}`) as JsonObject;
      expect(marked(v), x).toBe(false);
      expect(marked(v.b), x).toBe(false);
      expect(marked((v.b as JsonObject).c), x).toBe(false);
      expect(marked(v.a), x).toBe(true);
      expect(toJson(v)).toBe(toJsonExact(v));
    }
  });

  it('marks no container that nests 256 deep, and nothing when a repeated key sends the text to the walk', () => {
    const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const deep = parseJson(`[${map(130)},${map(130, (k) => (k === 9 ? nest(254) : '1'))}]`) as Value[];
    expect(marked(deep)).toBe(false);
    expect(marked(deep[0])).toBe(true);
    expect(marked(deep[1])).toBe(false);
    const shallow = parseJson(`[${map(130)},${map(130, (k) => (k === 9 ? nest(253) : '1'))}]`) as Value[];
    expect(marked(shallow)).toBe(true);
    expect(marked(shallow[1])).toBe(true);
    // The first `m` is dropped by JSON.parse; its mark must not land on the second.
    for (const text of [`{"m":${map(130)},"m":{"a":1.0}}`, `{"m":${map(130)},"m":{"a":1}}`, `{"m":${map(130)},"m":[1.0]}`, `{"m":${map(130)},"m":${map(129, (k) => (k === 5 ? '2.0' : '1'))}}`]) {
      const v = parseJson(text) as JsonObject;
      expect(shape(v), text).toEqual(shape(parseJsonWalk(text)));
      expect(toJson(v), text).toBe(toJsonExact(v));
      if (!Array.isArray(v.m) && Object.keys(v.m as JsonObject).length < 128) expect(marked(v.m), text).toBe(false);
    }
  });

  it('marks containers longer than JSON_PIECE, and cuts a long text under a mark into pieces no longer than one', () => {
    const product = (k: number, price: string) => `{"id":"p${k}","title":"Product ${k} ${'x'.repeat(k % 200)}","price":${price},"tags":["a","b"],"body":"${'y'.repeat(300)}"}`;
    const page = (price: (k: number) => string) => `{"website":{"title":"Shop"},"items":[${Array.from({ length: 300 }, (_, k) => product(k, price(k))).join(',')}],"more":{"list":[${Array.from({ length: 120 }, (_, k) => product(k, '1')).join(',')}]}}`;
    for (const [name, price] of [['plain', (k: number) => String(k)], ['one 12.0', (k: number) => (k === 250 ? '12.0' : String(k))], ['one 1e-9', (k: number) => (k === 3 ? '1.5e-9' : String(k))]] as const) {
      const text = page(price);
      const v = parseJson(text) as JsonObject;
      const dirty = name !== 'plain';
      expect(marked(v), name).toBe(!dirty);
      expect(marked(v.items), name).toBe(!dirty);
      expect(marked((v.more as JsonObject).list), name).toBe(true);
      expect(marked(v.more), name).toBe(true);
      expect(marked((v.items as Value[])[0]), name).toBe(false);
      const pieces = toJsonPieces(v) as string[];
      expect(Array.isArray(pieces), name).toBe(true);
      expect(pieces.join(''), name).toBe(toJsonExact(v));
      for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(JSON_PIECE + 64);
      const esc = (t: string) => t.replaceAll('</', '<\\/');
      const escaped = toJsonPieces(v, esc) as string[];
      expect(escaped.join('')).toBe(esc(toJsonExact(v)));
    }
  });

  // Random texts with large objects and arrays: toJson (which trusts the marks) equals the
  // exact writer, whole and in pieces, and every mark is an upper bound of its text's length.
  it('toJson of parsed texts equals the exact writer, whole and in pieces (300 texts)', () => {
    // Mostly numbers JSON.stringify writes as Java does, so that large containers keep their
    // marks; now and then one it does not, which takes them away.
    const number = fc.oneof(
      { weight: 60, arbitrary: fc.oneof(fc.integer().map(String), fc.double({ noNaN: true, min: -1e6, max: 1e6 }).filter((x) => Math.abs(x) >= 1e-3 || x === 0).map((x) => JSON.stringify(x)), fc.constantFrom('0.001', '9999999.5', '-0', '0.0012')) },
      { weight: 1, arbitrary: fc.constantFrom('12.0', '0.0001', '0.00099', '1e3', '2.5e-7', '12345678.5', '-10000000.25', '12345678901234567890', '-0.0') },
    );
    const str = fc.string({ unit: fc.oneof(fc.constantFrom('\\u0041', '\\/', '</', '<\\/', 'é', '\\n'), fc.string({ unit: 'grapheme-ascii', maxLength: 1 }).map((c) => c.replace(/["\\]/, ''))), maxLength: 8 }).map((t) => '"' + t + '"');
    // Now and then a long text, so that some containers are longer than JSON_PIECE.
    const scalar = fc.oneof({ weight: 1, arbitrary: number }, { weight: 3, arbitrary: str }, { weight: 1, arbitrary: fc.constantFrom('true', 'null') }, { weight: 1, arbitrary: fc.nat(6000).map((k) => `"${'z'.repeat(k)}"`) });
    const ws = fc.constantFrom('', '', ' ', '\n  ');
    const members = (value: fc.Arbitrary<string>, max: number) => fc.array(fc.tuple(fc.oneof(fc.nat(300).map((k) => `k${k}`), fc.constantFrom('__proto__', 'a')), value, ws), { maxLength: max, size: 'max' });
    const obj = (value: fc.Arbitrary<string>, max: number) => members(value, max).map((m) => '{' + m.map(([k, v, w]) => `${w}"${k}":${w}${v}`).join(',') + '}');
    const leafObj = obj(scalar, 6);
    const inner = fc.oneof(scalar, leafObj, fc.array(scalar, { maxLength: 6 }).map((a) => '[' + a.join(',') + ']'));
    const text = fc.oneof(obj(inner, 260), fc.array(fc.oneof(inner, obj(inner, 200)), { maxLength: 40, size: 'max' }).map((a) => '[' + a.join(',') + ']'));
    fc.assert(
      fc.property(text, (t) => {
        const v = parseJson(t);
        const exact = toJsonExact(v);
        expect(toJson(v)).toBe(exact);
        const p = toJsonPieces(v);
        expect(typeof p === 'string' ? p : p.join('')).toBe(exact);
        const visit = (x: Value): void => {
          if (typeof x !== 'object' || x === null || x instanceof JDouble) return;
          const length = parsedPlainLength(x as JsonObject);
          if (length !== undefined) expect(toJsonExact(x).length).toBeLessThanOrEqual(length);
          for (const e of Object.values(x)) visit(e);
        };
        visit(v);
      }),
      { numRuns: 300 },
    );
  });

  it('writes a marked container as the text it was read from, when that text is what toJson writes', () => {
    const sliced = (t: string) => {
      const v = parseJson(t);
      expect(toJson(v), t).toBe(toJsonExact(v));
      return parsedJsonText(v) !== null;
    };
    for (const t of ['{"a":[1,2.5,"x\\"y\\\\z\\n",null,true],"b":{"c":-3,"d":2.1100000000000003}}', '[]', '{"id":"0800a0","07":1,"4294967295":2}', '{"s":"</script>\u2028é—😀"}']) expect(sliced(t), t).toBe(true);
    // Java's doubles, as the platform writes them, are what toJson writes too: the text is
    // sliced, though JSON.stringify cannot write it.
    for (const t of ['{"a":12.0,"b":[1.0E7,-0.0,1.5E-7,12345678901234567890],"c":{"d":1234567.891}}', '[{"price":0.0}]', '{"a":1.0}']) expect(sliced(t), t).toBe(true);
    // A map kept for its text alone is not taken as plain by the walk of a text that is not sliced.
    const doubles = `{"m":${map(140, (k) => (k === 7 ? '12.0' : String(k)))}, "x":1}`;
    expect(toJson(parseJson(doubles))).toBe(toJsonExact(parseJson(doubles)));
    expect(parsedJsonText((parseJson(doubles) as JsonObject).m)).toBe(map(140, (k) => (k === 7 ? '12.0' : String(k))));
    for (const t of ['{"a":1e3}', '{"a":12.00}', '{"a":1.5e-7}', '{"a":0.0001}', '{"a":10000000.0}']) expect(sliced(t), t).toBe(false);
    for (const t of ['{"a": 1}', '{"a":[1, 2]}', '{"a":"\\u0041"}', '{"a":"\\/"}', '{"a":1.50}', '{"a":-0}', '{"a":0.30000000000000001}', '{"b":1,"12":2}', '{"a":{"0":1}}', '{"a":{"x":1,"x":2}}', '[{"x":1,"y":2,"x":3}]']) expect(sliced(t), t).toBe(false);
    // Members of 8 KB or more are marked, and sliced; shorter ones are written by JSON.stringify.
    const members = JSON.parse(`{"big":{"t":"${'x'.repeat(8200)}"},"small":{"t":"${'x'.repeat(8000)}"},"list":["${'y'.repeat(8200)}"]}`) as JsonObject;
    const parsed = parseJson(JSON.stringify(members)) as JsonObject;
    expect(parsedJsonText(parsed.big)).toBe(JSON.stringify(members.big));
    expect(parsedJsonText(parsed.list)).toBe(JSON.stringify(members.list));
    expect(parsedJsonText(parsed.small)).toBe(null);
    expect(marked(parsed.small)).toBe(false);
    // Space around the root is outside its text: it is still a slice.
    expect(sliced(' {"a":[1]}\n')).toBe(true);
    expect(toJson(parseJson(' {"a":[1]}\n'))).toBe('{"a":[1]}');
  });

  it('notices a member added or removed since the parse, and a copy is printed as it is', () => {
    const text = '{"a":{"b":1,"c":"x"},"d":[1,2]}';
    const added = parseJson(text) as JsonObject;
    (added.a as JsonObject).e = 2;
    expect(toJson(added)).toBe('{"a":{"b":1,"c":"x","e":2},"d":[1,2]}');
    const removed = parseJson(text) as JsonObject;
    delete (removed.a as JsonObject).c;
    expect(toJson(removed)).toBe('{"a":{"b":1},"d":[1,2]}');
    const copy = structuredClone(parseJson(text)) as JsonObject;
    (copy.a as JsonObject).c = 'y';
    expect(toJson(copy)).toBe('{"a":{"b":1,"c":"y"},"d":[1,2]}');
  });

  it('counts members as for-in does: a name made enumerable on Object.prototype takes the slice away', () => {
    // Text: two members; tree: one own name, one inherited.
    const v = parseJson('{"x":1,"x":2}');
    Object.defineProperty(Object.prototype, 'polluted', { value: 1, enumerable: true, writable: true, configurable: true });
    try {
      expect(parsedJsonText(v)).toBe(null);
      expect(toJson(v)).toBe('{"x":2}');
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });

  it('cuts a long slice where no surrogate pair and no `</` is split', () => {
    for (const [filler, at] of [['😀', JSON_PIECE - 1], ['</', JSON_PIECE - 1]] as const) {
      // `["` then text, so that the piece boundary falls inside `filler`.
      const text = '["' + 'z'.repeat(at - 2) + filler + 'z'.repeat(JSON_PIECE * 2) + '"]';
      const v = parseJson(text);
      const pieces = toJsonPieces(v, (t) => t.replaceAll('</', '<\\/')) as string[];
      expect(Array.isArray(pieces)).toBe(true);
      expect(pieces.join('')).toBe(text.replaceAll('</', '<\\/'));
      for (const piece of pieces) {
        expect(piece.length).toBeLessThanOrEqual(JSON_PIECE + 1);
        const last = piece.charCodeAt(piece.length - 1);
        expect(last >= 0xd800 && last <= 0xdbff, 'a high surrogate ends a piece').toBe(false);
      }
      expect(pieces[0].endsWith('<')).toBe(false);
    }
  });

  // Compact texts, mostly as toJson writes them (distinct keys, shortest numbers), now and then
  // with what is not: the result always equals the exact writer, and many of them are slices.
  it('json of compact parsed texts equals the exact writer, sliced or not (300 texts)', () => {
    const number = fc.oneof(
      { weight: 30, arbitrary: fc.oneof(fc.integer().map(String), fc.double({ noNaN: true, min: -1e6, max: 1e6 }).filter((x) => Math.abs(x) >= 1e-3 || x === 0).map((x) => JSON.stringify(x))) },
      { weight: 1, arbitrary: fc.constantFrom('1.50', '0.10', '-0', '0.30000000000000001', '2.1100000000000003', '12.0', '1e3', '100000000000000000000', '123456789012.5', '1234567.891234567') },
    );
    const unit = fc.oneof({ weight: 30, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 1 }).map((c) => c.replace(/["\\]/, '')) }, { weight: 1, arbitrary: fc.constantFrom('\\u0041', '\\/', '\\"', '\\\\', '\\n', '</', 'é', '😀', '\\ud83d\\ude00') });
    const str = fc.string({ unit, maxLength: 10 }).map((t) => '"' + t + '"');
    const scalar = fc.oneof({ weight: 2, arbitrary: number }, { weight: 3, arbitrary: str }, { weight: 1, arbitrary: fc.constantFrom('true', 'null') }, { weight: 1, arbitrary: fc.nat(3000).map((k) => `"${'w'.repeat(k)}</${'😀'.repeat(k % 5)}"`) });
    const key = fc.oneof({ weight: 20, arbitrary: fc.nat(400).map((k) => `k${k}`) }, { weight: 1, arbitrary: fc.constantFrom('__proto__', '12', '0', '007', '') });
    const obj = (value: fc.Arbitrary<string>, max: number) =>
      fc.tuple(fc.uniqueArray(fc.tuple(key, value), { maxLength: max, selector: ([k]) => k }), fc.nat(40)).map(([m, dup]) =>
        // Now and then a key given twice.
        '{' + [...m, ...(dup === 0 && m.length > 0 ? [[m[0][0], '1']] : [])].map(([k, v]) => `"${k}":${v}`).join(',') + '}',
      );
    const inner = fc.oneof(scalar, obj(scalar, 8), fc.array(scalar, { maxLength: 8 }).map((a) => '[' + a.join(',') + ']'));
    const text = fc.oneof(obj(fc.oneof(inner, obj(inner, 6)), 200), fc.array(fc.oneof(inner, obj(inner, 140)), { maxLength: 60 }).map((a) => '[' + a.join(',') + ']'));
    let slices = 0;
    fc.assert(
      fc.property(text, (t) => {
        const v = parseJson(t);
        const exact = toJsonExact(v);
        expect(toJson(v)).toBe(exact);
        const esc = (x: string) => x.replaceAll('</', '<\\/');
        const p = toJsonPieces(v, esc);
        expect(typeof p === 'string' ? p : p.join('')).toBe(esc(exact));
        // The same escape given as an `EachInto`, which pushes the text between two `</` apart.
        const q = toJsonPieces(v, esc, (x, out) => out.push(...x.split('</').flatMap((part, i) => (i === 0 ? [part] : ['<\\/', part]))));
        expect(typeof q === 'string' ? q : q.join('')).toBe(esc(exact));
        if (parsedJsonText(v) !== null) slices++;
      }),
      { numRuns: 300 },
    );
    expect(slices).toBeGreaterThan(40);
  });
});

describe('toJsonPieces', () => {
  const text = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\ud800', '\udfff', '"', '\\', '</', 'é', '—'), fc.string({ maxLength: 1 })) });
  const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.integer().map((x) => new JDouble(x)), fc.bigInt().map((b) => b * 2n ** 60n));
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('tree'), { maxLength: 5 }), fc.dictionary(text, tie('tree'), { maxKeys: 5 })),
  }));

  it('is toJson cut between values, for any tree and long ones', () => {
    fc.assert(
      fc.property(tree as fc.Arbitrary<Value>, fc.integer({ min: 1, max: 300 }), fc.string({ maxLength: 200 }), (v, copies, filler) => {
        const big = { head: filler.repeat(30), items: Array.from({ length: copies }, (_, i) => ({ i, v, s: filler, d: new JDouble(i) })), deep: { a: [v, [v, { x: v }]] } } as Value;
        for (const x of [v, big, [big, v, big] as Value]) {
          const p = toJsonPieces(x);
          const whole = toJson(x);
          if (typeof p === 'string') expect(p).toBe(whole);
          else {
            expect(p.length).toBeGreaterThan(1);
            expect(p.join('')).toBe(whole);
          }
          // `each` on every value's text is the same as on the whole: `</` never spans two values.
          const esc = (t: string) => t.replaceAll('</', '<\\/');
          const q = toJsonPieces(x, esc);
          expect(typeof q === 'string' ? q : q.join('')).toBe(esc(whole));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('hands a long text back in pieces of about JSON_PIECE characters, a short one whole', () => {
    const product = (i: number) => ({ id: 'p' + i, title: 'Product ' + i, price: new JDouble(i), tags: ['a', 'b', 'c'], body: 'x'.repeat(400 + (i % 300)) });
    const page = { website: { title: 'Shop' }, items: Array.from({ length: 1200 }, (_, i) => product(i)) };
    const p = toJsonPieces(page) as string[];
    expect(Array.isArray(p)).toBe(true);
    expect(p.join('')).toBe(toJson(page));
    for (const piece of p) expect(piece.length).toBeLessThanOrEqual(JSON_PIECE + 64);
    expect(p.length).toBeGreaterThan(toJson(page).length / JSON_PIECE);
    expect(toJsonPieces({ items: page.items.slice(0, 5) })).toBe(toJson({ items: page.items.slice(0, 5) }));
    // A single long string is not cut.
    const long = 'y'.repeat(3 * JSON_PIECE);
    expect(toJsonPieces(long)).toBe(toJson(long));
    const two = toJsonPieces([long, long]);
    expect(typeof two !== 'string' && two.join('') === toJson([long, long])).toBe(true);
    expect((two as string[]).map((piece) => piece.length)).toEqual([long.length + 4, long.length + 3]);
  });
});

describe('coercions', () => {
  it('isTruthy', () => {
    expect([0, NaN, '', null, undefined, {}, [], false, new JDouble(0), 0n].map(isTruthy)).toEqual(Array(10).fill(false));
    expect([1, ' ', 'false', { a: 1 }, [0], true, new JDouble(1), 1n].map(isTruthy)).toEqual(Array(8).fill(true));
  });

  it('asLong, asDouble, asBoolean', () => {
    expect([asLong(' 12 '), asLong('1.9'), asLong('x'), asLong(true), asLong(-2.7), asLong(null)]).toEqual([12, 1, 0, 1, -2, 0]);
    expect([asDouble('1e3'), asDouble(' .5'), asDouble('abc'), asDouble(new JDouble(3))]).toEqual([1000, 0.5, 0, 3]);
    expect([asBoolean(' true '), asBoolean('yes'), asBoolean(2), asBoolean(1.5)]).toEqual([true, false, true, false]);
  });

  it('asDouble reads the same number texts as the pattern with an optional dot did', () => {
    // The former pattern backtracked quadratically on `111…1x` (issue 13); it is the oracle here.
    const former = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
    const text = fc.array(fc.constantFrom('1', '0', '.', '+', '-', 'e', 'E', 'x'), { maxLength: 8 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, (s) => Object.is(asDouble(s), former.test(s) ? Number(s) : s === 'NaN' ? NaN : 0)),
      { seed: 13, numRuns: 1000 },
    );
    expect([asDouble('1.'), asDouble('1.e2'), asDouble('.'), asDouble('1e'), asLong('12.5e1')]).toEqual([1, 100, 0, 0, 125]);
  });

  it('jsonEquals distinguishes number kinds and missing from null', () => {
    expect(jsonEquals(1, new JDouble(1))).toBe(false);
    expect(jsonEquals(new JDouble(1), new JDouble(1))).toBe(true);
    expect(jsonEquals(1, '1')).toBe(false);
    expect(jsonEquals(null, undefined)).toBe(false);
    expect(jsonEquals({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEquals({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(jsonEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEquals(5n ** 30n, 5n ** 30n)).toBe(true);
  });
});

describe('isInheritedName', () => {
  it('is true exactly for the names a plain object inherits', () => {
    for (const name of Object.getOwnPropertyNames(Object.prototype)) expect(isInheritedName(name)).toBe(true);
    for (const name of ['', 'title', 'toString2', 'tostring', 'valueof', 'constructors', '__proto', 'hasOwnPropertx', 'é', 'constructor\u0000']) expect(isInheritedName(name)).toBe(false);
    const inherited = new Set(Object.getOwnPropertyNames(Object.prototype));
    fc.assert(fc.property(fc.string({ maxLength: 24 }), (s) => isInheritedName(s) === inherited.has(s)));
  });
});

describe('objects of many members (noteManyMembers)', () => {
  it('testing a noted object for truth does not list its names; an object not noted is listed once per test', () => {
    let listed = 0;
    const names = Array.from({ length: MANY_MEMBERS + 1 }, (_, i) => `k${i}`);
    const big = new Proxy({} as JsonObject, {
      ownKeys: () => (listed++, names),
      getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }),
      get: () => 1,
    });
    expect(isTruthy(big)).toBe(true);
    expect(listed).toBe(1);
    noteManyMembers({ page: { big } });
    listed = 0;
    for (let i = 0; i < 1000; i++) expect(isTruthy(big)).toBe(true);
    expect(listed).toBe(0);
  });

  it('parseJson notes the objects of more than MANY_MEMBERS members, at any depth, and no smaller one', () => {
    const members = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    const tree = parseJson(JSON.stringify({ a: [{ big: members(MANY_MEMBERS + 1) }], small: members(MANY_MEMBERS), n: 1.0 })) as Record<string, any>;
    expect(hasManyMembers(tree.a[0].big)).toBe(true);
    expect(hasManyMembers(tree.small)).toBe(false);
    expect(hasManyMembers(tree)).toBe(false);
    // The walk takes no recursion: 100,000 levels of arrays.
    noteManyMembers(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)));
  });
});

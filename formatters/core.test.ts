import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JDouble, JavaError, parseJson, toJson, type FormatterSpec, type Value } from '../engine/plugin-api.ts';
import { coreFormatters } from './core.ts';
import { argsErrorOf, bindFormatter, TestPluginContext, type TestFrame } from './util/plugin-test-context.ts';

const byName = new Map(coreFormatters.map((f) => [f.name, f]));

function spec(name: string): FormatterSpec<any> {
  const f = byName.get(name);
  if (!f) throw new Error(`no formatter ${name}`);
  return f;
}

/**
 * Runs `name args` on `value` the way an output instruction does: the value being formatted
 * is pushed as a frame above `outer` (LANGUAGE §3.3).
 */
function run(name: string, args: string[], value: Value, outer: TestFrame[] = [{ node: {} }]): Value {
  const f = spec(name);
  const bound = bindFormatter(f, args);
  const ctx = new TestPluginContext([...outer, { node: value }]);
  return f.apply(value, bound, ctx, []);
}

const j = (text: string): Value => parseJson(text);

function bindError(name: string, args: string[]): string | null {
  return argsErrorOf(() => bindFormatter(spec(name), args));
}

function runtimeError(fn: () => unknown): { javaClass: string; message: string } | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof JavaError) return { javaClass: e.javaClass, message: e.message };
    throw e;
  }
}

describe('registry', () => {
  it('registers the 28 core formatters (date lives elsewhere) and the three of §19', () => {
    const names = coreFormatters.map((f) => f.name).sort();
    expect(names).toEqual(
      [
        'apply', 'count', 'cycle', 'encode-space', 'encode-uri', 'encode-uri-component', 'find-first', 'find-last',
        'format', 'get', 'html', 'htmlattr', 'htmltag', 'iter', 'json', 'json-pretty', 'key-by', 'line-breaks',
        'lookup', 'mod', 'output', 'pluralize', 'prop', 'raw', 'round', 'safe', 'slugify', 'smartypants', 'str',
        'truncate', 'url-encode',
      ].sort(),
    );
    expect(new Set(names).size).toBe(names.length);
  });

  it('flags exactly the formatters that require arguments', () => {
    const required = coreFormatters.filter((f) => f.requiresArgs).map((f) => f.name).sort();
    expect(required).toEqual(['apply', 'cycle', 'key-by', 'lookup']);
  });

  it('accepts extra arguments where no validator exists', () => {
    for (const name of ['count', 'html', 'htmlattr', 'json', 'json-pretty', 'raw', 'str', 'safe', 'slugify', 'round', 'iter']) {
      expect(bindError(name, ['x', 'y', 'z'])).toBeNull();
    }
  });
});

describe('apply', () => {
  it('passes name, value, private flag and @args to the engine', () => {
    const f = spec('apply');
    const ctx = new TestPluginContext([{ node: { v: 1 } }]);
    ctx.partials.card = (value, args) => `card:${toJson(value)}:${JSON.stringify(args)}`;
    const b = bindFormatter(f, ['card', 'size=L', 'skipped', 'tone=dry', 'private']);
    expect(f.apply('x', b, ctx, [])).toBe('card:"x":{"size":"L","tone":"dry"}');
    expect(ctx.partialCalls[0]).toMatchObject({ name: 'card', isPrivate: true });
  });

  it('gives @args only when something follows the name', () => {
    const f = spec('apply');
    const ctx = new TestPluginContext([{ node: {} }]);
    f.apply(1, bindFormatter(f, ['m']), ctx, []);
    f.apply(1, bindFormatter(f, ['m', 'private']), ctx, []);
    f.apply(1, bindFormatter(f, ['m', 'x']), ctx, []);
    f.apply(1, bindFormatter(f, ['m', '=2', 'z=', 'k=a=b']), ctx, []);
    expect(ctx.partialCalls.map((c) => c.args)).toEqual([undefined, {}, {}, { '': '2', z: '', k: 'a=b' }]);
    expect(ctx.partialCalls.map((c) => c.isPrivate)).toEqual([false, true, false, false]);
  });

  it('keeps a __proto__ pair as a plain member', () => {
    const b = bindFormatter(spec('apply'), ['m', '__proto__=x']);
    expect(Object.keys(b.args)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(b.args)).toBe(Object.prototype);
  });

  it('applies missing and null values and returns missing for an unknown partial', () => {
    expect(run('apply', ['nope'], undefined)).toBeUndefined();
    const f = spec('apply');
    const ctx = new TestPluginContext([{ node: {} }]);
    ctx.partials.show = (value) => `[${toJson(value)}]`;
    expect(f.apply(null, bindFormatter(f, ['show']), ctx, [])).toBe('[null]');
    expect(f.apply(undefined, bindFormatter(f, ['show']), ctx, [])).toBe('[null]');
    expect(ctx.partialCalls.map((c) => c.value)).toEqual([null, undefined]);
  });

  it('requires arguments', () => {
    expect(spec('apply').requiresArgs).toBe(true);
  });
});

describe('count', () => {
  it('counts elements, members and UTF-16 units', () => {
    expect(run('count', [], j('[1,2,3]'))).toBe(3);
    expect(run('count', [], j('{"a":1,"b":2}'))).toBe(2);
    expect(run('count', [], 'h\u{1F600}')).toBe(3);
  });
  it('gives 0 for anything else', () => {
    for (const v of [undefined, null, 12, true, new JDouble(1), '']) expect(run('count', [], v)).toBe(0);
  });
});

describe('cycle', () => {
  it('wraps negative and zero positions (inline reference test)', () => {
    let out = '';
    for (let n = -6; n <= 5; n++) out += run('cycle', ['A', 'B', 'C'], n);
    expect(out).toBe('CABCABCABCAB');
  });
  it('uses the integer of strings and doubles; non-numbers are 0 (last argument)', () => {
    expect(run('cycle', ['A', 'B', 'C'], '2')).toBe('B');
    expect(run('cycle', ['A', 'B', 'C'], 2.9)).toBe('B');
    for (const v of [undefined, null, 'abc', {}, []]) expect(run('cycle', ['A', 'B', 'C'], v)).toBe('C');
  });
  it('requires arguments', () => {
    expect(spec('cycle').requiresArgs).toBe(true);
  });
});

describe('encode-space', () => {
  it('replaces each whitespace character by one entity', () => {
    expect(run('encode-space', [], '  \n ')).toBe('&nbsp;&nbsp;&nbsp;&nbsp;');
    expect(run('encode-space', [], 'a\tb\u000bc\fd\re')).toBe('a&nbsp;b&nbsp;c&nbsp;d&nbsp;e');
    expect(run('encode-space', [], 'a\u00a0b')).toBe('a\u00a0b');
  });
  it('replaces exactly the six characters of Java\'s \\s, of all 65,536 code units', () => {
    const javaSpace = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);
    let all = '';
    let expected = '';
    for (let c = 0; c < 0x10000; c++) {
      all += String.fromCharCode(c) + 'x';
      expected += (javaSpace.has(c) ? '&nbsp;' : String.fromCharCode(c)) + 'x';
    }
    expect(run('encode-space', [], all)).toBe(expected);
  });
  it('uses the text of the node', () => {
    expect(run('encode-space', [], null)).toBe('null');
    expect(run('encode-space', [], undefined)).toBe('');
    expect(run('encode-space', [], new JDouble(2))).toBe('2.0');
    expect(run('encode-space', [], { a: 1 })).toBe('');
  });
});

describe('encode-uri / encode-uri-component', () => {
  it('encode-uri keeps the reserved set but encodes the apostrophe', () => {
    expect(run('encode-uri', [], '<=%>')).toBe('%3C=%25%3E');
    expect(run('encode-uri', [], "-_.!~*();/?:@&=+$,#'")).toBe("-_.!~*();/?:@&=+$,#%27");
    expect(run('encode-uri', [], 'caf\u00e9 \u{1F600}')).toBe('caf%C3%A9%20%F0%9F%98%80');
  });
  it('encode-uri-component also encodes the reserved set', () => {
    expect(run('encode-uri-component', [], 'http://unipro.ru')).toBe('http%3A%2F%2Funipro.ru');
    expect(run('encode-uri-component', [], '-_.!~*() ;/?@&=+$,#')).toBe('-_.!~*()%20%3B%2F%3F%40%26%3D%2B%24%2C%23');
    expect(run('encode-uri-component', [], "it's")).toBe('it%27s');
  });
  it('gives empty text for an unpaired surrogate, missing and containers', () => {
    expect(run('encode-uri', [], 'a\ud800b')).toBe('');
    expect(run('encode-uri-component', [], '\udc00')).toBe('');
    expect(run('encode-uri', [], undefined)).toBe('');
    expect(run('encode-uri-component', [], [1])).toBe('');
    expect(run('encode-uri', [], null)).toBe('null');
  });
});

describe('url-encode', () => {
  it('form-encodes UTF-8 with + for space', () => {
    expect(run('url-encode', [], '\u201ca b\u201d')).toBe('%E2%80%9Ca+b%E2%80%9D');
    expect(run('url-encode', [], '\u{1F600}')).toBe('%F0%9F%98%80');
    expect(run('url-encode', [], 'a.b-c*d_e~f@g/h+i')).toBe('a.b-c*d_e%7Ef%40g%2Fh%2Bi');
  });
  it('encodes an unpaired surrogate as ?', () => {
    expect(run('url-encode', [], 'x\ud800')).toBe('x%3F');
  });
  it('uses the text of the node', () => {
    expect(run('url-encode', [], undefined)).toBe('');
    expect(run('url-encode', [], null)).toBe('null');
    expect(run('url-encode', [], 1.5)).toBe('1.5');
  });
});

describe('format', () => {
  const outer: TestFrame[] = [{ node: j('{"foo":"A","bar":"B","n":null,"d":1.0}') }];
  it('replaces {N} with the text of the N-th argument', () => {
    expect(run('format', ['foo', 'bar'], '{0} and {1}', outer)).toBe('A and B');
    expect(run('format', ['foo', 'bar'], '{000001}{}{5}', outer)).toBe('BA');
  });
  it('drops tags with other characters and swallows an unterminated tag', () => {
    expect(run('format', ['foo'], 'x{a0}y{0 }z{0', outer)).toBe('xyz');
    expect(run('format', ['foo'], '{{0}}', outer)).toBe('}');
  });
  it('prints null arguments as null, doubles in Java form, missing as nothing', () => {
    expect(run('format', ['n', 'd', 'nope', '!bad'], '{0}|{1}|{2}|{3}', outer)).toBe('null|1.0||');
  });
  it('resolves @ against the pattern itself', () => {
    expect(run('format', ['@'], '<{0}>', outer)).toBe('<<{0}>>');
  });
  it('handles missing and non-text patterns', () => {
    expect(run('format', ['foo'], undefined, outer)).toBe('');
    expect(run('format', ['foo'], null, outer)).toBe('null');
    expect(run('format', [], 42, outer)).toBe('42');
    expect(run('format', ['foo'], '{99999999999999999999}', outer)).toBe('');
  });
});

describe('get', () => {
  const data = j('{"id":"123","key":"name","idx":1,"path":["a",0,true,"b"],"objects":{"123":{"name":"Bob"}},"nul":null}');
  const outer: TestFrame[] = [{ node: data }];
  it('walks member names and array indexes from resolved arguments', () => {
    expect(run('get', ['id', 'key'], (data as any).objects, outer)).toBe('Bob');
    expect(run('get', ['idx'], j('["x","y"]'), outer)).toBe('y');
    expect(run('get', ['path'], j('{"a":[{"b":7}]}'), outer)).toBe(7);
  });
  it('gives missing when an argument is missing or a step fails', () => {
    expect(run('get', ['missing', 'id'], (data as any).objects, outer)).toBeUndefined();
    expect(run('get', ['idx'], j('{"1":"x"}'), outer)).toBeUndefined();
    expect(run('get', ['key'], j('["x"]'), outer)).toBeUndefined();
    expect(run('get', ['id', 'key'], j('{"123":null}'), outer)).toBeUndefined();
    expect(run('get', ['id'], undefined, outer)).toBeUndefined();
    expect(run('get', ['id'], 'text', outer)).toBeUndefined();
  });
  it('returns null values found, skips boolean and null keys, and without args returns the input', () => {
    expect(run('get', ['id'], j('{"123":null}'), outer)).toBeNull();
    expect(run('get', ['nul'], 'v', outer)).toBe('v');
    expect(run('get', [], j('{"a":1}'), outer)).toEqual({ a: 1 });
  });
});

describe('html / htmlattr / htmltag', () => {
  it('html escapes & < > but not quotes', () => {
    expect(run('html', [], '< foo & bar >')).toBe('&lt; foo &amp; bar &gt;');
    expect(run('html', [], `"it's"`)).toBe(`"it's"`);
  });
  it('htmlattr and htmltag also escape double quotes', () => {
    for (const n of ['htmlattr', 'htmltag']) expect(run(n, [], `"<a>" & 'b'`)).toBe(`&quot;&lt;a&gt;&quot; &amp; 'b'`);
  });
  it('give the same text when a remembered input comes back, and through a full memo', () => {
    // html and htmlattr keep separate memos: one input escapes differently in each.
    for (let round = 0; round < 2; round++) {
      expect(run('html', [], '"a" < b')).toBe('"a" &lt; b');
      expect(run('htmlattr', [], '"a" < b')).toBe('&quot;a&quot; &lt; b');
    }
    for (let i = 0; i < 1500; i++) expect(run('html', [], `<${i}>`)).toBe(`&lt;${i}&gt;`);
    const long = '<&>'.repeat(200);
    expect(run('html', [], long)).toBe('&lt;&amp;&gt;'.repeat(200));
    expect(run('html', [], long)).toBe('&lt;&amp;&gt;'.repeat(200));
  });
  it('eat null and stringify scalars in Java form', () => {
    for (const n of ['html', 'htmlattr', 'htmltag']) {
      expect(run(n, [], null)).toBe('');
      expect(run(n, [], undefined)).toBe('');
      expect(run(n, [], new JDouble(1))).toBe('1.0');
      expect(run(n, [], [1, 2])).toBe('');
      expect(run(n, [], false)).toBe('false');
    }
  });
});

describe('iter', () => {
  it('prints the 1-based index of the innermost loop', () => {
    const frames: TestFrame[] = [{ node: {} }, { node: ['a', 'b'], index: 1 }, { node: 'b' }];
    expect(run('iter', [], 'b', frames)).toBe('2');
  });
  it('is empty outside a loop whatever the input', () => {
    expect(run('iter', [], undefined)).toBe('');
    expect(run('iter', [], null)).toBe('');
  });
});

describe('json / raw / json-pretty', () => {
  it('json writes compact JSON with Java doubles and escapes </', () => {
    expect(run('json', [], j('{"a":[1,1.0,1e21,"x"],"b":null}'))).toBe('{"a":[1,1.0,1.0E21,"x"],"b":null}');
    expect(run('json', [], 'a</b></B>')).toBe('"a<\\/b><\\/B>"');
    expect(run('json', [], 'caf\u00e9')).toBe('"caf\u00e9"');
  });
  it('raw is json without the </ escaping', () => {
    expect(run('raw', [], 'abc')).toBe('"abc"');
    expect(run('raw', [], '</x>')).toBe('"</x>"');
  });
  it('json and raw turn missing into empty text and null into null', () => {
    for (const n of ['json', 'raw']) {
      expect(run(n, [], undefined)).toBe('');
      expect(run(n, [], null)).toBe('null');
      expect(run(n, [], false)).toBe('false');
    }
  });
  it('json-pretty uses the reference layout', () => {
    expect(run('json-pretty', [], j('{"a": 3.14159}'))).toBe('{\n  "a": 3.14159\n}');
    expect(run('json-pretty', [], j('{"o":[{"x":1},{"y":[1,2]}],"e":{},"f":[]}'))).toBe(
      '{\n  "o": [ {\n    "x": 1\n  }, {\n    "y": [ 1, 2 ]\n  } ],\n  "e": { },\n  "f": [ ]\n}',
    );
    expect(run('json-pretty', [], '</script>')).toBe('"<\\/script>"');
  });
  it('json fused with htmlattr or htmltag gives what the two give one after the other', () => {
    const json = spec('json');
    for (const next of ['htmlattr', 'htmltag']) {
      const fused = json.fuse!(spec(next))!;
      const check = (v: Value) => expect(fused.apply(v, undefined, new TestPluginContext([{ node: v }]), [])).toBe(run(next, [], run('json', [], v)));
      for (const v of [undefined, null, 'a"b', '</script>', 'a<', '&amp;', '\u0001\n\\', new JDouble(1), NaN, -Infinity, 1e21, 12n]) check(v);
      check(j('{"a\\"<\/":["x</y",1.0,{"<":">"}],"&":null}'));
      fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: fc.constantFrom('<', '/', '"', '&', '>', 'a', '\\', '\n') }), (v, s) => {
        check(parseJson(JSON.stringify(v)));
        check([s, { [s]: s }]);
      }));
    }
    expect(json.fuse!(spec('html'))).toBeUndefined();
  });
  it('json-pretty writes missing as null', () => {
    expect(run('json-pretty', [], undefined)).toBe('null');
    expect(run('json-pretty', [], null)).toBe('null');
    expect(run('json-pretty', [], 7)).toBe('7');
  });
});

describe('key-by', () => {
  it('maps the text at the path to each element, later duplicates winning', () => {
    const out = run('key-by', ['name'], j('[{"name":"Bob","n":1},{"name":"Joe"},{"x":1},{"name":"Bob","n":2}]'));
    expect(out).toEqual({ Bob: { name: 'Bob', n: 2 }, Joe: { name: 'Joe' } });
    expect(Object.keys(out as object)).toEqual(['Bob', 'Joe']);
  });
  it('walks paths through arrays and stringifies numbers', () => {
    expect(run('key-by', ['test.0.deep'], j('[{"test":[{"deep":1.0}]}]'))).toEqual({ '1.0': { test: [{ deep: new JDouble(1) }] } });
  });
  it('keeps a `__proto__` key as a member, not as the prototype', () => {
    const out = run('key-by', ['name'], j('[{"name":"__proto__","n":1},{"name":"a"}]')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBeNull();
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"name":"__proto__","n":1},"a":{"name":"a"}}');
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ name: '__proto__', n: 1 });
  });
  it('gives {} for non-arrays', () => {
    for (const v of [undefined, null, 'x', 3, { a: 1 }]) expect(run('key-by', ['name'], v)).toEqual({});
  });
  it('takes exactly one argument', () => {
    expect(spec('key-by').requiresArgs).toBe(true);
    expect(bindError('key-by', ['a', 'b'])).toBe('Wrong number of args, exactly 1 expected');
  });
});

describe('lookup', () => {
  it('resolves the text of the argument as a variable name', () => {
    const outer: TestFrame[] = [{ node: j('{"var":"foo.bar","foo":{"bar":123},"data":["a","b"],"p":"data.1"}') }];
    expect(run('lookup', ['var'], undefined, outer)).toBe(123);
    expect(run('lookup', ['p'], undefined, outer)).toBe('b');
  });
  it('gives missing when the name or its target is missing or invalid', () => {
    const outer: TestFrame[] = [{ node: j('{"bad":"a..b","none":"zzz"}') }];
    expect(run('lookup', ['nope'], 1, outer)).toBeUndefined();
    expect(run('lookup', ['bad'], 1, outer)).toBeUndefined();
    expect(run('lookup', ['none'], 1, outer)).toBeUndefined();
  });
  it('takes exactly one argument', () => {
    expect(spec('lookup').requiresArgs).toBe(true);
    expect(bindError('lookup', ['a', 'b'])).toBe('Wrong number of args, exactly 1 expected');
  });
});

describe('mod', () => {
  it('takes the truncated remainder, divisor 2 by default or when unparsable', () => {
    expect(run('mod', ['3'], 4)).toBe(1);
    expect(run('mod', ['3'], -5)).toBe(-2);
    expect(run('mod', [], 7)).toBe(1);
    expect(run('mod', ['x'], 7)).toBe(1);
    expect(run('mod', ['3'], '8')).toBe(2);
    expect(Object.is(run('mod', ['2'], -4), 0)).toBe(true);
  });
  it('gives 0 for non-numeric input', () => {
    for (const v of ['abc', undefined, null, {}, []]) expect(run('mod', ['3'], v)).toBe(0);
  });
  it('fails at render time for divisor 0', () => {
    expect(runtimeError(() => run('mod', ['0'], 5))).toEqual({ javaClass: 'ArithmeticException', message: '/ by zero' });
  });
});

describe('output', () => {
  it('joins its arguments with single spaces and ignores the value', () => {
    expect(run('output', ['1', '2', '3'], undefined)).toBe('1 2 3');
    expect(run('output', ['a,,b'], 5)).toBe('a,,b');
    expect(run('output', [], null)).toBe('');
  });
});

describe('pluralize', () => {
  it('picks the singular only when the integer of the value is 1', () => {
    expect(run('pluralize', ['A', 'B'], 1)).toBe('A');
    expect(run('pluralize', ['A', 'B'], 1.5)).toBe('A');
    expect(run('pluralize', ['A', 'B'], '1')).toBe('A');
    expect(run('pluralize', ['A', 'B'], 2)).toBe('B');
    expect(run('pluralize', ['es'], 1)).toBe('');
    expect(run('pluralize', ['es'], 0)).toBe('es');
    expect(run('pluralize', [], -1)).toBe('s');
  });
  it('treats non-numbers as plural', () => {
    for (const v of [undefined, null, 'one', {}, []]) expect(run('pluralize', ['A', 'B'], v)).toBe('B');
  });
  it('takes 0-2 arguments', () => {
    expect(bindError('pluralize', ['a', 'b', 'c'])).toBe('Too many args. Takes between 0 and 2');
  });
});

describe('prop', () => {
  it('walks dotted paths; digit segments index arrays or name members', () => {
    const v = j('{"bar":{"quux":{"baz":"xyz"}},"items":["a","b"],"o":{"0":"zero"}}');
    expect(run('prop', ['bar.quux', 'baz'], v)).toBe('xyz');
    expect(run('prop', ['items.1'], v)).toBe('b');
    expect(run('prop', ['o.0'], v)).toBe('zero');
  });
  it('gives missing when stepping into scalars, null or absent members', () => {
    const v = j('{"s":"x","n":null,"items":["a"]}');
    expect(run('prop', ['s.length'], v)).toBeUndefined();
    expect(run('prop', ['n.a'], v)).toBeUndefined();
    expect(run('prop', ['items.foo'], v)).toBeUndefined();
    expect(run('prop', ['items.5'], v)).toBeUndefined();
    expect(run('prop', ['x'], undefined)).toBeUndefined();
    expect(run('prop', ['constructor'], {})).toBeUndefined();
  });
  it('returns the input without arguments', () => {
    expect(run('prop', [], null)).toBeNull();
  });
});

describe('round', () => {
  it('rounds halves toward positive infinity', () => {
    const ins = [1.44, 1.6, 1.5, -1.5, -1.6, -0.4];
    expect(ins.map((x) => run('round', [], x))).toEqual([1, 2, 2, -1, -2, 0]);
    expect(Object.is(run('round', [], -0.4), 0)).toBe(true);
  });
  it('coerces strings, gives 0 for non-numbers, saturates at the long range', () => {
    expect(run('round', [], ' 2.5 ')).toBe(3);
    for (const v of ['abc', undefined, null, {}]) expect(run('round', [], v)).toBe(0);
    expect(run('round', [], 1e30)).toBe(9223372036854775807n);
    expect(run('round', [], -1e30)).toBe(-9223372036854775808n);
    expect(run('round', [], 2 ** 60)).toBe(2n ** 60n);
  });
});

describe('safe', () => {
  it('removes tags from truthy text, across lines', () => {
    expect(run('safe', [], 'foo <bar> bar')).toBe('foo  bar');
    expect(run('safe', [], 'a<b\nc="d">e</b>f')).toBe('aef');
  });
  it('passes non-truthy values through', () => {
    expect(run('safe', [], false)).toBe(false);
    expect(run('safe', [], undefined)).toBeUndefined();
    expect(run('safe', [], null)).toBeNull();
    expect(run('safe', [], {})).toEqual({});
    expect(run('safe', [], 12)).toBe('12');
  });
  it('removes exactly what the pattern `<[^>]*>` matched, without its rescans', () => {
    // The former pattern, as the oracle on short texts (issue 13: it is quadratic on long ones).
    const text = fc.array(fc.constantFrom('<', '>', 'a', ' ', '\n', '</b>', '<<'), { maxLength: 12 }).map((a) => a.join(''));
    fc.assert(fc.property(text, (s) => s === '' || run('safe', [], s) === s.replace(/<[^>]*>/g, '')), { seed: 13, numRuns: 500 });
    expect(run('safe', [], '<'.repeat(5) + 'a')).toBe('<<<<<a');
    expect(run('safe', [], 'a<b<c>d<e')).toBe('ad<e');
  });
});

describe('slugify', () => {
  it('keeps ASCII letters, digits, hyphens; whitespace runs become one hyphen', () => {
    expect(run('slugify', [], '1.2.3.4.5-()*&-foo.bar-baz')).toBe('12345--foobar-baz');
    expect(run('slugify', [], 'Caf\u00e9 \t Cr\u00e8me  X')).toBe('caf-crme-x');
    expect(run('slugify', [], ' a ')).toBe('-a-');
  });
  it('eats null', () => {
    expect(run('slugify', [], null)).toBe('');
    expect(run('slugify', [], undefined)).toBe('');
    expect(run('slugify', [], true)).toBe('true');
  });
  it('is the reference pattern chain: drop, join whitespace runs, lower-case', () => {
    const text = fc.array(fc.constantFrom('A', 'z', '0', ' ', '\t', '\x0b', '\r', '-', '!', '\u00e9', '\u00a0', '\u212a', '_'), { maxLength: 12 }).map((a) => a.join(''));
    const chain = (s: string) => s.replace(/[^A-Za-z0-9 \t\n\x0B\f\r-]/g, '').replace(/[ \t\n\x0B\f\r]+/g, '-').toLowerCase();
    fc.assert(fc.property(text, (s) => run('slugify', [], s) === chain(s)), { seed: 13, numRuns: 500 });
  });
});

describe('smartypants', () => {
  it('converts quotes and dashes in the reference order', () => {
    expect(run('smartypants', [], `'a' "b" it's -- (‘x’) "'c'"`)).toBe(
      '\u2018a\u2019 \u201cb\u201d it\u2019s \u2014 (\u2018x\u2019) \u201c\u2018c\u2019\u201d',
    );
  });
  it('only treats the start of the whole text as a start', () => {
    expect(run('smartypants', [], `x\n'y'`)).toBe('x\n\u2018y\u2019');
    expect(run('smartypants', [], `x.'y`)).toBe('x.\u2019y');
    expect(run('smartypants', [], `a/"b"`)).toBe('a/\u201cb\u201d');
  });
  // The five steps as five regex passes, in PLUGINS §2's order: what the one pass replaced.
  it('is the five passes of PLUGINS §2 in one, on any text', () => {
    const passes = (s: string) =>
      s
        .replace(/(?<=^|[-\u2014 \t\n\x0B\f\r(\["])'/g, '\u2018')
        .replace(/'/g, '\u2019')
        .replace(/(?<=^|[-\u2014/\[(\u2018 \t\n\x0B\f\r])"/g, '\u201c')
        .replace(/"/g, '\u201d')
        .replace(/--/g, '\u2014');
    const unit = fc.constantFrom("'", '"', '-', '\u2014', '\u2018', '\u2019', ' ', '\n', '\u000b', '\t', '(', '[', '/', '\\', 's', 'a', '.', '\ud800', '\udc00', '\u00a0');
    fc.assert(fc.property(fc.string({ unit, maxLength: 24 }), (s) => run('smartypants', [], s) === passes(s)), { numRuns: 20_000 });
    expect(run('smartypants', [], 'plain text')).toBe('plain text');
    expect(run('smartypants', [], "---'\"")).toBe('\u2014-\u2018\u201c');
  });
  it('eats null and stringifies other values', () => {
    expect(run('smartypants', [], null)).toBe('');
    expect(run('smartypants', [], undefined)).toBe('');
    expect(run('smartypants', [], 5)).toBe('5');
    expect(run('smartypants', [], { a: "'" })).toBe('');
  });
});

describe('str', () => {
  it('gives the Java text form, null and containers empty', () => {
    expect(run('str', [], new JDouble(3))).toBe('3.0');
    expect(run('str', [], new JDouble(1e21))).toBe('1.0E21');
    expect(run('str', [], 1.5e-7)).toBe('1.5E-7');
    expect(run('str', [], 12345678901234567890n)).toBe('12345678901234567890');
    expect(run('str', [], null)).toBe('');
    expect(run('str', [], undefined)).toBe('');
    expect(run('str', [], [1])).toBe('');
    expect(run('str', [], false)).toBe('false');
  });
});

describe('truncate', () => {
  const dickens = 'It was the best of times, it was the worst of times';
  it('cuts after the last whitespace within the limit and appends the ellipsis', () => {
    expect(run('truncate', ['28'], dickens)).toBe('It was the best of times, ...');
    expect(run('truncate', ['28', ' ! ! !'], dickens)).toBe('It was the best of times,  ! ! !');
    expect(run('truncate', ['5'], 'abcdefgh')).toBe('abcde...');
    expect(run('truncate', ['0'], 'ab')).toBe('...');
    expect(run('truncate', ['100'], dickens)).toBe(dickens);
    expect(run('truncate', [], 'x'.repeat(101))).toBe('x'.repeat(100) + '...');
    expect(run('truncate', [], 'x'.repeat(100))).toBe('x'.repeat(100));
  });
  it('stringifies non-text values', () => {
    expect(run('truncate', ['3'], new JDouble(12345))).toBe('123...');
    expect(run('truncate', ['3'], undefined)).toBe('');
    expect(run('truncate', ['4'], null)).toBe('null');
  });
  it('rejects a non-integer length at bind time', () => {
    expect(bindError('truncate', ['abc'])).toBe("bad value for length 'abc'");
    expect(bindError('truncate', ['1.5'])).toBe("bad value for length '1.5'");
    expect(bindError('truncate', ['99999999999'])).toBe("bad value for length '99999999999'");
    expect(bindError('truncate', ['+5'])).toBeNull();
  });
  it('fails at render time for a negative length', () => {
    expect(runtimeError(() => run('truncate', ['-1'], 'hello'))).toEqual({
      javaClass: 'StringIndexOutOfBoundsException',
      message: 'begin 0, end -1, length 5',
    });
  });
});

describe('line-breaks', () => {
  it('replaces every newline with <br/> and nothing else', () => {
    expect(run('line-breaks', [], 'a\nb\n\n<c>')).toBe('a<br/>b<br/><br/><c>');
  });
  it('gives empty text for missing and null', () => {
    expect(run('line-breaks', [], undefined)).toBe('');
    expect(run('line-breaks', [], null)).toBe('');
    expect(run('line-breaks', [], 5)).toBe('5');
  });
});

describe('find-first / find-last', () => {
  const items = j('[{"id":"a","on":false},{"id":"b","on":true},{"id":"c","on":true}]');
  it('without arguments takes the first or last element', () => {
    expect(run('find-first', [], items)).toEqual({ id: 'a', on: false });
    expect(run('find-last', [], items)).toEqual({ id: 'c', on: true });
  });
  it('with a path takes the first or last element whose path is truthy', () => {
    expect(run('find-first', ['on'], items)).toEqual({ id: 'b', on: true });
    expect(run('find-last', ['on'], items)).toEqual({ id: 'c', on: true });
    expect(run('find-first', ['nope'], items)).toBeUndefined();
  });
  it('with a lookup object, tests the path inside the looked-up value', () => {
    const outer: TestFrame[] = [{ node: j('{"stock":{"x":{"n":0},"y":{"n":3},"z":{"n":1}}}') }];
    expect(run('find-first', ['stock', 'n'], j('["x","y","z"]'), outer)).toBe('y');
    expect(run('find-last', ['stock', 'n'], j('["x","y","z"]'), outer)).toBe('z');
    expect(run('find-first', ['nope', 'n'], j('["x"]'), outer)).toBeUndefined();
  });
  it('gives missing for empty arrays and non-arrays', () => {
    for (const n of ['find-first', 'find-last']) {
      for (const v of [[], undefined, null, 'x', { a: 1 }]) expect(run(n, [], v as Value)).toBeUndefined();
    }
  });
  it('takes 0-2 arguments', () => {
    expect(bindError('find-first', ['a', 'b', 'c'])).toBe('Too many args. Takes between 0 and 2');
  });
});

describe('properties', () => {
  // Lone surrogates are excluded where a decoder is the oracle; they are covered above.
  const text = fc.string({ unit: 'grapheme', maxLength: 40 });
  const anyText = fc.string({ unit: 'binary', maxLength: 40 });

  it('encode-uri-component and url-encode round-trip through the platform decoder', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(decodeURIComponent(run('encode-uri-component', [], s) as string)).toBe(s);
        expect(decodeURIComponent((run('url-encode', [], s) as string).replace(/\+/g, ' '))).toBe(s);
        expect(decodeURI(run('encode-uri', [], s) as string)).toBe(decodeURI(encodeURI(s)));
      }),
    );
  });

  it('html escaping leaves no markup characters and unescapes to the input', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const out = run('htmlattr', [], s) as string;
        expect(/[<>"]/.test(out)).toBe(false);
        const back = out.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
        expect(back).toBe(s);
      }),
    );
  });

  it('truncate keeps a prefix of the input within the limit', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 50 }), (s, max) => {
        const out = run('truncate', [String(max), '~'], s) as string;
        if (s.length <= max) expect(out).toBe(s);
        else {
          expect(out.endsWith('~')).toBe(true);
          const kept = out.slice(0, -1);
          expect(s.startsWith(kept)).toBe(true);
          expect(kept.length).toBeLessThanOrEqual(max);
        }
      }),
    );
  });

  it('json output parses back to the same JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (v) => {
        const value = parseJson(JSON.stringify(v));
        const out = run('json', [], value) as string;
        expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(v)));
        expect(out.includes('</')).toBe(false);
        expect(JSON.parse(run('json-pretty', [], value) as string)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultFormatters } from '../formatters/index.ts';
import { defaultPredicates } from '../predicates/index.ts';
import { compile, createRegistry, Engine, listPlugins, render } from './index.ts';
import type { FormatterSpec } from './plugin-api.ts';

describe('public facade', () => {
  it('listPlugins names the 95 formatters and 101 predicates, sorted', () => {
    const { formatters, predicates } = listPlugins();
    expect(formatters).toHaveLength(95);
    expect(predicates).toHaveLength(101);
    expect([...formatters].sort()).toEqual(formatters);
    expect(new Set([...formatters, ...predicates]).size).toBe(196);
    expect(predicates.every((p) => p.endsWith('?'))).toBe(true);
    for (const name of ['apply', 'date', 'money', 'add-to-cart-btn', 'image', 'find-first', 'line-breaks']) expect(formatters).toContain(name);
    for (const name of ['equal?', 'sold-out?', 'units-metric?', 'current-type?']) expect(predicates).toContain(name);
  });

  it('render caches compiled templates; compile() does not share them', () => {
    const src = '{.eval (}{a}';
    const first = render(src, { a: 1 });
    const second = render(src, { a: 2 });
    // The expression's parse errors are reported once per compiled template (§4.10).
    expect(first.errors.map((e) => e.code)).toEqual(['EXPRESSION_PARSE']);
    expect(second.errors).toEqual([]);
    expect(second.html).toBe('2');
    const fresh = compile(src).render({ a: 3 });
    expect([fresh.html, fresh.errors.map((e) => e.code)]).toEqual(['3', ['EXPRESSION_PARSE']]);
  });

  it("render's cache keys a text by its content and its options, and holds at most 512 templates", () => {
    const engine = new Engine(createRegistry(defaultFormatters, defaultPredicates));
    let compiles = 0;
    const compileOnce = engine.compile.bind(engine);
    engine.compile = (text, options) => (compiles++, compileOnce(text, options));
    const text = '{a}-' + 'x'.repeat(40);
    const t = engine.cached(text);
    expect(engine.cached(['{a}-', 'x'.repeat(40)].join(''))).toBe(t);
    expect(engine.cached(text, { mode: 'safe', preprocess: false, limits: undefined })).toBe(t);
    const strict = engine.cached(text, { mode: 'strict' });
    expect(strict).not.toBe(t);
    expect(engine.cached(text, { limits: { maxOutputLength: 100 } })).toBe(engine.cached(text, { limits: { maxOutputLength: 100 } }));
    expect(engine.cached(text, { preprocess: true })).not.toBe(t);
    expect(compiles).toBe(4);
    expect(engine.render(text, { a: 1 }).html).toBe('1-' + 'x'.repeat(40));
    expect(engine.render(text, { a: 2 }, { mode: 'strict' }).html).toBe('2-' + 'x'.repeat(40));
    expect(compiles).toBe(4);

    // 600 other texts: the least recently used go first, whole (`other`'s three forms first).
    for (const mode of ['safe', 'strict', undefined] as const) engine.cached('{other}', { mode, preprocess: mode === undefined });
    compiles -= 3;
    for (let i = 0; i < 600; i++) {
      engine.cached(`{b}${i}`);
      if (i % 100 === 0) expect(engine.cached(text)).toBe(t); // kept in use
    }
    expect(compiles).toBe(604);
    expect(engine.cached(text)).toBe(t);
    expect(engine.cached(text, { mode: 'strict' })).toBe(strict);
    engine.cached('{b}92'); // 4 + 3 + 600 forms made, 512 kept: `other` and {b}0 … {b}91 let go
    expect(compiles).toBe(604);
    engine.cached('{b}91');
    expect(compiles).toBe(605);

    // One text's forms count too: 600 different limits keep the cache bounded.
    for (let i = 0; i < 600; i++) engine.cached(text, { limits: { maxOutputLength: 1000 + i } });
    expect(compiles).toBe(1205);
    engine.cached(text, { limits: { maxOutputLength: 1599 } });
    expect(compiles).toBe(1205);
    engine.cached(text, { limits: { maxOutputLength: 1000 } });
    expect(compiles).toBe(1206);
    expect(engine.cached(text)).not.toBe(t);
  });

  it('plugins are bound at compile time and never looked up by name while rendering', () => {
    let lookups = 0;
    const counted = <T>(m: Map<string, T>) =>
      new Proxy(m, {
        get(target, prop) {
          if (prop === 'get') return (k: string) => (lookups++, target.get(k));
          const v = Reflect.get(target, prop, target);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    const registry = createRegistry(defaultFormatters, defaultPredicates);
    const engine = new Engine({ ...registry, formatters: counted(registry.formatters as Map<string, FormatterSpec>), predicates: counted(registry.predicates as never) });
    const t = engine.compile('{.repeated section xs}{@|html|json}{.equal? @ 1}one{.or odd?}odd{.end}{.alternates with},{.end}');
    expect(lookups).toBeGreaterThan(0);
    lookups = 0;
    expect(t.render({ xs: [1, 2, 3] }).html).toBe('"1"one,"2","3"odd');
    expect(lookups).toBe(0);
  });

  it('fused formatter pairs replace the pair only, and the budget counts the chain as written', () => {
    const calls: string[] = [];
    const tag = (name: string, fuse?: FormatterSpec['fuse']): FormatterSpec => ({ name, fuse, apply: (v) => (calls.push(name), `${name}(${v})`) });
    const b = tag('b');
    const ab = tag('ab');
    const a = tag('a', (next) => (next === b ? ab : undefined));
    const withArgs: FormatterSpec = { name: 'w', bind: (args) => args, apply: (v) => `w(${v})` };
    const engine = new Engine(createRegistry([a, b, ab, withArgs, tag('c', (next) => (next === withArgs ? ab : undefined))], []));
    expect(engine.render('{x|a|b|a|b|b}{x|b|a}{.var @v x|c|a|b}{@v}{x|c|w}', { x: 1 }).html).toBe('b(ab(ab(1)))a(b(1))ab(c(1))w(c(1))');
    expect(calls).toEqual(['ab', 'ab', 'b', 'b', 'a', 'c', 'ab', 'c']);
    expect(engine.render('{x|a|b}', { x: 1 }, { limits: { maxInstructions: 2 } }).errors.map((e) => e.code)).toEqual(['LIMIT_INSTRUCTIONS']);
    expect(engine.render('{x|a|b}', { x: 1 }, { limits: { maxInstructions: 3 } }).html).toBe('ab(1)');
  });

  it('an `.eval` prints the same on every render: interpreted on the first, by compiled steps after', () => {
    // `!` leaves the object `@obj` in place; the assignment ends the sub-expression, and the
    // `@obj` below it is then 5 (the steps once read the unary's empty result and failed).
    const t = compile('{.var @obj o}{.eval (!@obj) @obj = 5}|{.eval !@obj}|{.eval (-@obj) @obj = a; @obj}');
    const data = { o: { k: 1 }, a: 7 };
    const first = t.render(data);
    expect(first.html).toBe('5|false|7');
    expect(first.errors).toEqual([]);
    for (let i = 0; i < 2; i++) expect(t.render(data)).toEqual(first);
  });

  it('a plugin that throws is an UNEXPECTED_ERROR, in safe mode the instruction prints nothing', () => {
    const boom: FormatterSpec = {
      name: 'boom',
      apply() {
        throw new TypeError('cannot read x');
      },
    };
    const engine = new Engine(createRegistry([boom], []));
    const r = engine.render('a{x|boom}b', {});
    expect(r.html).toBe('ab');
    expect(r.errors[0].message).toBe('Unexpected NullPointerException when executing {x|boom}: cannot read x');
    expect(engine.render('a{x|boom}b', {}, { mode: 'strict' }).html).toBe('');
  });
});

describe('tags read in place, and sources with characters beyond Latin-1', () => {
  type Row = (string | number | null | Row)[];
  const spans = (n: { span?: { start: number; end: number } }, shift: number): Row => (n.span ? [n.span.start - shift, n.span.end - shift] : []);
  // Literal text is left out: a prefix joins the text that follows it.
  const walk = (body: readonly unknown[], shift: number): Row =>
    body
      .filter((x) => (x as { kind: string }).kind !== 'text')
      .map((x) => {
        const n = x as Record<string, unknown> & { span?: { start: number; end: number } };
        const row: Row = [n.kind as string, ...spans(n, shift)];
        if (n.kind === 'variable') {
          row.push((n.refs as { text: string }[]).map((r) => r.text));
          row.push((n.formatters as { name: string; raw: string; span: { start: number; end: number } }[]).map((f) => [f.name, f.raw, ...spans(f, shift)]));
        }
        if (n.kind === 'section' || n.kind === 'repeated') row.push((n.ref as { text: string }).text);
        if (n.kind === 'eval') row.push(n.gap as string, n.expression as string);
        if (Array.isArray(n.body)) row.push(walk(n.body, shift));
        if (n.alt) row.push(walk([n.alt], shift));
        return row;
      });
  /** A template's nodes and diagnostics, offsets less `shift`, positions left out of the messages. */
  const parsed = (text: string, shift = 0) => {
    const t = compile(text);
    return { ast: t.ast === null ? null : walk(t.ast.body, shift), errors: t.diagnostics.map((d) => [d.code, d.message.replace(/char \d+/g, ''), d.span.start - shift, d.span.end - shift]) };
  };

  // A variable tag is read in place (parser.ts, `inPlace`): from the source when it holds nothing
  // beyond Latin-1, from its one-byte image when the tag lies in one of its runs, and from a
  // slice of its own past 16 runs. All three give the same nodes, spans and diagnostics.
  it('parse variable tags alike whichever text they are read from', () => {
    const tag = fc.constantFrom(
      '{a}', '{a.b.0}', '{a, b}', '{a , b|html}', '{a,}', '{a|html|truncate 5}', '{a|pluralize x y}', '{a|nosuch}', '{a|}',
      '{a|truncate}', '{a||b}', '{a|b', '{ a}', '{a |html}', '{a.}', '{@|json}', '{$x|date %Y}', '{a|slugify |html}', '{a|truncate 3 é}',
      // Characters beyond Latin-1 in a tag: `š` comes out of the image as `a`.
      '{a|truncate 3 —}', '{š|html}', '{a|pluralize š x}',
      // `.eval` is read in place too (`commonBlockTag`).
      '{.eval 1 + x}', "{.eval 'a—' + x}",
    );
    const piece = fc.oneof(tag, fc.constantFrom('x', ' ', 'é', '|', '{.section a}', '{.end}'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }).map((p) => p.join('')), (text) => {
        const plain = parsed(text, 0);
        expect(parsed('—' + text, 1)).toEqual(plain);
        // 17 runs beyond Latin-1 before it: slices are cut from the text, not the image.
        expect(parsed(' —'.repeat(17) + text, 34)).toEqual(plain);
      }),
      { numRuns: 500 },
    );
  });

  // `.end`, `.or`, `.section NAME`, `.repeated section NAME` and `.eval EXPR` written with one
  // space are read by a short path (parser.ts, `commonBlockTag`); with a tab for that space they
  // are read by `keyword`, which must give the same nodes, spans and diagnostics (but for an
  // eval's gap, which is the whitespace as written).
  it('parse the plain block tags as their other spellings', () => {
    const piece = fc.constantFrom(
      '{.section a}', '{.section a.b.0}', '{.section @}', '{.section 0}', '{.section a }', '{.section a|b}', '{.section a.}', '{.section é}',
      '{.repeated section a}', '{.repeated section @}', '{.repeated section a b}', '{.end}', '{.or}', '{.or x?}', '{.end }', 'x', '{a}',
      '{.eval 1+2}', '{.eval a.b * -2}', '{.eval @x = 3; @x}', '{.eval  1}', '{.eval }', '{.eval}', '{.evalx 1}', '{.eval (}', '{.eval é}',
    );
    const tabbed = (row: unknown): unknown =>
      Array.isArray(row) ? (row[0] === 'eval' ? [...row.slice(0, 3), (row[3] as string).replace(/^\t/, ' '), ...row.slice(4)] : row.map(tabbed)) : row;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }).map((p) => p.join('')), (text) => {
        const other = parsed(text.replace(/section /g, 'section\t').replace(/eval /g, 'eval\t'));
        expect({ ast: tabbed(other.ast), errors: other.errors }).toEqual(parsed(text));
      }),
      { numRuns: 500 },
    );
    // `.end` and `.or` have no other spelling: anything after them is what `keyword` reports.
    const codes = (t: string) => compile(t).diagnostics.map((d) => d.code);
    expect(codes('{.section a}{.end }')).toEqual(['EXTRA_CHARS', 'EOF_IN_BLOCK']);
    expect(codes('{.section a}{.endx}{.end}')).toEqual(['INVALID_INSTRUCTION']);
    expect(codes('{.section a}{.or }{.end}')).toEqual(['OR_EXPECTED_PREDICATE']);
    expect(codes('{.section a}{.orx}{.end}')).toEqual(['INVALID_INSTRUCTION']);
  });

  it('read a tag holding a character beyond Latin-1 from the text, not the image', () => {
    // In the one-byte image `š` (U+0161) is `a`: read from it, `{š|html}` would be a variable.
    expect(compile('{š|html}').ast?.body.map((n) => n.kind)).toEqual(['text']);
    expect(render('—{a|html}{š|html}', { a: 1 }).html).toBe('—1{š|html}');
    expect(render(' —'.repeat(17) + '{a}{š}', { a: 1 }).html).toBe(' —'.repeat(17) + '1{š}');
  });

  it('render the same text whichever runs are copied one-byte', () => {
    // Text, tags, formatter arguments and tag-like text between `—`, `😀` and `日本`, up to and
    // past the number of runs that are copied.
    const unit = fc.constantFrom('a', ' ', '—', '😀', '日本', '{v}', '{v|pluralize one many}', '{.section s}[{@}]{.end}', '{x', '}', 'é', '{# c}');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), (pieces) => {
        const source = pieces.join('');
        const expected = pieces
          .map((p) => (p === '{v}' ? '2' : p === '{v|pluralize one many}' ? 'many' : p === '{.section s}[{@}]{.end}' ? '[ß]' : p === '{# c}' ? '' : p))
          .join('');
        // `{x` followed by `}` pieces later can form a tag of its own: only compare sources without that.
        fc.pre(!/\{x[^{]*\}/.test(source));
        expect(render(source, { v: 2, s: 'ß' }).html).toBe(expected);
      }),
    );
  });
});

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

describe('sources with characters beyond Latin-1', () => {
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

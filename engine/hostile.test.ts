// Hostile templates: each must come back with a diagnostic, never a throw, a hang or a crash.
// The per-test timeout is a hang guard, not a speed target (speed is measured in bench/).
import { describe, expect, it } from 'vitest';
import { compile, render } from './index.ts';

const GUARD = 60_000;

describe('hostile input', () => {
  it('a 200,000-token expression hits the token limit', () => {
    const r = render('{.eval ' + '1+'.repeat(100_000) + '1}', {});
    expect(r.errors.map((e) => e.code)).toEqual(['EXPRESSION_PARSE']);
    expect(r.errors[0].message).toMatch(/maximum number of allowed tokens/);
  }, GUARD);

  it('a string doubled 40 times hits the string length limit', () => {
    const src = '{.eval @s = "ab"}' + '{.eval @s = @s + @s}'.repeat(40) + '{@s|count}';
    const r = render(src, {});
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors.every((e) => /maximum string length/.test(e.message))).toBe(true);
  }, GUARD);

  it('self-recursive macros stop at depth 16', () => {
    const r = render('{.macro m}x{@|apply m}{.end}{@|apply m}', {});
    expect(r.html).toBe('x'.repeat(16));
    expect(r.errors.map((e) => e.code)).toEqual(['APPLY_PARTIAL_RECURSION_DEPTH']);
  }, GUARD);

  it('mutually recursive partials with fan-out hit the instruction budget', () => {
    const partials = { a: '{@|apply b}'.repeat(4), b: '{@|apply a}'.repeat(4) };
    const r = render('{@|apply a}', {}, { partials });
    const codes = new Set(r.errors.map((e) => e.code));
    expect(codes.has('APPLY_PARTIAL_RECURSION_DEPTH') || codes.has('LIMIT_INSTRUCTIONS')).toBe(true);
  }, GUARD);

  it('mutually recursive macros with fan-out hit the instruction budget', () => {
    const r = render('{.macro m}' + '{@|apply n}'.repeat(8) + '{.end}{.macro n}' + '{@|apply m}'.repeat(8) + '{.end}{@|apply m}', {});
    expect(r.errors.map((e) => e.code)).toContain('LIMIT_INSTRUCTIONS');
  }, GUARD);

  it('a section with 100,000 .or branches takes the first that holds, without running out of stack', () => {
    const branches = '{.or equal? 1 2}no'.repeat(100_000);
    const hit = render(`{.section a}${branches}{.or equal? 1 1}hit{.or}z{.end}`, {});
    expect(hit).toMatchObject({ html: 'hit', errors: [] });
    expect(render(`{.section a}${branches}{.or}z{.end}`, {})).toMatchObject({ html: 'z', errors: [] });
    expect(render(`{.section a}a{${branches.slice(1)}{.end}`, { a: 1 })).toMatchObject({ html: 'a', errors: [] });
    // Short and long chains agree, branch by branch (OR_LOOP_MIN is 16).
    for (const n of [1, 15, 16, 17, 40]) {
      for (const at of [0, n - 1, n]) {
        const chain = Array.from({ length: n }, (_, i) => `{.or equal? ${i} ${at}}b${i}`).join('');
        expect(render(`{.section a}${chain}{.or}none{.end}`, {}).html, `${n} ${at}`).toBe(at < n ? `b${at}` : 'none');
      }
    }
  }, GUARD);

  it('4,000-deep nesting is LIMIT_NESTING', () => {
    for (const open of ['{.section a}', '{.if a}', '{.repeated section a}', '{.equal? a 1}', '{.macro m}']) {
      const r = render(open.repeat(4000) + 'x' + '{.end}'.repeat(4000), {});
      expect(r.errors.map((e) => e.code)).toEqual(['LIMIT_NESTING']);
    }
  }, GUARD);

  it('20,000 junk characters render as text', () => {
    let s = '';
    const pool = '{}.|@#^$,=?!&\n\t"\'\\ab1';
    let seed = 7;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      s += pool[seed % pool.length];
    }
    expect(() => render(s, { a: 1 })).not.toThrow();
    expect(() => compile(s, { mode: 'strict' })).not.toThrow();
  }, GUARD);

  it('50,000 unmatched braces are literal text', () => {
    expect(render('{'.repeat(50_000), {}).html).toHaveLength(50_000);
    expect(render('}'.repeat(50_000), {}).html).toHaveLength(50_000);
    expect(render('{.section a}'.repeat(100) + '{'.repeat(50_000), {}).errors[0].code).toBe('EOF_IN_BLOCK');
  }, GUARD);

  it('an unclosed section reports its line and column', () => {
    const r = render('hello\n\n   {.section a}\nbody', { a: 1 });
    expect(r.errors).toHaveLength(1);
    const e = r.errors[0];
    expect(e.code).toBe('EOF_IN_BLOCK');
    expect(e.message).toBe('Reached EOF in the middle of {.section a} started at line 3 char 4');
    expect([e.line, e.column]).toEqual([4, 5]);
  }, GUARD);

  it('data lookups never reach inherited properties', () => {
    const r = render('[{constructor}][{toString}][{a.constructor.name}][{a.hasOwnProperty}][{b.length}][{valueOf|json}]', { a: {}, b: [1] });
    expect(r.html).toBe('[][][][][][]');
    // `__proto__` is not a WORD, so it can never be a reference at all.
    expect(render('{__proto__}', {}).html).toBe('{__proto__}');
    expect(render('{.section constructor}x{.or}none{.end}', {}).html).toBe('none');
    expect(render('{a|json}', JSON.parse('{"a": {"__proto__": {"x": 1}}}')).html).toBe('{"__proto__":{"x":1}}');
  });

  it('deeply nested data does not crash the json formatter', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const r = render('{a|json}', { a: deep });
    expect(r.errors.length).toBeGreaterThan(0);
  }, GUARD);
});

import { describe, expect, it } from 'vitest';
import { compile, DEFAULT_LIMITS, render } from './index.ts';
import { TEXT_PER_STEP } from './plugin-api.ts';
import { LONG_TEXT, OUTPUT_CHUNK } from './runtime.ts';
import { CLOCK_STEPS } from './limits.ts';
import { JDouble, JSON_PIECE, JSON_WHOLE, parseJson, PIECE_PART, toJson } from './value.ts';

const codes = (r: { errors: { code: string }[] }) => r.errors.map((e) => e.code);

describe('limits', () => {
  it('every default is finite', () => {
    for (const [name, value] of Object.entries(DEFAULT_LIMITS)) {
      expect(Number.isFinite(value), name).toBe(true);
      expect(value, name).toBeGreaterThan(0);
    }
  });

  it('maxSourceLength: LIMIT_SOURCE_LENGTH, nothing renders', () => {
    const t = compile('x'.repeat(101), { limits: { maxSourceLength: 100 } });
    expect(t.ok).toBe(false);
    expect(t.diagnostics.map((d) => d.code)).toEqual(['LIMIT_SOURCE_LENGTH']);
    expect(t.diagnostics[0].limit).toBe('maxSourceLength');
    expect(compile('x'.repeat(100), { limits: { maxSourceLength: 100 } }).ok).toBe(true);
  });

  it('maxNesting: LIMIT_NESTING at the first block too deep', () => {
    const src = '{.section a}'.repeat(5) + '{.end}'.repeat(5);
    const t = compile(src, { limits: { maxNesting: 4 } });
    expect(t.ok).toBe(false);
    expect(t.diagnostics[0].code).toBe('LIMIT_NESTING');
    expect(t.diagnostics[0].column).toBe(4 * 12 + 1);
    expect(compile(src, { limits: { maxNesting: 5 } }).ok).toBe(true);
  });

  it('maxExpressionTokens: the reference token-limit message', () => {
    const limits = { maxExpressionTokens: 10 };
    expect(render('{.eval 1 + 3 + 5 + 7 + 9}', {}, { limits }).html).toBe('25');
    const r = render('{.eval 1 + 3 + 5 + 7 + 9 + 11}', {}, { limits });
    expect(r.html).toBe('');
    expect(r.errors[0].message).toBe('Error parsing expression: Expression exceeds the maximum number of allowed tokens: 10');
  });

  it('maxStringLength: concatenation past the limit is a reduce error', () => {
    const limits = { maxStringLength: 10 };
    expect(render('{.eval "123456789" + "a"}', {}, { limits }).html).toBe('123456789a');
    const r = render('{.eval "123456789" + "ab"}', {}, { limits });
    expect(r.errors[0].message).toBe('Error reducing expression: Concatenation would exceed maximum string length 10');
  });

  it('maxPartialDepth: the reference recursion message at the configured depth', () => {
    const src = '{.macro m}x{@|apply m}{.end}{@|apply m}';
    const r = render(src, {}, { limits: { maxPartialDepth: 3 } });
    expect(r.html).toBe('xxx');
    expect(r.errors.map((e) => e.message)).toEqual(['Recursion through partial m exceeded maximum depth of 3']);
    expect(render(src, {}).html).toBe('x'.repeat(16));
  });

  it('maxOutputLength: LIMIT_OUTPUT stops rendering', () => {
    const r = render('{.repeated section xs}0123456789{.end}', { xs: new Array(20).fill(1) }, { limits: { maxOutputLength: 100 } });
    expect(codes(r)).toEqual(['LIMIT_OUTPUT']);
    expect(r.html).toBe('');
    expect(render('{.repeated section xs}0123456789{.end}', { xs: new Array(10).fill(1) }, { limits: { maxOutputLength: 100 } }).html).toHaveLength(100);
  });

  it('LIMIT_OUTPUT points at the variable whose text went over, short or long, alone or in a run', () => {
    const at = (src: string, s: string) => {
      const r = render(src, { xs: new Array(50).fill(1), s }, { limits: { maxOutputLength: 1000 } });
      expect(codes(r)).toEqual(['LIMIT_OUTPUT']);
      return `${r.errors[0].line}:${r.errors[0].column}`;
    };
    for (const s of ['y'.repeat(40), 'y'.repeat(LONG_TEXT)]) {
      expect(at('x\n{.repeated section xs}\n  {s}{.end}', s), `${s.length}`).toBe('3:3');
      expect(at('x\n{.repeated section xs}{s}{.end}', s), `${s.length}`).toBe('2:23');
      expect(at('x\n{.repeated section xs}<b>{s}</b> {s}!{.end}', s), `${s.length}`).toMatch(/^2:(26|34)$/);
    }
  });

  it('maxOutputLength bounds a text kept in a variable: a partial that doubles one ends with LIMIT_OUTPUT', () => {
    // Each level of the partial wraps @v in quotes and doubles its backslashes, so the text
    // grows without printing anything; unbounded, a 499-character template of this kind (the
    // fuzz, seed 9191) ran the process out of memory.
    const p = '{.var @v @v|raw}{.var @v @v|raw}{.include p}';
    const r = render('{.var @v a}' + p, { a: 'x' }, { partials: { p }, limits: { maxOutputLength: 5000, maxPartialDepth: 16 } });
    expect(codes(r)).toEqual(['LIMIT_OUTPUT']);
    // Within the limit a variable holds what it is given.
    expect(render('{.var @v a}{.var @v @v|raw}{@v}', { a: 'x' }, { limits: { maxOutputLength: 5 } }).html).toBe('"x"');
    expect(codes(render('{.var @v a}{.var @v @v|raw}', { a: 'xyzw' }, { limits: { maxOutputLength: 5 } }))).toEqual(['LIMIT_OUTPUT']);
  });

  it('maxTextMade: LIMIT_TEXT when the text made but not printed passes the limit, counted exactly', () => {
    const limits = (maxTextMade: number) => ({ limits: { maxTextMade } });
    const xs = (n: number) => ({ a: 'abcd', xs: new Array(n).fill(0) });
    // A value kept in a variable: `"abcd"`, 6 characters an item.
    const kept = '{.repeated section xs}{.var @y a|raw}{.end}done';
    expect(render(kept, xs(5), limits(30)).html).toBe('done');
    expect(codes(render(kept, xs(5), limits(29)))).toEqual(['LIMIT_TEXT']);
    expect(render(kept, xs(5), limits(29)).errors[0].limit).toBe('maxTextMade');
    // A result passed on to the next formatter counts; the last one, printed, does not.
    const passed = '{.repeated section xs}{a|raw|truncate 2}{.end}';
    expect(render(passed, xs(5), limits(30)).html).toBe('"a...'.repeat(5));
    expect(codes(render(passed, xs(5), limits(29)))).toEqual(['LIMIT_TEXT']);
    expect(codes(render('{.repeated section xs}{a|raw}{.end}', xs(5), limits(1)))).toEqual([]);
    const inRun = '{.repeated section xs}<{a|html|truncate 2}>{.end}';
    expect(render(inRun, xs(5), limits(20)).html).toBe('<ab...>'.repeat(5));
    expect(codes(render(inRun, xs(5), limits(19)))).toEqual(['LIMIT_TEXT']);
    // The same where the last formatter writes its text in pieces (`raw`), outside a run.
    const pieces = '{.repeated section xs}{a|raw|raw}{.end}';
    expect(codes(render(pieces, xs(5), limits(30)))).toEqual([]);
    expect(codes(render(pieces, xs(5), limits(29)))).toEqual(['LIMIT_TEXT']);
    // `apply` passed on counts its captured text once; a partial included without `output` counts its text.
    const applied = '{.macro m}<{a}>{.end}{.repeated section xs}{@|apply m|truncate 1}{.end}';
    expect(codes(render(applied, xs(5), limits(30)))).toEqual([]);
    expect(codes(render(applied, xs(5), limits(29)))).toEqual(['LIMIT_TEXT']);
    const included = '{.repeated section xs}{.include p}{.end}';
    expect(codes(render(included, xs(5), { partials: { p: '<{a}>' }, ...limits(30) }))).toEqual([]);
    expect(codes(render(included, xs(5), { partials: { p: '<{a}>' }, ...limits(29) }))).toEqual(['LIMIT_TEXT']);
  });

  it('maxTextMade bounds the work of re-making a long text for every item, which no other limit does', () => {
    // Each `.var` below is within the output limit, and the instructions are few; unbounded,
    // a 16 Mi text written again for each of 1,000 items was a render of minutes.
    const grow = '{.var @v a}' + '{.var @v @v|raw}'.repeat(10);
    const src = grow + '{.repeated section xs}{.var @y @v|raw}{.end}';
    const data = { a: 'x', xs: new Array(1000).fill(0) };
    // `@v|raw` is about twice as long as `@v`: ~2,000 times `@v` made by the loop.
    const v = render(grow + '{@v}', data).html.length;
    expect(codes(render(src, data, { limits: { maxTextMade: 100 * v } }))).toEqual(['LIMIT_TEXT']);
    expect(codes(render(src, data, { limits: { maxTextMade: 2100 * v } }))).toEqual([]);
  });

  it('maxOutputLength counts the whole output across its chunks, and each captured text alone', () => {
    const src = '{.repeated section xs}0123456789{.end}';
    // Past several chunk boundaries, the limit still falls on the same character.
    const n = Math.ceil((3 * OUTPUT_CHUNK) / 10);
    const limit = n * 10;
    expect(render(src, { xs: new Array(n).fill(1) }, { limits: { maxOutputLength: limit } }).html).toHaveLength(limit);
    expect(codes(render(src, { xs: new Array(n + 1).fill(1) }, { limits: { maxOutputLength: limit } }))).toEqual(['LIMIT_OUTPUT']);
    expect(codes(render(src, { xs: new Array(n + 1).fill(1) }, { limits: { maxOutputLength: limit + 9 } }))).toEqual(['LIMIT_OUTPUT']);
    // A partial's text is measured on its own, as before chunks (§6.2): twice 60% of the limit passes.
    const big = Math.ceil((0.6 * limit) / 10);
    const twice = render('{.macro m}' + src + '{.end}{@|apply m}{@|apply m}', { xs: new Array(big).fill(1) }, { limits: { maxOutputLength: 2 * big * 10 } });
    expect(codes(twice)).toEqual([]);
    expect(twice.html).toHaveLength(2 * big * 10);
  });

  it('parts: the output in order, each chunk about OUTPUT_CHUNK characters, a partial applied to the page chunked as the page', () => {
    const data = { xs: Array.from({ length: 2000 }, (_, i) => 'item ' + i + (i === 1500 ? ' — ' : '')) };
    const list = '{.repeated section xs}<li>{@}</li>{.end}';
    const html = render(list, data).html;
    for (const src of [list, '{.macro m}' + list + '{.end}{@|apply m}', '{.macro m}' + list + '{.end}<ul>{@|apply m}</ul>']) {
      const r = render(src, data);
      expect(r.parts.join('')).toBe(r.html);
      expect(r.html.replace(/^<ul>|<\/ul>$/g, '')).toBe(html);
      expect(r.parts.length, src).toBeGreaterThan(5);
      for (const p of r.parts.slice(1, -1)) expect(p.length, src).toBeGreaterThan(OUTPUT_CHUNK);
    }
    // A captured text that goes on through a formatter, or into a variable, stays one text.
    expect(render('{.macro m}' + list + '{.end}{@|apply m|str}', data).parts).toHaveLength(1);
    expect(render('{.macro m}' + list + '{.end}{.var @x @|apply m}{@x}', data).parts).toHaveLength(1);
    // Inside another capture, a partial's text is not chunked.
    expect(render('{.macro m}' + list + '{.end}{.macro outer}<div>{@|apply m}</div>{.end}{@|apply outer|str}', data).parts).toHaveLength(1);
    expect(render('', {}).parts).toEqual(['']);
    expect(compile('{.section a}', { mode: 'strict' }).render({}).parts).toEqual([]);
  });

  it('parts: a text of LONG_TEXT characters or more is a part of its own, as it is', () => {
    const body = 'x'.repeat(LONG_TEXT) + ' \u2014 naïve';
    const fixed = 's'.repeat(LONG_TEXT + 10);
    const data = { title: 'T', body, n: 3, s: { body } };
    const cases: [string, string][] = [
      ['<div>{title}</div>{body}<p>{n}</p>', body], // in a run
      ['<div>{title|html}</div>{body|safe}<p>{n}</p>', body], // from a pure formatter, in a run
      ['{.section s}<article>{body}</article>{.end}', body],
      ['<h1>{title}</h1>{body, n}', body], // a variable of two references
      ['<h1>{title}</h1>' + fixed + '{n}', '</h1>' + fixed], // the template's own text
      [fixed, fixed],
    ];
    for (const [src, whole] of cases) {
      const r = render(src, data);
      expect(codes(r), src).toEqual([]);
      expect(r.parts.join(''), src).toBe(r.html);
      expect(r.parts, src).toContain(whole);
    }
    // Captured, it stays in the captured text; the output limit still counts it.
    expect(render('{.macro m}<div>{body}</div>{.end}{@|apply m|str}', data).parts).toHaveLength(1);
    expect(render('{.macro m}<div>{body}</div>{.end}{@|apply m}', data).parts).toContain(body);
    expect(codes(render('<div>{title}</div>{body}', data, { limits: { maxOutputLength: body.length } }))).toEqual(['LIMIT_OUTPUT']);
    expect(render('<div>{title}</div>{body}', data, { limits: { maxOutputLength: body.length + 12 } }).html).toBe('<div>T</div>' + body);
    // Shorter texts join the chunk being written.
    expect(render('<div>{title}</div>{body}', { title: 'T', body: 'y'.repeat(LONG_TEXT - 1) }).parts).toHaveLength(1);
  });

  it('parts: a long json, raw or json-pretty text is appended in pieces, not as one part', () => {
    const o = { items: Array.from({ length: 6000 }, (_, i) => ({ id: i, title: 'Item ' + i + (i === 7 ? ' — </script>' : ''), price: new JDouble(i), tags: ['a', 'b'] })) };
    const longest = (parts: readonly string[]) => Math.max(...parts.map((p) => p.length));
    for (const src of ['{o|json}', '<script>var o = {o|json};</script>', '{o|raw}', '<div data-o="{o|json|htmlattr}"></div>', '{o|json-pretty}']) {
      const r = render(src, { o });
      const whole = render('{.macro m}' + src + '{.end}{@|apply m|str}', { o });
      expect(whole.parts, src).toHaveLength(1);
      expect(r.html, src).toBe(whole.html);
      expect(r.parts.join(''), src).toBe(r.html);
      expect(r.html.length, src).toBeGreaterThan(100_000);
      expect(longest(r.parts), src).toBeLessThanOrEqual(OUTPUT_CHUNK + JSON_PIECE + 1024);
    }
    expect(render('{o|json}', { o }).html).toBe(toJson(o).replaceAll('</', '<\\/'));
    // The output limit still falls on the whole text, whichever piece crosses it.
    const n = toJson(o).length;
    expect(codes(render('{o|raw}', { o }, { limits: { maxOutputLength: n } }))).toEqual([]);
    expect(codes(render('{o|raw}', { o }, { limits: { maxOutputLength: n - 1 } }))).toEqual(['LIMIT_OUTPUT']);
    expect(codes(render('{o|raw}', { o }, { limits: { maxOutputLength: 3 * JSON_PIECE } }))).toEqual(['LIMIT_OUTPUT']);
  });

  it('parts: json of parsed data with `</` in it keeps each long stretch between two of them as a part of its own', () => {
    const body = '<p>' + 'x'.repeat(3000) + '</p>';
    for (const n of [1, 2, 40]) {
      const text = JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ id: i, title: 'Jar — ' + i, body })) });
      const r = render('<script>var o = {o|json};</script>', { o: parseJson(text) });
      expect(r.html).toBe('<script>var o = ' + text.replaceAll('</', '<\\/') + ';</script>');
      expect(r.parts.join('')).toBe(r.html);
      // A stretch ends with the `<` of a `</` and the next starts with its `/`.
      const stretches = text.split('</').map((t, i, all) => (i > 0 ? '/' : '') + t + (i < all.length - 1 ? '<' : ''));
      const long = stretches.filter((t) => t.length >= PIECE_PART);
      expect(long.length).toBeGreaterThanOrEqual(n);
      // A text longer than JSON_WHOLE is cut into pieces first, each cut through one stretch.
      const cut = text.length > JSON_WHOLE ? Math.ceil(text.length / JSON_PIECE) : 0;
      expect(long.filter((t) => r.parts.includes(t)).length).toBeGreaterThanOrEqual(long.length - cut);
    }
    // A text with no `</` is one piece, a part of its own from PIECE_PART characters.
    const plain = JSON.stringify({ body: 'x'.repeat(PIECE_PART) });
    expect(render('<script>var o = {o|json};</script>', { o: parseJson(plain) }).parts).toContain(plain);
  });

  it('maxInstructions: LIMIT_INSTRUCTIONS stops a runaway render', () => {
    const fanOut = '{.macro m}' + '{@|apply m}'.repeat(8) + '{.end}{@|apply m}';
    const r = render(fanOut, {}, { limits: { maxInstructions: 10_000 } });
    expect(codes(r)).toContain('LIMIT_INSTRUCTIONS');
    expect(r.html).toBe('');
    expect(render('{.repeated section xs}{@}{.end}', { xs: [1, 2, 3] }, { limits: { maxInstructions: 10 } }).html).toBe('123');
  });

  it('maxInstructions counts long texts given to formatters, compared or read as numbers: one instruction per TEXT_PER_STEP characters', () => {
    // Two texts of 6,400 characters, alike but for the last: each comparison is 200 instructions.
    const long = { a: 'x'.repeat(6400), b: 'x'.repeat(6399) + 'y', xs: new Array(30).fill(0) };
    const short = { a: 'xy', b: 'xz', xs: long.xs };
    // Whether the render ran out of instructions (money-format of a text also fails, long or short).
    const within = (src: string, data: object) => codes(render(src, data, { limits: { maxInstructions: 1000 } })).filter((c) => c.startsWith('LIMIT'));
    const formatters = ['{a|truncate 5}', '<{a|truncate 5}>', '{a|timesince}', '{a|money-format}', '{a|count}', '{.var @v a|html}', '<{a|html|truncate 3}>', '{a|htmltag|json}', '{a|json}'];
    for (const each of [...formatters, '{.eval @r = a < b}', '{.eval @r = a == b}', '{.eval @r = num(a) + num(b)}', '{.eval @r = -a}', '{.equal? a b}{.end}', '{.greaterThan? a b}{.end}', '{.notEqual? a b}{.end}']) {
      // 30 items: ~100 instructions for short texts, 30 x 100-200 more for long ones.
      const src = '{.repeated section xs}' + each + '{.end}';
      expect(within(src, short), each).toEqual([]);
      expect(within(src, long), each).toEqual(['LIMIT_INSTRUCTIONS']);
    }
    // Locals repeat a comparison inside one expression, where no lookup sees it: 20 comparisons, 4,000 instructions.
    const repeated = '{.eval @p = a; @q = b; @r = ' + new Array(20).fill('(@p < @q)').join(' + ') + '}';
    expect(codes(render(repeated, long, { limits: { maxInstructions: 5000 } }))).toEqual([]);
    expect(codes(render(repeated, long, { limits: { maxInstructions: 3000 } }))).toEqual(['LIMIT_INSTRUCTIONS']);
    expect(TEXT_PER_STEP).toBe(64);
  });

  it('maxInstructions counts containers compared: an instruction an element or member', () => {
    // Two trees alike but for their last leaf: each comparison is ~400 instructions.
    const tree = (n: number, last: number) => Array.from({ length: n }, (_, i) => ({ id: i, v: i === n - 1 ? last : 0 }));
    const data = (n: number) => ({ t: tree(n, 1), u: tree(n, 2), xs: new Array(30).fill(tree(n, 1)) });
    const [long, short] = [data(100), data(2)];
    const within = (src: string, data: object) => codes(render(src, data, { limits: { maxInstructions: 1000 } })).filter((c) => c.startsWith('LIMIT'));
    // The last one compares the current node (an item of xs, a tree) with u.
    for (const each of ['{.equal? t u}y{.end}', '{.notEqual? t u}y{.end}', '{.greaterThan? t u}y{.end}', '{.lessThanOrEqual? u}y{.end}']) {
      const src = '{.repeated section xs}' + each + '{.end}';
      expect(within(src, short), each).toEqual([]);
      expect(within(src, long), each).toEqual(['LIMIT_INSTRUCTIONS']);
    }
  });

  it('maxInstructions counts the members of an object whose names are listed (count, has-multiple?): an instruction a member', () => {
    const object = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => ['k' + i, i]));
    const data = (n: number) => ({ o: object(n), xs: new Array(30).fill(object(n)) });
    const [long, short] = [data(100), data(2)];
    const within = (src: string, data: object) => codes(render(src, data, { limits: { maxInstructions: 1000 } })).filter((c) => c.startsWith('LIMIT'));
    for (const each of ['{o|count}', '{.var @n o|count}', '{.has-multiple?}y{.end}']) {
      const src = '{.repeated section xs}' + each + '{.end}';
      expect(within(src, short), each).toEqual([]);
      expect(within(src, long), each).toEqual(['LIMIT_INSTRUCTIONS']);
    }
    // A list's length is at hand: no charge.
    expect(codes(render('{xs|count}', { xs: new Array(100_000).fill(0) }, { limits: { maxInstructions: 10 } }))).toEqual([]);
  });

  it('maxRenderMs: LIMIT_TIME ends a render that runs past it, the clock read every CLOCK_STEPS instructions', () => {
    const fanOut = '{.macro m}' + '{@|apply m}'.repeat(8) + '{.end}{@|apply m}';
    // Past the deadline at the first reading (no time is under 0 ms).
    const late = render(fanOut, {}, { limits: { maxRenderMs: 0 } });
    expect(codes(late)).toContain('LIMIT_TIME');
    expect(codes(late)).not.toContain('LIMIT_INSTRUCTIONS');
    expect(late.errors.find((e) => e.code === 'LIMIT_TIME')?.message).toBe('Rendering took longer than the limit of 0 ms');
    expect(late.html).toBe('');
    // Fewer instructions than CLOCK_STEPS: the clock is never read.
    expect(codes(render('{.repeated section xs}{@}{.end}', { xs: [1, 2, 3] }, { limits: { maxRenderMs: 0 } }))).toEqual([]);
    const xs = new Array(CLOCK_STEPS).fill(1);
    expect(codes(render('{.repeated section xs}{@}{.end}', { xs }, { limits: { maxRenderMs: 0 } }))).toEqual(['LIMIT_TIME']);
    // The instruction limit is still exact where it comes before a reading of the clock.
    expect(codes(render('{.repeated section xs}{@}{.end}', { xs }, { limits: { maxRenderMs: 0, maxInstructions: 100 } }))).toEqual(['LIMIT_INSTRUCTIONS']);
    expect(DEFAULT_LIMITS.maxRenderMs).toBe(5000);
  });

  it('maxRenderMs bounds work no count sees: the emptiness test of an object of thousands of members', () => {
    // V8 lists every name of such an object before `for…in` gives the first: each `.section o`
    // costs in its size, ~160 s for this fan-out under the default instruction limit alone.
    const o: Record<string, number> = {};
    for (let i = 0; i < 4000; i++) o['k' + i] = i;
    const r = render('{.macro m}{.section o}y{.end}' + '{@|apply m}'.repeat(3) + '{.end}{@|apply m}', { o }, { limits: { maxRenderMs: 50 } });
    expect(codes(r).filter((c) => c.startsWith('LIMIT'))).toContain('LIMIT_TIME');
  });

  it('maxErrors: further errors are counted in one LIMIT_ERRORS warning', () => {
    const r = render('{.repeated section xs}{@|apply nope}{.end}', { xs: new Array(10).fill(1) }, { limits: { maxErrors: 3 } });
    expect(codes(r)).toEqual(['APPLY_PARTIAL_MISSING', 'APPLY_PARTIAL_MISSING', 'APPLY_PARTIAL_MISSING', 'LIMIT_ERRORS']);
    const last = r.errors[3];
    expect(last.severity).toBe('warning');
    expect(last.message).toBe('7 more runtime errors were not recorded (limit 3)');
  });

  describe('maxErrors at compile: LIMIT_SYNTAX_ERRORS', () => {
    const ds = (src: string, maxErrors: number) => compile(src, { limits: { maxErrors } }).diagnostics;

    it('keeps the first maxErrors syntax errors, in the order they would have had, then one warning counting the rest', () => {
      // Two tag errors, then four block errors: the reference's order puts the tags' first.
      const src = '{.end}{.bogus}{.end}{a|nope}{.end}{.or}';
      const all = ds(src, 200);
      expect(all.map((d) => d.code)).toEqual(['INVALID_INSTRUCTION', 'FORMATTER_UNKNOWN', 'MISMATCHED_END', 'MISMATCHED_END', 'MISMATCHED_END', 'NOT_ALLOWED_AT_ROOT']);
      for (const max of [1, 2, 3, 5]) {
        const some = ds(src, max);
        expect(some.slice(0, max)).toEqual(all.slice(0, max));
        expect(some.length).toBe(max + 1);
        const last = some[max];
        expect(last.code).toBe('LIMIT_SYNTAX_ERRORS');
        expect(last.severity).toBe('warning');
        expect(last.kind).toBe('SyntaxError');
        expect(last.limit).toBe('maxErrors');
        expect(last.message).toBe(`${all.length - max} more syntax errors were not recorded (limit ${max})`);
        // It points at the first error not kept.
        expect(last.span).toEqual(all[max].span);
      }
      expect(ds(src, 6)).toEqual(all);
      // Block errors alone, past the limit: the warning points at the first not kept.
      const ends = ds('{.end}{.end}{.end}', 2);
      expect(ends.map((d) => d.code)).toEqual(['MISMATCHED_END', 'MISMATCHED_END', 'LIMIT_SYNTAX_ERRORS']);
      expect(ends[2].span).toEqual({ start: 12, end: 18 });
    });

    it('a template of 150,000 errors keeps 200 of them and makes no more', () => {
      const src = '{.end}\n'.repeat(150_000);
      const d = compile(src).diagnostics;
      expect(d.length).toBe(201);
      expect(d[200].message).toBe('149800 more syntax errors were not recorded (limit 200)');
      expect(d[200].line).toBe(201);
      expect(compile(src).render({}).html).toBe('\n'.repeat(150_000));
    });

    it('strict mode still stops at the first error', () => {
      const t = compile('{.end}{.end}', { mode: 'strict', limits: { maxErrors: 1 } });
      expect(t.diagnostics.map((d) => d.code)).toEqual(['MISMATCHED_END']);
    });
  });
});

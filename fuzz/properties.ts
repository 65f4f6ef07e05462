// The fuzz properties, defined once and run two ways: bounded inside `npm test`
// (properties.test.ts) and for as long as asked by `npm run fuzz` (run.ts).
import fc from 'fast-check';
import { CODES, compile, type Diagnostic, parseJson, printTemplate, render, type RenderResult } from '../engine/index.ts';
import { EXPRESSION_DATA_JSON, jsonData, program, structuredTemplate, templateSoup } from './arbitraries.ts';
import { AUTHOR_PROPERTIES } from './author-properties.ts';
import { evaluateProgram, type ModelValue, printProgram } from './expr-model.ts';

export interface FuzzProperty {
  name: string;
  /** Runs inside `npm test`; sized so that the whole suite stays well under its time budget. */
  testRuns: number;
  /** Runs of a plain `npm run fuzz` (no `--runs`) when fewer than 10,000 keep it to minutes. */
  defaultRuns?: number;
  /** Async for the author tools, which read and write site folders. */
  property: fc.IProperty<unknown> | fc.IAsyncProperty<unknown>;
}

function entry<T>(name: string, testRuns: number, property: fc.IProperty<T>): FuzzProperty {
  return { name, testRuns, property: property as unknown as fc.IProperty<unknown> };
}

const NOW = Date.UTC(2024, 0, 15, 12, 0, 0);
const anyTemplate = fc.oneof(templateSoup, structuredTemplate);
const KNOWN_CODES = new Set(Object.keys(CODES));

function checkDiagnostics(list: readonly Diagnostic[], sourceLength: number | null): void {
  for (const d of list) {
    if (!KNOWN_CODES.has(d.code)) throw new Error(`unknown diagnostic code ${d.code}`);
    if (typeof d.message !== 'string' || d.message === '') throw new Error(`${d.code} without a message`);
    if (sourceLength !== null && d.source === 'template' && !(d.span.start >= 0 && d.span.start <= d.span.end && d.span.end <= sourceLength)) {
      throw new Error(`${d.code} span ${d.span.start}-${d.span.end} outside a ${sourceLength}-character source`);
    }
    if (d.children) checkDiagnostics(d.children, null);
  }
}

const MODES = [
  { mode: 'safe' as const, preprocess: false },
  { mode: 'strict' as const, preprocess: false },
  { mode: 'safe' as const, preprocess: true },
  { mode: 'strict' as const, preprocess: true },
];

/** 1. Parsing, compiling and rendering any text yields diagnostics, never a throw. */
const neverThrows = fc.property(anyTemplate, jsonData, (src, data) => {
  for (const m of MODES) {
    const t = compile(src, m);
    checkDiagnostics(t.diagnostics, src.length);
    if (t.ok !== (t.ast !== null && t.code !== null)) throw new Error('ok disagrees with ast/code');
    if (m.mode === 'strict' && !t.ok && t.diagnostics.length === 0) throw new Error('strict compile failed without a diagnostic');
    const r = t.render(data, { now: NOW, mode: m.mode, partials: { p: src } });
    if (typeof r.html !== 'string') throw new Error('html is not a string');
    checkDiagnostics(r.errors, null);
  }
});

// ---- 2. limits ----

const tokenBomb = fc.property(fc.integer({ min: 1, max: 1500 }), fc.integer({ min: 1, max: 1200 }), (terms, limit) => {
  const tokens = 2 * terms - 1;
  // A fresh compile: parse errors are reported once per compiled instruction (LANGUAGE §4.10),
  // so the cached `render` would stay silent for a case it has seen before.
  const r = compile('{.eval ' + Array(terms).fill('1').join('+') + '}', { limits: { maxExpressionTokens: limit } }).render({});
  if (tokens > limit) {
    const msgs = r.errors.map((e) => e.message);
    if (r.html !== '' || msgs.join() !== `Error parsing expression: Expression exceeds the maximum number of allowed tokens: ${limit}`) {
      throw new Error(`${tokens} tokens over limit ${limit}: ${JSON.stringify({ html: r.html.slice(0, 40), msgs })}`);
    }
  } else if (r.html !== String(terms) || r.errors.length) {
    throw new Error(`${tokens} tokens within limit ${limit}: ${JSON.stringify({ html: r.html.slice(0, 40), errors: r.errors.length })}`);
  }
});

const stringGrowth = fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 5000 }), (doublings, limit) => {
  const src = '{.eval @s = "ab"}' + '{.eval @s = @s + @s}'.repeat(doublings) + '{.eval @s}';
  const r = render(src, {}, { limits: { maxStringLength: limit } });
  let length = 2;
  let refused = 0;
  for (let i = 0; i < doublings; i++) {
    if (length * 2 > limit) refused++;
    else length *= 2;
  }
  const limitErrors = r.errors.filter((e) => e.message === `Error reducing expression: Concatenation would exceed maximum string length ${limit}`);
  if (r.html.length !== length || !/^(ab)+$/.test(r.html) || limitErrors.length !== refused || limitErrors.length !== r.errors.length) {
    throw new Error(`doublings ${doublings}, limit ${limit}: length ${r.html.length} (expected ${length}), ${r.errors.length} errors (expected ${refused})`);
  }
});

const recursionDepth = fc.property(fc.integer({ min: 0, max: 40 }), fc.boolean(), (depth, viaPartial) => {
  const src = viaPartial ? '{@|apply r}' : '{.macro r}x{@|apply r}{.end}{@|apply r}';
  const partials = viaPartial ? { r: 'x{@|apply r}' } : undefined;
  const r = render(src, {}, { limits: { maxPartialDepth: depth }, partials });
  const codes = r.errors.map((e) => e.code);
  if (r.html !== 'x'.repeat(depth) || codes.join() !== 'APPLY_PARTIAL_RECURSION_DEPTH') {
    throw new Error(`depth ${depth}: html ${r.html.length} x, codes ${codes.join()}`);
  }
});

const runawayRender = fc.property(
  fc.integer({ min: 1, max: 8 }),
  fc.integer({ min: 50, max: 200_000 }),
  fc.integer({ min: 10, max: 100_000 }),
  fc.integer({ min: 10, max: 100_000 }),
  fc.constantFrom('x', '{@}', '{.repeated section xs}{@}{.end}', '{.var @y xs|json-pretty|raw}', '{xs|raw|json|truncate 2}'),
  (fanOut, maxInstructions, maxOutputLength, maxTextMade, body) => {
    const src = `{.macro m}${body}` + '{@|apply m}'.repeat(fanOut) + '{.end}{@|apply m}';
    // Unbounded, a fan-out of up to 8 at each of 16 levels is up to 8^16 calls: that a limit
    // reports it proves the render was cut short (no stopwatch; the test's timeout is only a
    // hang guard).
    const r = render(src, { xs: [1, 2, 3] }, { limits: { maxInstructions, maxOutputLength, maxTextMade } });
    const codes = new Set(r.errors.map((e) => e.code));
    if (r.html.length > maxOutputLength) throw new Error(`output ${r.html.length} over limit ${maxOutputLength}`);
    if (!codes.has('APPLY_PARTIAL_RECURSION_DEPTH') && !codes.has('LIMIT_INSTRUCTIONS') && !codes.has('LIMIT_OUTPUT') && !codes.has('LIMIT_TEXT') && !codes.has('LIMIT_TIME')) {
      throw new Error(`fan-out ${fanOut} stopped by nothing: ${[...codes].join()}`);
    }
  },
);

const nesting = fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), fc.constantFrom('{.section a}', '{.if a}', '{.repeated section a}', '{.even? a}', '{.macro m}'), (depth, maxNesting, open) => {
  const t = compile(open.repeat(depth) + 'x' + '{.end}'.repeat(depth), { limits: { maxNesting } });
  const limited = t.diagnostics.some((d) => d.code === 'LIMIT_NESTING');
  if (limited !== depth > maxNesting) throw new Error(`depth ${depth}, maxNesting ${maxNesting}: LIMIT_NESTING ${limited}`);
});

/** Templates with several syntax errors of both groups (tags' and blocks'), among soup. */
const manyErrors = fc
  .array(fc.oneof(anyTemplate, fc.constantFrom('{.end}', '{.or}', '{.or}', '{a|nope}', '{.bogus}', '{.section}', '{.if}', '{.alternates with}', '{.section a}', '{a|truncate}')), { maxLength: 14 })
  .map((parts) => parts.join(''));

const syntaxErrorCap = fc.property(manyErrors, fc.integer({ min: 1, max: 4 }), (src, maxErrors) => {
  const all = compile(src).diagnostics;
  const kept = compile(src, { limits: { maxErrors } }).diagnostics;
  if (all.length <= maxErrors) {
    if (JSON.stringify(kept) !== JSON.stringify(all)) throw new Error('under the limit, the diagnostics changed');
    return;
  }
  // The first maxErrors of the full list (a limit diagnostic that stops the compile stays last), then the count.
  const last = all.at(-1)!;
  const stops = last.code === 'LIMIT_NESTING';
  const errors = stops ? all.slice(0, -1) : all;
  if (errors.length <= maxErrors) return;
  const expected = errors.slice(0, maxErrors);
  const warning = kept[maxErrors];
  if (JSON.stringify(kept.slice(0, maxErrors)) !== JSON.stringify(expected)) throw new Error(`not the first ${maxErrors} of ${errors.length}`);
  if (warning?.code !== 'LIMIT_SYNTAX_ERRORS' || warning.message !== `${errors.length - maxErrors} more syntax errors were not recorded (limit ${maxErrors})`) {
    throw new Error(`warning ${JSON.stringify(warning)} for ${errors.length} errors`);
  }
  if (JSON.stringify(warning.span) !== JSON.stringify(errors[maxErrors].span)) throw new Error('the warning points elsewhere than the first error not kept');
  if (kept.length !== maxErrors + 1 + (stops ? 1 : 0)) throw new Error(`${kept.length} diagnostics kept`);
});

// ---- 3. print / parse round trip ----

const DROPPED_KEYS = new Set(['span', 'spec', 'bound', 'raw', 'end']);

/** The tree without positions, bound plugins and raw argument text; adjacent text runs merged. */
export function normalizeAst(node: unknown): unknown {
  if (Array.isArray(node)) {
    const out: unknown[] = [];
    for (const item of node.map(normalizeAst)) {
      const prev = out[out.length - 1] as { kind?: string; text?: string } | undefined;
      const cur = item as { kind?: string; text?: string };
      if (prev?.kind === 'text' && cur?.kind === 'text') out[out.length - 1] = { ...prev, text: (prev.text ?? '') + (cur.text ?? '') };
      else out.push(item);
    }
    return out;
  }
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) if (!DROPPED_KEYS.has(k) && v !== undefined) out[k] = normalizeAst(v);
  return out;
}

/**
 * Printer gaps found by this property (reported to the lead; engine/ is not ours to edit):
 * text is printed verbatim, so text runs that only became text because a neighbouring tag
 * was dropped (a safe-mode syntax error, or a `{^…}` tag outside preprocessor mode) or
 * because of the comment quirk of LANGUAGE §1.5 can form a new tag when printed:
 * `{#{.or}}}` prints `{#}}` (a comment), `{{^}html}` prints `{html}` (a variable),
 * `{{####}}` prints `{{####}{{####}}`. Trees with the comment quirk grow on every reprint, so
 * they are skipped; the others must at least print to a fixed point.
 */
function hasCommentQuirk(node: unknown): boolean {
  if (Array.isArray(node)) {
    for (let i = 0; i + 1 < node.length; i++) {
      const cur = node[i] as { kind?: string; text?: string };
      const next = node[i + 1] as { kind?: string; multiline?: boolean };
      if (cur.kind === 'text' && next.kind === 'comment' && next.multiline && /\{[^}]*$/.test(cur.text ?? '')) return true;
    }
    return node.some(hasCommentQuirk);
  }
  return node !== null && typeof node === 'object' && Object.values(node).some(hasCommentQuirk);
}

function reprint(src: string, preprocess: boolean): { tree: string; printed: string } {
  const t = compile(src, { preprocess });
  if (!t.ast) throw new Error(`safe mode produced no tree for ${JSON.stringify(src)}`);
  return { tree: JSON.stringify(normalizeAst(t.ast.body)), printed: printTemplate(t.ast) };
}

/** Grammar-built templates with every tag written as a preprocessor tag `{^…}`. */
const preprocessTemplate = structuredTemplate.map((t) => t.replace(/\{(?=[.#@a-z])/g, '{^'));

const roundTripInput = fc.oneof(
  fc.tuple(anyTemplate, fc.boolean()),
  fc.tuple(preprocessTemplate, fc.constant(true)),
);

/** True when the tree holds a block opened by a `{^…}` tag (see KNOWN_ENGINE_BUGS). */
function hasPreprocessorBlock(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasPreprocessorBlock);
  if (node === null || typeof node !== 'object') return false;
  const n = node as { kind?: string; pre?: boolean; alternates?: unknown };
  if (n.pre && ['section', 'repeated', 'predicate', 'if', 'macro'].includes(n.kind ?? '')) return true;
  return Object.values(node).some(hasPreprocessorBlock);
}

function printRoundTripProperty(skipKnownBugs: boolean) {
  return fc.property(roundTripInput, ([src, preprocess]) => {
    const first = compile(src, { preprocess });
    if (!first.ast) throw new Error('safe mode produced no tree');
    const tree = normalizeAst(first.ast.body);
    fc.pre(!hasCommentQuirk(tree));
    if (skipKnownBugs && KNOWN_ENGINE_BUGS.preprocessorEndPrintedAsEnd) fc.pre(!hasPreprocessorBlock(tree));
    const clean = first.diagnostics.length === 0 && (preprocess || !src.includes('{^'));
    const a = reprint(src, preprocess);
    const b = reprint(a.printed, preprocess);
    if (clean && a.tree !== b.tree) throw new Error(`printed ${JSON.stringify(a.printed)}\nfirst  ${a.tree}\nsecond ${b.tree}`);
    if (!clean) {
      const c = reprint(b.printed, preprocess);
      if (b.tree !== c.tree || b.printed !== c.printed) throw new Error(`printing does not reach a fixed point: ${JSON.stringify([a.printed, b.printed, c.printed])}`);
    }
  });
}

// ---- 4. determinism, cache hit or miss ----

const comparable = (r: RenderResult): string =>
  JSON.stringify({
    html: r.html,
    // Expression parse errors are reported once per compiled instruction (LANGUAGE §4.10), so
    // a cache hit legitimately omits them.
    errors: r.errors.filter((e) => e.code !== 'EXPRESSION_PARSE').map((e) => `${e.code} ${e.line}:${e.column} ${e.message}`),
  });

const deterministic = fc.property(structuredTemplate, jsonData, fc.constantFrom('safe', 'strict') as fc.Arbitrary<'safe' | 'strict'>, (src, data, mode) => {
  // The render-time limit is the one whose outcome depends on the machine: off here.
  const options = { now: NOW, mode, partials: { p: '{a|html}{.section b}{c}{.end}' }, limits: { maxRenderMs: Infinity } };
  const viaCache1 = comparable(render(src, data, options));
  const viaCache2 = comparable(render(src, data, options));
  const fresh = comparable(compile(src, { mode }).render(data, options));
  const t = compile(src, { mode });
  const again1 = comparable(t.render(data, options));
  const again2 = comparable(t.render(data, options));
  if (new Set([viaCache1, viaCache2, fresh, again1, again2]).size !== 1) {
    throw new Error(`renders differ:\ncache miss/hit ${viaCache1}\ncache hit      ${viaCache2}\nfresh compile  ${fresh}\nsame Template  ${again1}\nsame Template  ${again2}`);
  }
});

// ---- 5. html / htmlattr escaping ----

// Long enough for both of the escapers' scans: a loop below 24 characters, indexOf above.
const hostileText = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc.array(fc.constantFrom('<', '>', '"', "'", '&', '&lt;', '&amp;', 'script', ' ', '\u0000', '\uD800', 'plain text '), { maxLength: 40 }).map((xs) => xs.join('')),
);

const unescape = (s: string): string => s.replace(/&(lt|gt|quot|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[e] as string);

const escaping = fc.property(hostileText, fc.array(hostileText, { maxLength: 4 }), (s, xs) => {
  const data = { s, xs, o: { s } };
  const cases: { template: string; forbidden: RegExp; exact: string }[] = [
    { template: '{s|html}', forbidden: /</, exact: s },
    { template: '{o.s|html}', forbidden: /</, exact: s },
    { template: '{s|htmlattr}', forbidden: /[<"]/, exact: s },
    { template: '{s|htmltag}', forbidden: /[<"]/, exact: s },
    { template: '{.repeated section xs}{@|htmlattr}{.end}', forbidden: /[<"]/, exact: xs.join('') },
    { template: '{s|truncate 5|html}', forbidden: /</, exact: '' },
    { template: '{s|safe|htmlattr}', forbidden: /[<"]/, exact: '' },
  ];
  for (const c of cases) {
    const r = render(c.template, data);
    if (c.forbidden.test(r.html)) throw new Error(`${c.template} on ${JSON.stringify(s)} / ${JSON.stringify(xs)} gave ${JSON.stringify(r.html)}`);
    if (c.exact && unescape(r.html) !== c.exact) throw new Error(`${c.template} does not decode back: ${JSON.stringify(r.html)}`);
  }
});

// ---- 6. expressions against the model ----

const exprRaw = JSON.parse(EXPRESSION_DATA_JSON) as Record<string, unknown>;
const exprData = parseJson(EXPRESSION_DATA_JSON);
const exprScope = {
  lookup(path: string): ModelValue | undefined {
    let v: unknown = exprRaw;
    for (const seg of path.replace(/^@\./, '').split('.')) {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, seg)) return undefined;
      v = (v as Record<string, unknown>)[seg];
    }
    if (Array.isArray(v)) return { opaque: 'array' };
    if (v !== null && typeof v === 'object') return { opaque: 'object' };
    return v as ModelValue;
  },
};

const REDUCE_PREFIX = 'Error reducing expression: ';

const expressions = fc.property(program, (statements) => {
  const text = printProgram(statements);
  const model = evaluateProgram(statements, exprScope);
  // The second and third `.eval` read the locals back from the frame (§4.10 step 2). Rendered
  // twice: an expression's first evaluation runs its stack, the next its compiled steps.
  const template = compile(`{.eval ${text}}|{.eval @v1}|{.eval @v2}`);
  const first = template.render(exprData);
  const r = template.render(exprData);
  if (r.html !== first.html || JSON.stringify(r.errors) !== JSON.stringify(first.errors)) {
    throw new Error(`{.eval ${text}}\nfirst render ${JSON.stringify(first.html)}, second ${JSON.stringify(r.html)}`);
  }
  const localText = (name: string): string => {
    const v = model.locals.get(name);
    return v === undefined || v === null ? '' : String(v);
  };
  const expected = `${model.output}|${localText('@v1')}|${localText('@v2')}`;
  const errors = r.errors.map((e) => (e.code === 'EXPRESSION_REDUCE' && e.message.startsWith(REDUCE_PREFIX) ? e.message.slice(REDUCE_PREFIX.length) : `${e.code}: ${e.message}`));
  if (r.html !== expected || JSON.stringify(errors) !== JSON.stringify(model.errors)) {
    throw new Error(`{.eval ${text}}\nengine ${JSON.stringify(r.html)} ${JSON.stringify(errors)}\nmodel  ${JSON.stringify(expected)} ${JSON.stringify(model.errors)}`);
  }
});

/**
 * Engine bugs found by these properties and not fixed yet (engine/ belongs to the lead). While
 * an entry is true, the affected property skips the inputs that trigger it, and
 * KNOWN_BUG_PROPERTIES below runs the property unfiltered, expecting it to fail. Set the entry
 * to false when the fix lands (the expected-failure test then starts failing as a reminder).
 */
export const KNOWN_ENGINE_BUGS = {
  /**
   * engine/print.ts printInst closes every block with `{.end}`; a block opened by `{^.section a}`
   * must close with `{^.end}`, or the printed text (parsed in preprocessor mode, where `{.end}` is
   * text) leaves the block open: `{^.section a}x{^.end}` prints `{^.section a}x{.end}`, which
   * renders `x{.end}` instead of `x`, with EOF_IN_BLOCK.
   */
  preprocessorEndPrintedAsEnd: false,
};

export const PROPERTIES: readonly FuzzProperty[] = [
  entry('compile and render never throw (safe, strict, preprocess)', 1000, neverThrows),
  entry('limits: expression token bombs stop at maxExpressionTokens', 500, tokenBomb),
  entry('limits: string growth stops at maxStringLength', 500, stringGrowth),
  entry('limits: recursion stops at maxPartialDepth', 200, recursionDepth),
  entry('limits: runaway renders stop within maxInstructions / maxOutputLength / maxTextMade', 150, runawayRender),
  entry('limits: nesting deeper than maxNesting is LIMIT_NESTING', 200, nesting),
  entry('limits: syntax errors past maxErrors are counted in one LIMIT_SYNTAX_ERRORS', 1000, syntaxErrorCap),
  entry('printTemplate output parses back to the same tree', 1500, printRoundTripProperty(true)),
  entry('rendering is deterministic and independent of the compile cache', 800, deterministic),
  entry('html / htmlattr / htmltag never let a raw < (or ") through', 1000, escaping),
  entry('.eval agrees with the model evaluator', 5000, expressions),
  ...AUTHOR_PROPERTIES,
];

/** Properties expected to fail until the bugs of KNOWN_ENGINE_BUGS are fixed. */
export const KNOWN_BUG_PROPERTIES: readonly FuzzProperty[] = KNOWN_ENGINE_BUGS.preprocessorEndPrintedAsEnd
  ? [entry('known bug: preprocessor blocks print their end as {.end}', 300, printRoundTripProperty(false))]
  : [];

// Every resource limit in one object, finite by default, so that no template can hang the
// process or exhaust memory. Hosts pass overrides through CompileOptions / RenderOptions.

export interface Limits {
  /** Characters of template source accepted by compile (LIMIT_SOURCE_LENGTH). */
  maxSourceLength: number;
  /** Depth of nested blocks (LIMIT_NESTING). */
  maxNesting: number;
  /** Tokens in one `.eval` expression (EXPRESSION_PARSE, reference option maxTokens). */
  maxExpressionTokens: number;
  /** Length of a string built by `+` in `.eval` (EXPRESSION_REDUCE, reference option maxStringLen). */
  maxStringLength: number;
  /** Nesting of `apply` / `.include` (APPLY_PARTIAL_RECURSION_DEPTH); the reference default 16. */
  maxPartialDepth: number;
  /** UTF-16 code units of output (LIMIT_OUTPUT). */
  maxOutputLength: number;
  /**
   * UTF-16 code units of text made in one render that the output does not count as it is made
   * (LIMIT_TEXT), in all: formatters' results that go on to the next formatter or into a
   * variable, and the texts of partials included without `output`.
   */
  maxTextMade: number;
  /**
   * Instructions and formatter calls executed by one render (LIMIT_INSTRUCTIONS), and one per
   * `TEXT_PER_STEP` (64) characters of long texts given to formatters, compared or read as numbers
   * (`Runtime.work`), one per element or member of the containers a comparison predicate
   * compared (`takeEqualsWork`), and one per member of an object `count` or `has-multiple?`
   * sizes.
   */
  maxInstructions: number;
  /**
   * Diagnostics kept per compile and per render; the rest are counted in one warning
   * (LIMIT_SYNTAX_ERRORS, LIMIT_ERRORS).
   */
  maxErrors: number;
  /**
   * Milliseconds one render may run (LIMIT_TIME), by the monotonic clock, read every
   * `CLOCK_STEPS` instructions. The counted limits bound what a template does; this bounds
   * what they do not count: work whose time grows with the data (V8 lists every name of an
   * object `JSON.parse` made of 128 members or more to test whether it is empty), on a machine
   * however busy.
   */
  maxRenderMs: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxSourceLength: 4 * 1024 * 1024,
  maxNesting: 256,
  maxExpressionTokens: 10_000,
  maxStringLength: 1024 * 1024,
  maxPartialDepth: 16,
  maxOutputLength: 32 * 1024 * 1024,
  maxTextMade: 32 * 1024 * 1024,
  maxInstructions: 5_000_000,
  maxErrors: 200,
  maxRenderMs: 5_000,
});

/** Instructions between two readings of the clock for `maxRenderMs`. */
export const CLOCK_STEPS = 4096;

export function resolveLimits(...overrides: (Partial<Limits> | undefined)[]): Limits {
  // Every compile without overrides shares the frozen defaults (nothing writes to a Limits):
  // copying them was ~9% of compiling a small template (bench/compile.ts).
  if (overrides.every((o) => o === undefined)) return DEFAULT_LIMITS;
  const out: Limits = { ...DEFAULT_LIMITS };
  for (const o of overrides) {
    if (!o) continue;
    for (const k of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
      const v = o[k];
      if (typeof v === 'number' && !Number.isNaN(v)) out[k] = v;
    }
  }
  // The reference treats a negative partial depth as 0.
  if (out.maxPartialDepth < 0) out.maxPartialDepth = 0;
  return out;
}

// The contract between the engine and plugin authors (formatters/, predicates/).
// Plugins import this module only: it re-exports the value model and declares what a
// plugin may ask of the engine at compile time (BindContext) and at render time
// (PluginContext). A plugin is data: a name, an optional argument binder that runs once
// when a template is compiled, and an apply/test function that the compiled closures call
// directly. Nothing is looked up by name while rendering.

import type { Value } from './value.ts';

export * from './value.ts';

/** A variable reference parsed at compile time (opaque; resolve it with `PluginContext.resolve`). */
export interface Ref {
  readonly text: string;
}

/** A built-in JSON-T template compiled at bind time (opaque; run it with `PluginContext.runTemplate`). */
export interface TemplateHandle {
  readonly source: string;
}

/** What a binder sees while a template is compiled. */
export interface BindContext {
  /** The plugin name as written (`truncate`, `equal?`). */
  readonly name: string;
  /** The first character of the raw argument text ('' when there were no arguments). */
  readonly delimiter: string;
  /** The raw argument text after the name, delimiter included. */
  readonly raw: string;
  /** Parses a variable reference (`a.b.0`, `@`, `@index`); null when the text is not one. */
  parseRef(text: string): Ref | null;
  /**
   * Compiles a built-in template once per registry (cached by source text). The source is
   * trimmed first (PLUGINS §1.6). Throws if the template has syntax errors.
   */
  compileTemplate(source: string): TemplateHandle;
}

/** What a formatter or predicate sees while a template renders. */
export interface PluginContext {
  /** BCP 47 tag of the execution locale; `none` means no locale data. */
  readonly locale: string;
  /** Epoch milliseconds used as "now". */
  readonly now: number;
  /** The node of the current frame. */
  node(): Value;
  /**
   * The node of the frame below the current one. Inside a formatter chain the current frame
   * holds the value being formatted, so this is the node that encloses it.
   */
  parentNode(): Value;
  /** Stack lookup of a compile-time reference from the current frame (LANGUAGE §2.3). */
  resolve(ref: Ref): Value;
  /** Parses and resolves a reference known only at render time; missing when invalid. */
  resolveText(text: string): Value;
  /**
   * The text of `website.timeZone` (stack lookup); when missing, the host's time zone, else
   * America/New_York. The text may name no zone (`null`, ''): callers then use UTC (§14.1).
   */
  timeZone(): string;
  /**
   * Runs a built-in template with `node` as a new frame and returns its output. With
   * `isPrivate`, lookups stop at that frame.
   */
  runTemplate(template: TemplateHandle, node: Value, isPrivate: boolean): string;
  /**
   * Applies a macro or partial (the `apply` formatter, LANGUAGE §6.2). Returns the captured
   * output, or missing after recording APPLY_PARTIAL_MISSING / APPLY_PARTIAL_RECURSION_DEPTH.
   * `args` is the `@args` object, or undefined when the call had no extra arguments.
   */
  applyPartial(name: string, value: Value, isPrivate: boolean, args: { [key: string]: string } | undefined): Value;
  /**
   * `applyPartial` whose output goes straight to the page (`apply` last in its chain, through
   * `FormatterSpec.pieces`): the captured output in the pieces the page's own output would be
   * cut into, so that a partial printing a whole listing does not make one long string.
   */
  applyPartialPieces(name: string, value: Value, isPrivate: boolean, args: { [key: string]: string } | undefined): string | readonly string[] | undefined;
  /**
   * Charges work on long texts, or on containers, to the render's instruction budget (one
   * instruction per `TEXT_PER_STEP` characters; an element or member counts as `TEXT_PER_STEP`
   * characters; LIMIT_INSTRUCTIONS past it). A plugin calls it for work whose time grows with a
   * text or a container that nothing else bounds, such as comparing two texts or two trees:
   * before the work, or after it when only the work tells its size (`takeEqualsWork`). A text
   * shorter than `TEXT_PER_STEP` costs nothing, so it need not be told of one.
   */
  work(chars: number): void;
  /**
   * Charges what running a built-in template would have: `steps` instructions and `made`
   * characters of text made but not printed (its `.var`s' formatted values). Returns false,
   * charging nothing, when either would pass its limit (LIMIT_INSTRUCTIONS, LIMIT_TEXT) or the
   * template's output, `printed` characters, would be longer than the output limit
   * (LIMIT_OUTPUT, which a template's own output meets as it is written): a formatter that
   * prints in code what its template prints (`product-price`, `comment-link`, `like-button`)
   * then runs the template, so that the render ends where, and with the diagnostic, it would
   * have.
   */
  spend(steps: number, made: number, printed: number): boolean;
}

export interface FormatterSpec<B = unknown> {
  readonly name: string;
  /** When true, an empty argument list is FORMATTER_NEEDS_ARGS. */
  readonly requiresArgs?: boolean;
  /**
   * Validates and converts the arguments once, at compile time; the result is handed to
   * every `apply` call. Throw `ArgsError` to reject (FORMATTER_ARGS_INVALID).
   */
  bind?(args: string[], ctx: BindContext): B;
  /**
   * True when `apply` reads nothing from its PluginContext (a function of the value and the
   * bound arguments only; it may still charge its work, `work`): the engine then calls it
   * without pushing a frame for the value.
   */
  readonly pure?: boolean;
  /**
   * A formatter that does this one's work and then `next`'s in one step, or undefined. The
   * engine asks when `next` follows this formatter in a chain and has no binder, and calls
   * the answer (with this formatter's bound arguments) in place of both: `json|htmlattr`
   * writes the escaped JSON directly instead of escaping a long text full of quotes. The
   * result must be exactly what the two calls would give, errors included.
   */
  fuse?(next: FormatterSpec<any>): FormatterSpec<B> | undefined;
  /**
   * Computes the new value of the first variable. `others` holds the values of the
   * instruction's further variables (`{a, b|fmt}`), usually empty. Throwing records
   * UNEXPECTED_ERROR and the instruction emits nothing; see `JavaError`.
   */
  apply(value: Value, bound: B, ctx: PluginContext, others: readonly Value[]): Value;
  /**
   * `apply` for a formatter whose text can be long (`json` of a page's data): the same text,
   * as one string or as pieces in order. The engine calls it in place of `apply` when the
   * formatter is the last of its chain and its text goes to the output, and appends the
   * pieces one by one, so that the page parts a server encodes stay short (a string of over
   * 128 KB costs V8 far more to flatten; `toJsonPieces`).
   */
  pieces?(value: Value, bound: B, ctx: PluginContext, others: readonly Value[]): string | readonly string[];
  /**
   * `pieces` hands over views into a longer text (slices of the text `parseJson` read): the
   * engine appends a piece of `PIECE_PART` characters or more as a page part of its own, not
   * only one of `LONG_TEXT`, so that it is encoded where it lies instead of copied into a chunk.
   */
  pieceViews?: boolean;
}

export interface PredicateSpec<B = unknown> {
  /** The name including its `?`. */
  readonly name: string;
  readonly requiresArgs?: boolean;
  /** As for formatters; throw `ArgsError` for PREDICATE_ARGS_INVALID. */
  bind?(args: string[], ctx: BindContext): B;
  /** `node` is the current frame's node. */
  test(node: Value, bound: B, ctx: PluginContext): boolean;
}

/** A plugin family: one file's table. */
export interface PluginTable {
  readonly formatters?: readonly FormatterSpec<any>[];
  readonly predicates?: readonly PredicateSpec<any>[];
}

/** Rejects a plugin's arguments at compile time; the message is the validator detail. */
export class ArgsError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'ArgsError';
  }
}

/**
 * A runtime failure reported the way the reference reports a Java exception:
 * `Unexpected <javaClass> when executing <repr>: <message>`.
 */
export class JavaError extends Error {
  readonly javaClass: string;

  constructor(javaClass: string, message: string) {
    // Without a stack: the error is data (the reference's exception, reported as a diagnostic
    // at the tag), and capturing the render's stack cost ~35 µs an error (a page with a bad
    // value in every item of a list paid it per item; bench/README.md, "Error paths and
    // `same-day?`").
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.javaClass = javaClass;
    this.name = 'JavaError';
  }
}

/** The reference's argument-count validators, with their exact detail texts. */
export function expectArgs(args: readonly string[], min: number, max: number = min): void {
  if (min === max) {
    if (args.length !== min) throw new ArgsError(`Wrong number of args, exactly ${min} expected`);
    return;
  }
  if (args.length < min) throw new ArgsError(`Not enough args. At least ${min} expected`);
  if (args.length > max) throw new ArgsError(`Too many args. Takes between ${min} and ${max}`);
}

/** Helpers for families: merge tables, checking that no name is registered twice. */
export function mergeTables(...tables: PluginTable[]): Required<PluginTable> {
  const formatters: FormatterSpec<any>[] = [];
  const predicates: PredicateSpec<any>[] = [];
  const seen = new Set<string>();
  for (const t of tables) {
    for (const f of t.formatters ?? []) {
      if (seen.has('f:' + f.name)) throw new Error(`formatter registered twice: ${f.name}`);
      seen.add('f:' + f.name);
      formatters.push(f);
    }
    for (const p of t.predicates ?? []) {
      if (seen.has('p:' + p.name)) throw new Error(`predicate registered twice: ${p.name}`);
      seen.add('p:' + p.name);
      predicates.push(p);
    }
  }
  return { formatters, predicates };
}

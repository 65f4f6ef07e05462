// An engine instance: one registry, a compile cache, and compile/render entry points. The
// facade in index.ts wires the default formatter and predicate tables into one of these.

import type { Inst, TemplateAst } from './ast.ts';
import { emitTemplate } from './compile.ts';
import { Abort, type Diagnostic, codeFrame, formatDiagnostic, makeDiagnostic } from './diagnostics.ts';
import { parseExpression } from './expr/index.ts';
import { DEFAULT_LIMITS, type Limits, resolveLimits } from './limits.ts';
import { parseVariable } from './path.ts';
import { type BindEnv, parseTemplate } from './parser.ts';
import type { TemplateHandle } from './plugin-api.ts';
import type { Registry } from './registry.ts';
import { type BuiltinHandle, type Code, CompiledRef, Runtime } from './runtime.ts';
import { Source } from './source.ts';

export type Mode = 'safe' | 'strict';

export interface CompileOptions {
  /** `safe` (default): collect syntax errors, malformed tags become text. `strict`: stop at the first. */
  mode?: Mode;
  /** Preprocessor mode (LANGUAGE §8.3): only `{^…}` tags are instructions. */
  preprocess?: boolean;
  limits?: Partial<Limits>;
  /** Name used in diagnostics and code frames. */
  name?: string;
}

export interface RenderOptions {
  /** Partial name → template source, for `apply` and `.include`. */
  partials?: Readonly<Record<string, string>>;
  /** Injectable path → JSON text (or an already-parsed value), for `.inject`. */
  injects?: Readonly<Record<string, unknown>>;
  /** Epoch milliseconds used as "now" (default: the wall clock). */
  now?: number;
  /** BCP 47 locale (default `en-US`); `none` disables locale data. */
  locale?: string;
  /** Fallback time zone when the data has no `website.timeZone` (default America/New_York). */
  timezone?: string;
  /** `safe` (default): record runtime errors and go on. `strict`: abort on the first. */
  mode?: Mode;
  limits?: Partial<Limits>;
  /** Enables `.include` (default true). */
  include?: boolean;
  /** Used by the `render(source, …)` shortcut: compile in preprocessor mode. */
  preprocess?: boolean;
}

const NO_PARTS: readonly string[] = Object.freeze([]);

export interface RenderResult {
  html: string;
  /**
   * The same output as its pieces in order (`html` is their concatenation): what a server
   * encodes, piece by piece, so that one character beyond Latin-1 widens only its own piece
   * when V8 flattens it (engine/runtime.ts, `Runtime.chunks`).
   */
  parts: readonly string[];
  errors: Diagnostic[];
}

export class Template {
  constructor(
    private readonly engine: Engine,
    readonly source: Source,
    readonly ast: TemplateAst | null,
    /** The compiled closures; null when the template cannot render. */
    readonly code: Code | null,
    /** Compile diagnostics (syntax errors, limits). */
    readonly diagnostics: readonly Diagnostic[],
    private readonly limits: Limits,
  ) {}

  /** False when the template cannot render (strict-mode syntax error or a compile limit). */
  get ok(): boolean {
    return this.code !== null;
  }

  render(data: unknown, options: RenderOptions = {}): RenderResult {
    if (this.code === null) return { html: '', parts: NO_PARTS, errors: [...this.diagnostics] };
    const limits = options.limits ? resolveLimits(this.limits, options.limits) : this.limits;
    const rt = new Runtime(
      {
        strict: options.mode === 'strict',
        limits,
        locale: options.locale ?? 'en-US',
        now: options.now ?? Date.now(),
        timeZone: options.timezone,
        partials: options.partials,
        injects: options.injects,
        include: options.include ?? true,
      },
      this.engine,
      this.source,
    );
    rt.push(data as never);
    try {
      this.code.run(rt);
    } catch (e) {
      if (e instanceof Abort) return { html: '', parts: NO_PARTS, errors: [...this.diagnostics, ...rt.finalErrors(), e.diagnostic] };
      // A stack overflow from pathological data is reported, never thrown.
      if (e instanceof RangeError) {
        rt.errors.push(unexpectedDiag(e, this.source));
        return { html: '', parts: NO_PARTS, errors: [...this.diagnostics, ...rt.errors] };
      }
      throw e;
    }
    const errors = rt.finalErrors();
    const { html, parts } = rt.finishOutput();
    return { html, parts, errors: this.diagnostics.length ? [...this.diagnostics, ...errors] : errors };
  }

  /**
   * EXPRESSION_PARSE of every `.eval` (macros' too) whose expression does not parse, found
   * without data. The reference reports them when the instruction first runs (§4.10), so a
   * render that never reaches it says nothing and a syntax check passed `{.eval foo(1)}`:
   * author tools (`quire check`) ask here. Neither `diagnostics` nor `render` changes.
   */
  expressionDiagnostics(): Diagnostic[] {
    const out: Diagnostic[] = [];
    if (this.ast === null) return out;
    const exprLimits = { maxTokens: this.limits.maxExpressionTokens, maxStringLen: this.limits.maxStringLength };
    const walk = (body: readonly Inst[]): void => {
      for (const inst of body) {
        if (inst.kind === 'eval') {
          for (const error of parseExpression(inst.expression, exprLimits).errors) {
            out.push(makeDiagnostic('EXPRESSION_PARSE', `Error parsing expression: ${error}`, this.source, inst.span));
          }
          continue;
        }
        if (!('body' in inst)) continue;
        walk(inst.body);
        if (inst.kind === 'repeated' && inst.alternates) walk(inst.alternates.body);
        if ('alt' in inst) for (let or = inst.alt; or; or = or.alt) walk(or.body);
      }
    };
    walk(this.ast.body);
    return out;
  }

  /** Diagnostics with code frames, for people. */
  explain(diagnostics: readonly Diagnostic[] = this.diagnostics): string {
    return diagnostics.map((d) => codeFrame(d, d.source === this.source.name ? this.source : this.source)).join('\n\n');
  }
}

function unexpectedDiag(e: Error, source: Source): Diagnostic {
  return {
    code: 'UNEXPECTED_ERROR',
    kind: 'RuntimeError',
    stage: 'render',
    severity: 'error',
    message: `Unexpected StackOverflowError when executing template: ${e.message}`,
    line: 1,
    column: 1,
    span: { start: 0, end: 0 },
    source: source.name,
  };
}

const CACHE_SIZE = 512;

/** One text's compiled forms in `Engine.cached`, by the options' key (`optionsKey`). */
interface CachedTemplate {
  readonly key: string;
  readonly template: Template;
}

/** The options that change what `compile` makes, as text; the defaults' without building one. */
function optionsKey(options: CompileOptions): string {
  if ((options.mode === undefined || options.mode === 'safe') && !options.preprocess && options.limits === undefined) return DEFAULT_OPTIONS_KEY;
  return `${options.mode ?? 'safe'}|${options.preprocess ? 1 : 0}|${options.limits ? JSON.stringify(options.limits) : ''}`;
}

const DEFAULT_OPTIONS_KEY = 'safe|0|';

export class Engine {
  /**
   * `cached`'s templates by source text, then by options, least recently used first, up to
   * CACHE_SIZE in all. Keyed by the text itself for the reason `partialCache` is: a key built
   * from the options and the text was a new string on every `render(text, data)`, copied and
   * hashed whole on every call (a 1.4 KB page template: 4.1 µs a render compiled, 7.1 through
   * the cache).
   */
  private readonly cache = new Map<string, CachedTemplate[]>();
  private cacheCount = 0;
  /**
   * Compiled partials by source text, then name and safety. Keyed by the text itself, not a
   * string built from it: a host passes the same partial strings on every render, and V8
   * keeps a string's hash, so a hit costs no hashing of the text (a built key was copied
   * and hashed on every render, once per partial applied).
   */
  private readonly partialCache = new Map<string, CompiledPartial[]>();
  private partialCount = 0;
  private readonly env: BindEnv;
  private readonly bindRefs = new Map<string, CompiledRef | null>();

  constructor(readonly registry: Registry) {
    this.env = {
      registry,
      compileTemplate: (src) => this.builtin(src),
      bindRef: (text) => this.bindRef(text),
    };
  }

  compile(text: string, options: CompileOptions = {}): Template {
    // The shared defaults without a call: `resolveLimits` takes its overrides as a rest array.
    const limits = options.limits === undefined ? DEFAULT_LIMITS : resolveLimits(options.limits);
    const source = new Source(String(text), options.name ?? 'template');
    const safe = options.mode !== 'strict';
    const parsed = parseTemplate(source, this.env, { safe, preprocess: options.preprocess === true, limits });
    const code = parsed.ast ? emitTemplate(parsed.ast, { source, limits, lazy: true }) : null;
    return new Template(this, source, parsed.ast, code, parsed.diagnostics, limits);
  }

  /** Compiles through a bounded cache keyed by text and options. */
  cached(text: string, options: CompileOptions = {}): Template {
    const key = optionsKey(options);
    let entries = this.cache.get(text);
    if (entries !== undefined) {
      // Refresh recency (the text's forms move together).
      this.cache.delete(text);
      this.cache.set(text, entries);
      for (const e of entries) if (e.key === key) return e.template;
    }
    const template = this.compile(text, options);
    if (entries === undefined) this.cache.set(text, (entries = []));
    entries.push({ key, template });
    // Whole texts are let go, least recently used first. The text just compiled is the most
    // recent, so it is reached only when it is the last one left: its oldest forms go then.
    this.cacheCount++;
    while (this.cacheCount > CACHE_SIZE) {
      const oldest = this.cache.keys().next().value as string;
      const gone = this.cache.get(oldest) as CachedTemplate[];
      if (oldest === text) {
        gone.shift();
        this.cacheCount--;
      } else {
        this.cache.delete(oldest);
        this.cacheCount -= gone.length;
      }
    }
    return template;
  }

  render(text: string, data: unknown, options: RenderOptions = {}): RenderResult {
    // The render options hold the compile options (mode, preprocess, limits) and others that
    // neither `compile` nor the cache's key reads.
    return this.cached(text, options).render(data, options);
  }

  /** RuntimeHost: partials compile in normal mode with the execution's safety (§6.1). */
  compilePartial(text: string, name: string, safe: boolean): { code: Code | null; diagnostics: readonly Diagnostic[] } {
    let entries = this.partialCache.get(text);
    let hit: CompiledPartial | undefined;
    if (entries !== undefined) {
      for (const e of entries) {
        if (e.name === name && e.safe === safe) {
          hit = e;
          break;
        }
      }
    }
    if (hit === undefined) {
      const t = this.compile(text, { mode: safe ? 'safe' : 'strict', name });
      hit = { name, safe, code: t.ok ? t.code : null, diagnostics: t.diagnostics };
      if (this.partialCount >= CACHE_SIZE) {
        this.partialCache.clear();
        this.partialCount = 0;
        entries = undefined;
      }
      if (entries === undefined) this.partialCache.set(text, (entries = []));
      entries.push(hit);
      this.partialCount++;
    }
    // A strict partial that failed to compile still counts as found: the caller reports it.
    return hit.code === null && hit.diagnostics.length ? { code: NOTHING, diagnostics: hit.diagnostics } : hit;
  }

  /**
   * Refs that binders ask for are mostly constants of plugin code (`localizedStrings`,
   * `website.timeZone`, the fields `item-classes` reads), the same in every template, so
   * they are compiled once per engine. Bounded: binders also parse refs from template
   * arguments.
   */
  private bindRef(text: string): CompiledRef | null {
    let r = this.bindRefs.get(text);
    if (r === undefined) {
      const segments = parseVariable(text);
      r = segments ? new CompiledRef(text, segments) : null;
      if (this.bindRefs.size >= CACHE_SIZE) this.bindRefs.clear();
      this.bindRefs.set(text, r);
    }
    return r;
  }

  private builtin(text: string): TemplateHandle {
    // Looked up by the text as given first: a binder passes the same string constant on every
    // compile, whose hash V8 keeps, whereas trimming makes a new string to hash each time.
    const given = this.registry.builtins.get(text);
    if (given) return given;
    const trimmed = text.trim();
    const hit = this.registry.builtins.get(trimmed);
    if (hit) {
      this.registry.builtins.set(text, hit);
      return hit;
    }
    const t = this.compile(trimmed, { mode: 'strict', name: 'builtin' });
    if (!t.ok) throw new Error(`built-in template does not compile: ${t.diagnostics.map((d) => formatDiagnostic(d)).join('; ')}`);
    const handle: BuiltinHandle = { source: trimmed, code: t.code as Code };
    this.registry.builtins.set(trimmed, handle);
    this.registry.builtins.set(text, handle);
    return handle;
  }
}

interface CompiledPartial {
  readonly name: string;
  readonly safe: boolean;
  readonly code: Code | null;
  readonly diagnostics: readonly Diagnostic[];
}

const NOTHING: Code = { run: () => {}, source: new Source('', 'partial') };

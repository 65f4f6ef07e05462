// Render-time state: the frame stack, the output buffer, diagnostics and limits. One Runtime
// per render; it is also the PluginContext handed to formatters and predicates.
//
// Frames are pooled (one object per depth, reused) so pushing a section or an element
// allocates nothing. Lookups follow LANGUAGE §2.3: the first segment walks the stack (or,
// for sections, only the current frame), later segments descend; own properties only.

import { Abort, type Diagnostic, type DiagnosticCode, formatDiagnostic, makeDiagnostic } from './diagnostics.ts';
import { CLOCK_STEPS, type Limits } from './limits.ts';
import { parseVariable, type Segment } from './path.ts';
import { JavaError, type PluginContext, type Ref, type TemplateHandle, TEXT_PER_STEP } from './plugin-api.ts';
import type { Inst, OrNode } from './ast.ts';
import { repr } from './print.ts';
import type { Source, Span } from './source.ts';
import { isInheritedName, JDouble, type JsonObject, textOf, tryParseJson, type Value } from './value.ts';

export type Exec = (rt: Runtime) => void;

/** Executable code with the source its spans point into: a template, partial or macro body. */
export interface Code {
  readonly run: Exec;
  readonly source: Source;
}

export class Frame {
  node: Value = undefined;
  /**
   * Local variables (`.var`, `.ctx`, `.inject`, `@args`) as names and values side by side,
   * `varCount` of them live. The arrays stay with the pooled frame, so binding a variable in
   * a block that runs once per item allocates nothing after the first item.
   */
  varNames: string[] = [];
  varValues: Value[] = [];
  varCount = 0;
  macros: Map<string, Code> | null = null;
  /** Position while a `.repeated section` iterates over this frame's array; -1 otherwise. */
  index = -1;
  /** Private partial application: lookups stop here. */
  stop = false;
  /**
   * The last plugin lookup (`Runtime.lookup`) answered from this frame downward: its ref and
   * the first segment's value. Frames below cannot change while this one is live, so it
   * holds until the frame is pushed again. A formatter pushes a frame for its value, so the
   * answer is kept one frame down, where the next call (the `datetime` and the text of one
   * comment's date) finds it.
   */
  memoRef: CompiledRef | null = null;
  memoValue: Value = undefined;
}

// ---- references ---------------------------------------------------------------------

const enum First {
  Key,
  OwnKey,
  Index,
  Current,
  Iter,
  Iter0,
  Local,
}

/** A variable reference compiled once: first-segment kind and pre-split tail. */
const NO_SEGMENTS: readonly Segment[] = Object.freeze([]);

export class CompiledRef implements Ref {
  readonly first: First;
  readonly key: string | number;
  readonly rest: readonly Segment[];
  /** The reference is exactly `@`: the current node, no lookup at all. */
  readonly isAt: boolean;
  /** Some tail segment is an inherited name and needs an own-property check. */
  readonly restGuarded: boolean;
  /** The first segment is a member name that no plain object inherits. */
  readonly isPlainKey: boolean;

  constructor(
    readonly text: string,
    segments: readonly Segment[],
  ) {
    const s0 = segments[0];
    this.isAt = text === '@';
    // Most references have one segment: they share the empty tail (no array, no scan).
    this.rest = segments.length === 1 ? NO_SEGMENTS : segments.slice(1);
    let guarded = false;
    for (let i = 1; i < segments.length && !guarded; i++) {
      const s = segments[i];
      guarded = typeof s === 'string' && isInheritedName(s);
    }
    this.restGuarded = guarded;
    this.key = s0;
    if (typeof s0 === 'number') this.first = First.Index;
    else if (s0 === '@') this.first = First.Current;
    else if (s0 === '@index') this.first = First.Iter;
    else if (s0 === '@index0') this.first = First.Iter0;
    else if (s0.charCodeAt(0) === 0x40) this.first = First.Local;
    else this.first = isInheritedName(s0) ? First.OwnKey : First.Key;
    this.isPlainKey = this.first === First.Key;
  }
}

function frameVar(f: Frame, name: string): Value {
  const names = f.varNames;
  for (let i = 0; i < f.varCount; i++) if (names[i] === name) return f.varValues[i];
  return undefined;
}

function isMap(n: Value): n is JsonObject {
  return typeof n === 'object' && n !== null && !Array.isArray(n) && !(n instanceof JDouble);
}

/**
 * A plain key (`{name}`, the head of `{a.b}`) read on one frame's node: the frame walks of
 * `lookup` and of compiled getters (compile.ts) both use it. An array (the frame of every
 * repeated section) answers nothing, so it is not read: a name an array lacks is looked up
 * along Array.prototype too. On an object it reads first and type-checks only a hit: most
 * frames that are searched miss, and a miss needs no check (what a double answers, `value`,
 * does not count).
 */
export function plainMember(n: Value, key: string): Value {
  if (typeof n !== 'object' || n === null || Array.isArray(n)) return undefined;
  const v = (n as JsonObject)[key];
  return v === undefined || n instanceof JDouble ? undefined : v;
}

/** The first segment against one frame. */
function inFrame(f: Frame, r: CompiledRef): Value {
  switch (r.first) {
    case First.Key: {
      const n = f.node;
      return isMap(n) ? n[r.key as string] : undefined;
    }
    case First.OwnKey: {
      const n = f.node;
      return isMap(n) && Object.prototype.hasOwnProperty.call(n, r.key) ? n[r.key as string] : undefined;
    }
    case First.Index: {
      const n = f.node;
      return Array.isArray(n) ? n[r.key as number] : undefined;
    }
    case First.Current:
      return f.node;
    case First.Iter:
      return f.index >= 0 ? f.index + 1 : undefined;
    case First.Iter0:
      return f.index >= 0 ? f.index : undefined;
    case First.Local:
      return frameVar(f, r.key as string);
  }
}

export function descend(v: Value, rest: readonly Segment[], guarded: boolean): Value {
  for (let i = 0; i < rest.length; i++) {
    if (v === undefined || v === null) return undefined;
    const s = rest[i];
    if (typeof s === 'number') {
      v = Array.isArray(v) ? v[s] : undefined;
    } else {
      if (!isMap(v)) return undefined;
      v = guarded && isInheritedName(s) && !Object.prototype.hasOwnProperty.call(v, s) ? undefined : v[s];
    }
  }
  return v;
}

// ---- the runtime ----------------------------------------------------------------------

export interface RuntimeOptions {
  readonly strict: boolean;
  readonly limits: Limits;
  readonly locale: string;
  readonly now: number;
  readonly timeZone: string | undefined;
  readonly partials: Readonly<Record<string, unknown>> | undefined;
  readonly injects: Readonly<Record<string, unknown>> | undefined;
  readonly include: boolean;
}

/** What the runtime needs from the engine that owns it (partial compilation). */
export interface RuntimeHost {
  compilePartial(source: string, name: string, safe: boolean): { code: Code | null; diagnostics: readonly Diagnostic[] };
}

const TIME_ZONE_REF = new CompiledRef('website.timeZone', ['website', 'timeZone']);
const EMPTY: readonly Value[] = [];
/**
 * Characters of top-level output per chunk (see `Runtime.chunks`). Each chunk is one write
 * into the server's slab; a chunk holding a character beyond Latin-1 is flattened two bytes a
 * character, so smaller chunks keep such a character from widening more of the page.
 */
export const OUTPUT_CHUNK = 4096;
/** Texts at least this long are appended as chunks of their own (`Runtime.appendLong`). */
export const LONG_TEXT = 4096;

export class Runtime implements PluginContext {
  out = '';
  depth = -1;
  steps = 0;
  partialDepth = 0;
  droppedErrors = 0;
  readonly frames: Frame[] = [];
  readonly errors: Diagnostic[] = [];
  readonly strict: boolean;
  readonly locale: string;
  readonly now: number;
  /**
   * Length at which `out` is next looked at (every append compares against it): the output
   * limit inside a capture, and at the top level the next chunk boundary (`OUTPUT_CHUNK`).
   */
  maxOut: number;
  /** `limits.maxOutputLength`: the whole output's bound, and each captured text's. */
  readonly outLimit: number;
  /**
   * Finished pieces of the top-level output (or, inside `captureChunks`, of the captured
   * text), in order; `out` is the one being written. A server encodes them one by one
   * (renderer/pages/document-bytes.ts), so each is flattened on its own: as one rope, a page
   * with a single character beyond Latin-1 (a `—` in its title) flattened into a two-byte copy
   * of the whole page, ~47% of all the memory a render of the gallery page allocated
   * (bench/README.md, "Output in chunks").
   */
  chunks: string[] = [];
  /** Characters in `chunks`. */
  private flushed = 0;
  /** An empty chunk list for `captureChunks` to take. */
  private spareChunks: string[] | null = null;
  /**
   * Open captures that keep their text whole (`apply` whose text goes on through a formatter or
   * into a variable, a silent include): it stays in `out` whatever its length.
   */
  private capturing = 0;
  readonly maxSteps: number;
  /**
   * The instruction count at which `passMark` runs next: the clock is read there, and the
   * instruction limit checked (at most `maxSteps`). One comparison per block, as before there
   * was a clock.
   */
  stepMark: number;
  /** `performance.now()` past which the render ends with LIMIT_TIME (`limits.maxRenderMs`). */
  private readonly deadline: number;
  private readonly maxRenderMs: number;
  /** Characters counted by `made` so far, and their bound, `limits.maxTextMade`. */
  private textMade = 0;
  private readonly maxTextMade: number;
  /** Source and span of the instruction being executed, for errors raised through the context. */
  curSource: Source;
  curSpan: Span = { start: 0, end: 0 };
  private partialCodes: Map<string, Code | null> | null = null;
  private injectCache: Map<string, Value> | null = null;

  constructor(
    readonly opts: RuntimeOptions,
    readonly host: RuntimeHost,
    source: Source,
  ) {
    this.strict = opts.strict;
    this.locale = opts.locale;
    this.now = opts.now;
    this.outLimit = opts.limits.maxOutputLength;
    this.maxOut = Math.min(OUTPUT_CHUNK, this.outLimit);
    this.maxSteps = opts.limits.maxInstructions;
    this.stepMark = Math.min(this.maxSteps, CLOCK_STEPS);
    this.maxRenderMs = opts.limits.maxRenderMs;
    this.deadline = performance.now() + this.maxRenderMs;
    this.maxTextMade = opts.limits.maxTextMade;
    this.curSource = source;
  }

  static readonly EMPTY = EMPTY;

  // ---- frames ----

  push(node: Value): Frame {
    const d = ++this.depth;
    let f = this.frames[d];
    if (f === undefined) {
      f = new Frame();
      this.frames[d] = f;
    } else {
      f.varCount = 0;
      f.macros = null;
      f.index = -1;
      f.stop = false;
      f.memoRef = null;
    }
    f.node = node;
    return f;
  }

  pop(): void {
    this.frames[this.depth--].node = undefined;
  }

  top(): Frame {
    return this.frames[this.depth];
  }

  setVar(name: string, v: Value): void {
    // A text longer than the output may hold can never be printed whole; kept in a variable
    // it could grow on: `{.var @v @v|raw}` in a partial that includes itself doubles its
    // escapes at every level, and a 499-character template (found by the fuzz) ran the
    // process out of memory. It ends the render as the output limit does.
    if (typeof v === 'string' && v.length > this.outLimit) this.tooLong();
    const f = this.frames[this.depth];
    const names = f.varNames;
    let i = 0;
    while (i < f.varCount && names[i] !== name) i++;
    if (i === f.varCount) {
      names[i] = name;
      f.varCount++;
    }
    f.varValues[i] = v;
  }

  /** Stack lookup (§2.3). */
  lookup(r: CompiledRef): Value {
    let v: Value;
    if (r.isAt) return this.frames[this.depth].node;
    if (r.isPlainKey) {
      // The common case (plugins resolving `website.timeZone`, `localizedStrings` …): the
      // member read inlined, without the per-frame kind switch.
      const key = r.key as string;
      const frames = this.frames;
      const top = this.depth;
      let d = top;
      for (; d >= 0; d--) {
        const f = frames[d];
        if (f.memoRef === r) {
          v = f.memoValue;
          break;
        }
        v = plainMember(f.node, key);
        if (v !== undefined || f.stop) break;
      }
      // Every frame above `d` missed, so a search from any frame in [d, top] gives `v`.
      const below = top - 1;
      if (below >= 0 && below >= d) {
        const f = frames[below];
        f.memoRef = r;
        f.memoValue = v;
      }
    } else {
      for (let d = this.depth; d >= 0; d--) {
        const f = this.frames[d];
        v = inFrame(f, r);
        if (v !== undefined) break;
        if (f.stop) break;
      }
    }
    return r.rest.length === 0 ? v : descend(v, r.rest, r.restGuarded);
  }

  /** Current-frame-only lookup, for `.section` and `.repeated section` (§4.1). */
  lookupHere(r: CompiledRef): Value {
    const v = inFrame(this.frames[this.depth], r);
    return r.rest.length === 0 ? v : descend(v, r.rest, r.restGuarded);
  }

  // ---- output and limits ----

  /** The output, or a text kept in a variable (`setVar`), over the output limit: LIMIT_OUTPUT ends the render. */
  tooLong(): never {
    throw new Abort(
      makeDiagnostic('LIMIT_OUTPUT', `Output exceeds the limit of ${this.outLimit} characters`, this.curSource, this.curSpan, { limit: 'maxOutputLength' }),
    );
  }

  /**
   * `out` grew past `maxOut`: at the top level, within the limit, it becomes a chunk;
   * otherwise the output is over the limit. The appends already compare against `maxOut`
   * for the limit, so chunking costs them nothing.
   */
  overflow(source?: Source, span?: { start: number; end: number }): void {
    const total = this.flushed + this.out.length;
    if (this.capturing === 0 && total <= this.outLimit) {
      this.chunks.push(this.out);
      this.nextChunk(total);
      return;
    }
    // Where the append was, when the caller knows it: `curSpan` is set only by formatters and
    // partials, and LIMIT_OUTPUT from `{s}` in a loop pointed at the template's first text.
    if (source !== undefined && span !== undefined) {
      this.curSource = source;
      this.curSpan = span;
    }
    this.tooLong();
  }

  /**
   * Appends a text of at least `LONG_TEXT` characters. At the top level it becomes a chunk of
   * its own, after the output so far: encoded on its own, a text read as it is (a string of
   * the data is flat) is written as it is, where inside a chunk it is first copied into the
   * chunk's flat string, and past 128 KB that copy is made outside V8's young generation, 12
   * to 60 times as slow a character (bench/README.md, "Dates, long texts and captures").
   * Inside a capture, or over the output limit, it is appended as any text is.
   */
  appendLong(text: string, source?: Source, span?: { start: number; end: number }): void {
    const total = this.flushed + this.out.length + text.length;
    if (this.capturing > 0 || total > this.outLimit) {
      if ((this.out += text).length > this.maxOut) this.overflow(source, span);
      return;
    }
    if (this.out.length > 0) this.chunks.push(this.out);
    this.chunks.push(text);
    this.nextChunk(total);
  }

  /** Starts an empty chunk after `total` characters of chunks. */
  private nextChunk(total: number): void {
    this.out = '';
    this.flushed = total;
    this.maxOut = Math.min(OUTPUT_CHUNK, this.outLimit - total);
  }

  /** The whole output: the chunks and the last piece, as the pieces to encode and as one (rope) string. */
  finishOutput(): { html: string; parts: readonly string[] } {
    const { chunks } = this;
    if (this.out.length > 0 || chunks.length === 0) chunks.push(this.out);
    let html = chunks[0];
    for (let i = 1; i < chunks.length; i++) html += chunks[i];
    return { html, parts: chunks };
  }

  /** Starts writing a text of its own (a capture); returns what `endCapture` restores. */
  private beginCapture(): { out: string; maxOut: number } {
    const saved = { out: this.out, maxOut: this.maxOut };
    this.out = '';
    this.maxOut = this.outLimit;
    this.capturing++;
    return saved;
  }

  private endCapture(saved: { out: string; maxOut: number }): void {
    this.out = saved.out;
    this.maxOut = saved.maxOut;
    this.capturing--;
  }

  /**
   * Counts a text made in this render that the output limit does not see as it is made: a
   * formatter's result passed on to the next formatter or kept in a variable (`apply`'s
   * captured text among them), the text of a partial included without `output`. Each such
   * text is bounded (the output limit), but not their number: a 16 Mi text written again by
   * `raw` for each item of a list cost 450 ms an item, and 1,000 items were a render of
   * minutes (bench/README.md, "Escape-dense texts").
   */
  made(v: Value): void {
    if (typeof v === 'string' && (this.textMade += v.length) > this.maxTextMade) {
      throw new Abort(
        makeDiagnostic('LIMIT_TEXT', `Text made but not printed exceeds the limit of ${this.maxTextMade} characters`, this.curSource, this.curSpan, { limit: 'maxTextMade' }),
      );
    }
  }

  /**
   * Charges work on long texts to the instruction budget, one instruction per `TEXT_PER_STEP`
   * characters: a formatter given a text, comparing texts or reading one as a number takes
   * time in their length, and an instruction can do it many times. A 176 K post body compared
   * with another in `.eval` or `greaterThan?` was 13 µs, and a 330-character template (a macro
   * applying itself eight times, four comparisons each) ran 56 s within the instruction limit
   * (bench/README.md, "Long texts worked on in a fan-out").
   */
  work(chars: number): void {
    if ((this.steps += Math.floor(chars / TEXT_PER_STEP)) > this.stepMark) this.passMark();
  }

  spend(steps: number, made: number, printed: number): boolean {
    if (this.steps + steps > this.maxSteps || this.textMade + made > this.maxTextMade || printed > this.outLimit) return false;
    this.textMade += made;
    if ((this.steps += steps) > this.stepMark) this.passMark();
    return true;
  }

  /**
   * The instruction count passed `stepMark`: past `maxSteps` the render ends with
   * LIMIT_INSTRUCTIONS; past its deadline, with LIMIT_TIME; otherwise the next mark is set
   * `CLOCK_STEPS` further.
   */
  passMark(): void {
    if (this.steps > this.maxSteps) this.overBudget();
    if (performance.now() > this.deadline) {
      throw new Abort(
        makeDiagnostic('LIMIT_TIME', `Rendering took longer than the limit of ${this.maxRenderMs} ms`, this.curSource, this.curSpan, { limit: 'maxRenderMs' }),
      );
    }
    this.stepMark = Math.min(this.maxSteps, this.steps + CLOCK_STEPS);
  }

  overBudget(): never {
    throw new Abort(
      makeDiagnostic('LIMIT_INSTRUCTIONS', `Rendering exceeded the limit of ${this.maxSteps} instructions`, this.curSource, this.curSpan, { limit: 'maxInstructions' }),
    );
  }

  // ---- errors ----

  /** Records a runtime error; in strict mode the codes that abort execution throw. */
  error(code: DiagnosticCode, message: string, source: Source, span: Span, children?: Diagnostic[], throws = true): void {
    if (!(this.strict && throws) && this.errors.length >= this.opts.limits.maxErrors) {
      this.droppedErrors++;
      return;
    }
    const d = makeDiagnostic(code, message, source, span, { children });
    if (this.strict && throws) throw new Abort(d);
    this.errors.push(d);
  }

  /** The diagnostics of this render, with the LIMIT_ERRORS summary when some were dropped. */
  finalErrors(): Diagnostic[] {
    if (this.droppedErrors === 0) return this.errors;
    const d = makeDiagnostic('LIMIT_ERRORS', `${this.droppedErrors} more runtime errors were not recorded (limit ${this.opts.limits.maxErrors})`, this.curSource, this.curSpan, {
      limit: 'maxErrors',
      severity: 'warning',
    });
    return [...this.errors, d];
  }

  unexpected(e: unknown, node: Inst | OrNode, source: Source, span: Span): void {
    if (e instanceof Abort) throw e;
    let cls = 'RuntimeException';
    let msg = String(e);
    if (e instanceof JavaError) {
      cls = e.javaClass;
      msg = e.message;
    } else if (e instanceof RangeError) {
      cls = 'StackOverflowError';
      msg = e.message;
    } else if (e instanceof Error) {
      cls = e.name === 'TypeError' ? 'NullPointerException' : 'RuntimeException';
      msg = e.message;
    }
    this.error('UNEXPECTED_ERROR', `Unexpected ${cls} when executing ${repr(node)}: ${msg}`, source, span);
  }

  // ---- partials and macros (§6) ----

  private findCode(name: string, verb: 'apply' | 'include'): Code | null {
    for (let d = this.depth; d >= 0; d--) {
      const m = this.frames[d].macros;
      if (m !== null) {
        const c = m.get(name);
        if (c !== undefined) return c;
      }
    }
    const cache = this.partialCodes ?? (this.partialCodes = new Map());
    if (cache.has(name)) return cache.get(name)!;
    const partials = this.opts.partials;
    const src = partials && Object.prototype.hasOwnProperty.call(partials, name) ? partials[name] : undefined;
    let code: Code | null = null;
    if (typeof src === 'string') {
      const compiled = this.host.compilePartial(src, name, !this.strict);
      if (compiled.diagnostics.length) {
        if (this.strict) {
          const first = formatDiagnostic(compiled.diagnostics[0], false);
          if (verb === 'apply') this.error('APPLY_PARTIAL_SYNTAX', `Applying partial '${name}' raised an error: ${first}`, this.curSource, this.curSpan);
          else this.error('INCLUDE_PARTIAL_SYNTAX', `Include partial '${name}' raised an error: ${first}`, this.curSource, this.curSpan);
        } else {
          this.error('COMPILE_PARTIAL_SYNTAX', `Compiling partial '${name}' raised errors:`, this.curSource, this.curSpan, [...compiled.diagnostics]);
        }
      }
      code = compiled.code;
    }
    cache.set(name, code);
    return code;
  }

  applyPartial(name: string, value: Value, isPrivate: boolean, args: { [key: string]: string } | undefined): Value {
    return this.applyPartialAs(name, value, isPrivate, args, false) as Value;
  }

  applyPartialPieces(name: string, value: Value, isPrivate: boolean, args: { [key: string]: string } | undefined): string | readonly string[] | undefined {
    return this.applyPartialAs(name, value, isPrivate, args, true);
  }

  private applyPartialAs(name: string, value: Value, isPrivate: boolean, args: { [key: string]: string } | undefined, inPieces: boolean): string | readonly string[] | undefined {
    const source = this.curSource;
    const span = this.curSpan;
    const code = this.findCode(name, 'apply');
    if (code === null) {
      this.error('APPLY_PARTIAL_MISSING', `Attempt to apply partial '${name}' which could not be found.`, source, span);
      return undefined;
    }
    if (++this.partialDepth > this.opts.limits.maxPartialDepth) {
      this.partialDepth--;
      this.error('APPLY_PARTIAL_RECURSION_DEPTH', `Recursion through partial ${name} exceeded maximum depth of ${this.opts.limits.maxPartialDepth}`, source, span);
      return undefined;
    }
    try {
      const copy = args === undefined ? undefined : { ...args };
      // Chunked only where the output would be (not inside another capture).
      return inPieces && this.capturing === 0 ? this.captureChunks(code, value, isPrivate, copy) : this.capture(code, value, isPrivate, copy);
    } finally {
      this.partialDepth--;
    }
  }

  /**
   * `capture`, its output cut into chunks as the page's own is (`overflow`), each captured text
   * still measured on its own against the output limit (§6.2): one string of a whole listing
   * (a partial applied once to print every product) was flattened into one copy when the page
   * was encoded, past 128 KB outside V8's young generation (bench/README.md, "Dates, long
   * texts and captures").
   */
  private captureChunks(code: Code, node: Value, isPrivate: boolean, args: Value): string | readonly string[] {
    const chunks = this.chunks;
    const flushed = this.flushed;
    const out = this.out;
    const maxOut = this.maxOut;
    // Most captures stay under a chunk: their list, still empty, is kept for the next one.
    const own = this.spareChunks ?? [];
    this.spareChunks = null;
    this.chunks = own;
    this.flushed = 0;
    this.out = '';
    this.maxOut = Math.min(OUTPUT_CHUNK, this.outLimit);
    try {
      this.capture(code, node, isPrivate, args, false);
      if (own.length === 0) {
        this.spareChunks = own;
        return this.out;
      }
      if (this.out.length > 0) own.push(this.out);
      return own;
    } finally {
      this.chunks = chunks;
      this.flushed = flushed;
      this.out = out;
      this.maxOut = maxOut;
    }
  }

  /**
   * Runs code in a new frame with its output redirected into a fresh buffer (§6.2 steps 3–5),
   * or, without `own`, into the output as it stands (set up by `captureChunks`).
   */
  private capture(code: Code, node: Value, isPrivate: boolean, args: Value, own = true): string {
    const depth = this.depth;
    const source = this.curSource;
    const span = this.curSpan;
    const saved = own ? this.beginCapture() : null;
    const f = this.push(node);
    f.stop = isPrivate;
    if (args !== undefined) this.setVar('@args', args);
    try {
      code.run(this);
      return this.out;
    } finally {
      this.depth = depth;
      if (saved !== null) this.endCapture(saved);
      this.curSource = source;
      this.curSpan = span;
    }
  }

  include(name: string, output: boolean, source: Source, span: Span): void {
    this.curSource = source;
    this.curSpan = span;
    const code = this.findCode(name, 'include');
    if (code === null) {
      this.error('INCLUDE_PARTIAL_MISSING', `Attempt to include partial '${name}' which could not be found.`, source, span);
      return;
    }
    // Reference quirk (§6.3): a refused include leaves the counter raised.
    if (++this.partialDepth > this.opts.limits.maxPartialDepth) {
      this.error('APPLY_PARTIAL_RECURSION_DEPTH', `Recursion through partial ${name} exceeded maximum depth of ${this.opts.limits.maxPartialDepth}`, source, span);
      return;
    }
    if (output) {
      code.run(this);
    } else {
      const saved = this.beginCapture();
      try {
        code.run(this);
        this.made(this.out);
      } finally {
        this.endCapture(saved);
      }
    }
    this.partialDepth--;
  }

  registerMacro(name: string, code: Code): void {
    const f = this.frames[this.depth];
    (f.macros ?? (f.macros = new Map())).set(name, code);
  }

  injected(path: string): Value {
    const cache = this.injectCache ?? (this.injectCache = new Map());
    if (cache.has(path)) return cache.get(path);
    const injects = this.opts.injects;
    const raw = injects && Object.prototype.hasOwnProperty.call(injects, path) ? injects[path] : undefined;
    const v = typeof raw === 'string' ? tryParseJson(raw) : (raw as Value);
    cache.set(path, v);
    return v;
  }

  // ---- PluginContext ----

  node(): Value {
    return this.frames[this.depth].node;
  }

  resolve(ref: Ref): Value {
    return this.lookup(ref as CompiledRef);
  }

  resolveText(text: string): Value {
    const segments = parseVariable(text);
    return segments ? this.lookup(new CompiledRef(text, segments)) : undefined;
  }

  timeZone(): string {
    // PLUGINS §14.1: missing → the host default; any other value is used as text, and an
    // id that names no zone (`null`, '') is the formatter's business (it falls back to UTC).
    const tz = this.lookup(TIME_ZONE_REF);
    if (tz === undefined) return this.opts.timeZone ?? 'America/New_York';
    return typeof tz === 'string' ? tz : textOf(tz);
  }

  parentNode(): Value {
    return this.depth > 0 ? this.frames[this.depth - 1].node : undefined;
  }

  runTemplate(template: TemplateHandle, node: Value, isPrivate: boolean): string {
    return this.capture((template as BuiltinHandle).code, node, isPrivate, undefined);
  }
}

export interface BuiltinHandle extends TemplateHandle {
  readonly code: Code;
}

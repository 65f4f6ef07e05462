// Parser: tokens from the lexer → instructions → block tree (LANGUAGE §1.3–§1.7, §3, §4).
//
// Tag bodies are parsed by hand rather than by a generated grammar because the reference's
// error messages quote "the unparsed remainder of the tag body at the point of failure"
// (`Whitespace expected, found '…'`), and a malformed tag must become literal text in safe
// mode; a small cursor over each body reproduces both exactly. Blocks are assembled in the
// same pass by the state machine of §4.16.

import type {
  AlternatesNode,
  BlockNode,
  FormatterCall,
  Inst,
  OrNode,
  PluginArgs,
  PredicateCall,
  TemplateAst,
  VarRef,
} from './ast.ts';
import { AST_VERSION } from './ast.ts';
import { Abort, type Diagnostic, type DiagnosticCode, makeDiagnostic } from './diagnostics.ts';
import { TemplateScanner, Tok } from './lexer.ts';
import type { Limits } from './limits.ts';
import { scanVariable, scanWord, splitVariable } from './path.ts';
import { ArgsError, type BindContext, type TemplateHandle } from './plugin-api.ts';
import { repr } from './print.ts';
import type { Registry } from './registry.ts';
import type { CompiledRef } from './runtime.ts';
import type { Source, Span } from './source.ts';
import { latin1Image } from './value.ts';

export interface ParseOptions {
  readonly safe: boolean;
  readonly preprocess: boolean;
  readonly limits: Limits;
}

export interface BindEnv {
  readonly registry: Registry;
  compileTemplate(source: string): TemplateHandle;
  /** A binder's reference text → its compiled Ref, or null when it is not a reference. */
  bindRef(text: string): CompiledRef | null;
}

export interface ParseResult {
  /** Null only when a limit stopped parsing or strict mode met a syntax error. */
  readonly ast: TemplateAst | null;
  readonly diagnostics: Diagnostic[];
}

const KEYWORDS = new Set([
  'alternates', 'ctx', 'end', 'eval', 'if', 'include', 'inject', 'macro', 'meta-left', 'meta-right',
  'newline', 'or', 'repeated', 'section', 'space', 'tab', 'var',
]);

/** The keywords by their first letter: one short list to compare instead of all 17 per tag. */
const KEYWORDS_BY_LETTER: (string[] | undefined)[] = [];
for (const k of KEYWORDS) (KEYWORDS_BY_LETTER[k.charCodeAt(0)] ??= []).push(k);

/** The keyword spelled by `b[1, w)`, compared in place (no slice to hash per tag), or null. */
function keywordAt(b: string, w: number): string | null {
  const n = w - 1;
  const list = KEYWORDS_BY_LETTER[b.charCodeAt(1)];
  if (list === undefined) return null;
  for (const k of list) if (k.length === n && b.startsWith(k, 1)) return k;
  return null;
}

const LITERAL_TYPES = { 'meta-left': 'META_LEFT', 'meta-right': 'META_RIGHT', newline: 'NEWLINE', space: 'SPACE', tab: 'TAB' } as const;

function isWs(c: number): boolean {
  // space, \t, \n, \u000B, \f, \r
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

function skipWs(s: string, i: number): number {
  while (i < s.length && isWs(s.charCodeAt(i))) i++;
  return i;
}

function isPathChar(c: number): boolean {
  return (
    (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) ||
    c === 0x5f || c === 0x2e || c === 0x2f || c === 0x2d
  );
}

function scanPath(s: string, i: number): number {
  const start = i;
  while (i < s.length && isPathChar(s.charCodeAt(i))) i++;
  return i > start ? i : -1;
}

/** Sources this short are checked for characters beyond Latin-1 without the regex. */
const SHORT_SOURCE = 64;
/** A run of characters beyond Latin-1 (global: `prepareNarrowRuns` walks them with `exec`). */
const WIDE_RUN = /[^\u0000-\u00ff]+/g;

/** Runs of a source between characters beyond Latin-1 that are copied one-byte (`cut`), at most. */
const MAX_NARROW_RUNS = 16;

const NO_ARGS: PluginArgs = Object.freeze({ raw: '', delimiter: '', args: Object.freeze([] as string[]) });

/** Splits plugin arguments: the first character is the delimiter, empty pieces dropped (§3.2). */
export function splitArgs(raw: string): PluginArgs {
  // Most plugin calls have no arguments (`|html`, `|json`): they share one frozen answer.
  if (raw.length === 0) return NO_ARGS;
  const delimiter = raw[0];
  const args: string[] = [];
  let start = 1;
  for (;;) {
    const at = raw.indexOf(delimiter, start);
    const end = at < 0 ? raw.length : at;
    if (end > start) args.push(raw.slice(start, end));
    if (at < 0) break;
    start = at + 1;
  }
  return { raw, delimiter, args };
}

/** What a tag turned out to be: a node, or one of the three outcomes that make none. */
type TagResult = Inst | OrNode | AlternatesNode | TagOutcome;

interface TagOutcome {
  /** `#text`: the tag is literal text; `#drop`: it vanishes; `#end`: it closes a block. */
  readonly kind: '#text' | '#drop' | '#end';
}

const TEXT: TagOutcome = { kind: '#text' };
/** Shared by every variable without formatters (the tree is never mutated). */
const NO_FORMATTERS: readonly FormatterCall[] = Object.freeze([]);
const END: TagOutcome = { kind: '#end' };

type BlockState = 'SECTION' | 'REPEATED' | 'ALTERNATES_WITH' | 'PREDICATE' | 'IF' | 'OR_PREDICATE' | 'MACRO';

interface OpenBlock {
  readonly node: BlockNode;
  /** The node whose body receives instructions: the block, its `.or`, or its alternates. */
  cur: BlockNode | OrNode | AlternatesNode;
  state: BlockState;
}

function stateOf(kind: BlockNode['kind']): BlockState {
  switch (kind) {
    case 'section': return 'SECTION';
    case 'repeated': return 'REPEATED';
    case 'predicate': return 'PREDICATE';
    case 'if': return 'IF';
    case 'macro': return 'MACRO';
  }
}

class ParserBindContext implements BindContext {
  name = '';
  delimiter = '';
  raw = '';

  constructor(private readonly env: BindEnv) {}

  parseRef(text: string): CompiledRef | null {
    return this.env.bindRef(text);
  }

  compileTemplate(source: string): TemplateHandle {
    return this.env.compileTemplate(source);
  }
}

class TemplateParser {
  // Made on the first error: most templates have none. Each keeps `limits.maxErrors` at most;
  // the errors past that are counted (`dropped`), not made, and `kept` reports them in one
  // warning.
  private tokenErrors: Diagnostic[] | null = null;
  private blockErrors: Diagnostic[] | null = null;
  private dropped = 0;
  /** Where each group's first error not made was found. */
  private tokenDropped: Span | null = null;
  private blockDropped: Span | null = null;
  private readonly root: Inst[] = [];
  private readonly stack: OpenBlock[] = [];
  private bindCtx: ParserBindContext | null = null;
  /** Where the list last scanned by `variableList` ends. */
  private listEnd = 0;
  /** Body of the innermost open block (or the root): where the next node goes. */
  private body: Inst[] = this.root;
  // Position of the current tag while its body is parsed.
  private tagStart = 0;
  private tagEnd = 0;
  private bodyStart = 0;
  private pre = false;
  /** The literal text gathered so far and not yet a node (`text`); `textEnd` -1 when none. */
  private textStart = 0;
  private textEnd = -1;

  constructor(
    private readonly source: Source,
    private readonly env: BindEnv,
    private readonly opts: ParseOptions,
  ) {}

  parse(): ParseResult {
    const text = this.source.text;
    if (text.length > this.opts.limits.maxSourceLength) {
      const d = makeDiagnostic(
        'LIMIT_SOURCE_LENGTH',
        `Template source is ${text.length} characters, over the limit of ${this.opts.limits.maxSourceLength}`,
        this.source,
        { start: 0, end: 0 },
        { limit: 'maxSourceLength' },
      );
      return { ast: null, diagnostics: [d] };
    }
    try {
      this.run(text);
    } catch (e) {
      if (e instanceof Abort) return { ast: null, diagnostics: [...this.kept(), e.diagnostic] };
      throw e;
    }
    return { ast: { version: AST_VERSION, body: this.root, end: text.length }, diagnostics: this.kept() };
  }

  /**
   * The syntax errors in the reference's order (each tag's, then the blocks'), the first
   * `limits.maxErrors` of them, then one LIMIT_SYNTAX_ERRORS warning counting the rest. A 1 MB
   * template of `{.end}` lines has 150,000 errors: a frame each is more than an author reads,
   * and tools that framed each one against the whole source took minutes.
   */
  private kept(): Diagnostic[] {
    const { tokenErrors, blockErrors } = this;
    const all = blockErrors === null ? (tokenErrors ?? []) : tokenErrors === null ? blockErrors : tokenErrors.concat(blockErrors);
    const max = this.opts.limits.maxErrors;
    if (all.length <= max && this.dropped === 0) return all;
    const out = all.slice(0, max);
    const dropped = this.dropped + all.length - out.length;
    // The first error not kept: a tag's when their group ran over (all kept are tags' then),
    // else the block error after the kept ones.
    const tags = tokenErrors === null ? 0 : tokenErrors.length;
    let at: Span;
    if (this.tokenDropped !== null) at = this.tokenDropped;
    else if (blockErrors !== null && max - tags < blockErrors.length) at = blockErrors[max - tags].span;
    else at = this.blockDropped as Span;
    out.push(
      makeDiagnostic('LIMIT_SYNTAX_ERRORS', `${dropped} more syntax errors were not recorded (limit ${max})`, this.source, at, { limit: 'maxErrors', severity: 'warning' }),
    );
    return out;
  }

  /**
   * Slices of a source with a character beyond Latin-1 (a `—`) are two-byte strings whatever
   * they hold, and so is every page chunk a static text or argument from it is printed into:
   * flattened to be sent, such a chunk is a two-byte copy (engine/runtime.ts,
   * `Runtime.chunks`). For such a source, a one-byte image of the whole text is made once
   * (`latin1Image`: the characters beyond Latin-1 come out as other one-byte ones, never `{`,
   * `}` or `#`; nothing else moves), and `cut` takes from it the slices that fall inside one
   * run between those characters. One image instead of a copy per run: the copies were a
   * quarter of compiling a 1 KB partial with one `–` in it (2026-11-29).
   *
   * The scanner reads the image too, for every such source: what stands there for the
   * characters beyond Latin-1 delimits nothing, so the tokens are the same. Scanning the
   * two-byte text made the scanner's string reads two-byte as well as one-byte for the rest of
   * the process, and every later compile ~15% slower: the 14 page workloads 418 µs a pass,
   * 484 µs after the conformance templates, one of which holds a `…` (bench/README.md,
   * "Compile in a process of many templates").
   */
  private narrowRuns: { start: number; end: number }[] | null = null;
  private narrowText = '';

  private prepareNarrowRuns(text: string): void {
    // A short text is looked at a character at a time: a regex call costs about as much as
    // compiling a one-word template does without it (~30 of ~130 ns, 2026-11-30).
    if (text.length <= SHORT_SOURCE) {
      let i = 0;
      while (i < text.length && text.charCodeAt(i) <= 0xff) i++;
      if (i === text.length) return;
    }
    // One regex for every compile (a literal here would be a new RegExp object per call).
    const wide = WIDE_RUN;
    wide.lastIndex = 0;
    let m = wide.exec(text);
    if (m === null) return;
    let runs: { start: number; end: number }[] | null = [];
    let from = 0;
    // Whether a unit beyond Latin-1 would come out of the image as `{`, `}` or `#` (`latin1Image`).
    let braceLike = false;
    for (; m !== null; m = wide.exec(text)) {
      const run = m[0];
      for (let k = 0; k < run.length && !braceLike; k++) {
        const low = run.charCodeAt(k) & 0xff;
        braceLike = low === 0x23 || low === 0x7b || low === 0x7d;
      }
      if (runs === null) {
        if (braceLike) break; // nothing more to learn
        continue;
      }
      // A text written mostly beyond Latin-1 makes two-byte pages anyway: its slices are cut
      // from the text itself (the scanner still reads the image).
      if (runs.length === MAX_NARROW_RUNS) {
        runs = null;
        continue;
      }
      if (m.index > from) runs.push({ start: from, end: m.index });
      from = m.index + run.length;
    }
    if (runs !== null && from < text.length) runs.push({ start: from, end: text.length });
    this.narrowRuns = runs;
    this.narrowText = latin1Image(text, braceLike);
  }

  /** `source.text.slice(start, end)`, one-byte whenever it holds nothing beyond Latin-1. */
  private cut(text: string, start: number, end: number): string {
    return this.inNarrowRun(start, end) ? this.narrowText.slice(start, end) : text.slice(start, end);
  }

  /** Whether `[start, end)` lies inside one run of the one-byte image (`narrowRuns`). */
  private inNarrowRun(start: number, end: number): boolean {
    const runs = this.narrowRuns;
    if (runs === null) return false;
    // The first run that ends at or after `end`; the range fits when that run starts by `start`.
    let lo = 0;
    let hi = runs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (runs[mid].end < end) lo = mid + 1;
      else hi = mid;
    }
    const r = runs[lo];
    return r !== undefined && r.start <= start;
  }

  /**
   * The text a tag's body is read from in place, in the source's offsets: the source when it
   * holds nothing beyond Latin-1, its one-byte image when the body lies in one of its runs;
   * null otherwise (the body is then cut out and read from offset 0). Reading in place saves
   * the slice per tag and reads the characters of a flat string, not of a slice.
   */
  private inPlace(text: string, start: number, end: number): string | null {
    if (this.narrowText === '') return text;
    return this.inNarrowRun(start, end) ? this.narrowText : null;
  }

  private run(text: string): void {
    this.prepareNarrowRuns(text);
    // Start of the pending literal text run, as the reference's scanner tracks it.
    let save = 0;
    // A `{` that no tag has consumed yet, and whether a multi-line comment followed it. The
    // reference keeps such a `{` as its candidate across the comment, so the next `}`
    // re-reads the whole range as one tag (quirk of §1.5: `{a {## c ##} b}`).
    let candidate = -1;
    let commentSinceCandidate = false;
    // Text after such a comment belongs to the candidate tag if a `}` comes; held back until known.
    let held: { start: number; end: number }[] | null = null;
    const scanner = new TemplateScanner(this.narrowText !== '' ? this.narrowText : text);
    while (scanner.next()) {
      const start = scanner.start;
      const end = scanner.end;
      const type = scanner.kind;
      if (type === Tok.Tag) {
        if (held !== null) held = this.release(held);
        this.tag(text, start, end);
        save = end;
        candidate = -1;
      } else if (type === Tok.Comment) {
        if (held !== null) held = this.release(held);
        this.flushText();
        this.append({ kind: 'comment', span: { start, end }, text: text.slice(start + 3, end - 3), multiline: true });
        save = end;
        if (candidate >= 0) commentSinceCandidate = true;
      } else if (type === Tok.OpenComment) {
        if (held !== null) held = this.release(held);
        this.syntaxError('token', 'EOF_IN_COMMENT', 'Reached EOF in the middle of a multi-line comment', save, end);
      } else if (type === Tok.RBrace && candidate >= 0 && commentSinceCandidate) {
        held = null;
        this.tag(text, candidate, end);
        save = end;
        candidate = -1;
      } else if (commentSinceCandidate && candidate >= 0 && type !== Tok.LBrace) {
        (held ??= []).push({ start, end });
      } else {
        // Text, or a brace that delimits nothing.
        if (held !== null) held = this.release(held);
        this.text(start, end);
        if (type === Tok.LBrace) {
          candidate = start;
          commentSinceCandidate = false;
        } else if (type === Tok.RBrace) {
          save = end;
          candidate = -1;
        }
      }
    }
    if (held !== null) this.release(held);
    this.finish(text.length);
  }

  /** Writes out the text held back after a comment; returns the (now empty) hold. */
  private release(held: readonly { start: number; end: number }[]): null {
    for (const h of held) this.text(h.start, h.end);
    return null;
  }

  // ---- output of the scan ----

  /**
   * Literal text `[start, end)` of the source. Adjacent runs (text, then a brace that delimits
   * nothing, then more text, as in every `<script>` and `<style>`) are gathered as offsets
   * and become one node, cut from the source once, when something else comes (`flushText`):
   * a node, a span and a concatenation per piece were a sixth of compiling a template's CSS
   * and JavaScript.
   */
  private text(start: number, end: number): void {
    if (this.textEnd === start) {
      this.textEnd = end;
      return;
    }
    this.flushText();
    this.textStart = start;
    this.textEnd = end;
  }

  /** The gathered text as a node of the current body (before anything else goes there). */
  private flushText(): void {
    const { textStart, textEnd } = this;
    if (textEnd < 0) return;
    this.textEnd = -1;
    this.body.push({ kind: 'text', span: { start: textStart, end: textEnd }, text: this.cut(this.source.text, textStart, textEnd) });
  }

  private currentBody(): Inst[] {
    return this.body;
  }

  private append(n: Inst): void {
    this.currentBody().push(n);
  }

  private syntaxError(group: 'token' | 'block', code: DiagnosticCode, message: string, start: number, end: number): void {
    if (!this.opts.safe) throw new Abort(makeDiagnostic(code, message, this.source, { start, end }));
    const list = group === 'token' ? (this.tokenErrors ??= []) : (this.blockErrors ??= []);
    if (list.length >= this.opts.limits.maxErrors) {
      this.dropped++;
      if (group === 'token') this.tokenDropped ??= { start, end };
      else this.blockDropped ??= { start, end };
      return;
    }
    list.push(makeDiagnostic(code, message, this.source, { start, end }));
  }

  // ---- one tag ----

  /** The tag `text[start, end)`, braces included. */
  private tag(text: string, start: number, end: number): void {
    this.tagStart = start;
    this.tagEnd = end;
    this.pre = false;
    let bodyStart = start + 1;
    if (text.charCodeAt(bodyStart) === 0x5e /* ^ */) {
      if (!this.opts.preprocess) return; // dropped silently in normal mode
      bodyStart++;
      this.pre = true;
    } else if (this.opts.preprocess) {
      this.text(start, end);
      return;
    }
    this.bodyStart = bodyStart;
    const bodyEnd = end - 1;
    const src = this.inPlace(text, bodyStart, bodyEnd);
    const r = src !== null ? this.classify(src, bodyStart, bodyEnd) : this.classify(text.slice(bodyStart, bodyEnd), 0, bodyEnd - bodyStart);
    // The kind read once (see `instruction`).
    const kind = r.kind;
    if (kind === '#text') return this.text(start, end);
    if (kind === '#drop') return;
    this.flushText();
    switch (kind) {
      case '#end':
        this.end();
        return;
      case 'or':
        this.orInstruction(r);
        return;
      case 'alternates':
        this.alternates(r);
        return;
      default:
        this.instruction(r as Inst);
    }
  }

  private span() {
    return { start: this.tagStart, end: this.tagEnd };
  }

  /** Records a tag error; the tag then becomes literal text (safe mode). */
  private fail(code: DiagnosticCode, message: string, bodyOffset = -1): TagOutcome {
    const at = bodyOffset < 0 ? this.tagStart : this.bodyStart + bodyOffset;
    this.syntaxError('token', code, message, at, this.tagEnd);
    return TEXT;
  }

  /**
   * The tag body `s[from, to)`. A variable (most tags) is read in place; an instruction or a
   * comment from its own slice. What follows the body, `s[to]`, is the tag's `}` or nothing,
   * so a scan for a space, `,` or `|` stops at `to` by itself.
   */
  private classify(s: string, from: number, to: number): TagResult {
    if (to === from) return TEXT;
    const c = s.charCodeAt(from);
    if (c !== 0x23 && c !== 0x2e) {
      const v = scanVariable(s, from, to);
      if (v < 0) return TEXT;
      return this.variable(s, from, to, v);
    }
    if (c === 0x2e) {
      const r = this.commonBlockTag(s, from, to);
      if (r !== null) return r;
    }
    const b = from === 0 && to === s.length ? s : s.slice(from, to);
    if (c === 0x23 /* # */) {
      return { kind: 'comment', span: this.span(), text: b.slice(1), multiline: false, pre: this.pre || undefined };
    }
    // `.`: an instruction.
    const w = scanWord(b, 1);
    if (w < 0) return TEXT;
    if (b.charCodeAt(w) === 0x3f /* ? */) return this.predicateBlock(b.slice(1, w + 1), b.slice(w + 1), w + 1, false);
    const word = keywordAt(b, w);
    if (word === null) return this.fail('INVALID_INSTRUCTION', `Invalid instruction '.${b.slice(1, w)}'`);
    return this.keyword(word, b, w);
  }

  /**
   * `.end`, `.or`, `.section NAME` and `.repeated section NAME` written the plain way (one
   * space, nothing after the name), read in place: most of a page's instructions (182 of the
   * bench pages' 235). `.eval` too: a template of them (conformance `eval-2`) is mostly such
   * tags. Null for anything else, which `keyword` reads, errors included.
   */
  private commonBlockTag(s: string, from: number, to: number): TagResult | null {
    const n = to - from;
    if (n === 4 && s.startsWith('end', from + 1)) return END;
    if (n === 3 && s.startsWith('or', from + 1)) return { kind: 'or', span: this.span(), pred: null, body: [], alt: null, pre: this.pre || undefined };
    if (s.startsWith('section ', from + 1)) {
      const e = scanVariable(s, from + 9, to);
      if (e !== to) return null;
      return { kind: 'section', span: this.span(), ref: this.ref(s.slice(from + 9, e)), body: [], alt: null, pre: this.pre || undefined };
    }
    if (s.startsWith('repeated section ', from + 1)) {
      const e = scanVariable(s, from + 18, to);
      if (e !== to) return null;
      return { kind: 'repeated', span: this.span(), ref: this.ref(s.slice(from + 18, e)), body: [], alternates: null, alt: null, pre: this.pre || undefined };
    }
    // `.eval EXPR`, one space and then no whitespace: the expression is the rest of the body.
    if (n > 6 && s.startsWith('eval ', from + 1) && !isWs(s.charCodeAt(from + 6))) {
      return { kind: 'eval', span: this.span(), gap: ' ', expression: s.slice(from + 6, to), pre: this.pre || undefined };
    }
    return null;
  }

  // {a, b|f args|g}: the body `s[from, to)`, its first variable scanned to `firstEnd`.
  private variable(s: string, from: number, to: number, firstEnd: number): TagResult {
    const refs = this.variableList(s, from, firstEnd, to);
    if (!refs) return TEXT;
    const i = this.listEnd;
    if (i === to) return { kind: 'variable', span: this.span(), refs, formatters: NO_FORMATTERS, pre: this.pre || undefined };
    if (s.charCodeAt(i) !== 0x7c /* | */) return TEXT;
    if (s.charCodeAt(i + 1) === 0x7c) return TEXT; // `{a||b}` is JavaScript, not a chain
    const formatters = this.formatterChain(s, i, from, to);
    if (!formatters) return TEXT;
    return { kind: 'variable', span: this.span(), refs, formatters, pre: this.pre || undefined };
  }

  /** VARIABLE (' '* ',' ' '* VARIABLE)* up to `to`, starting with a variable already scanned to `firstEnd`. */
  private variableList(s: string, start: number, firstEnd: number, to: number): VarRef[] | null {
    const list: VarRef[] = [this.ref(s.slice(start, firstEnd))];
    let i = firstEnd;
    for (;;) {
      let j = i;
      while (s.charCodeAt(j) === 0x20) j++;
      if (s.charCodeAt(j) !== 0x2c /* , */) {
        this.listEnd = i;
        return list;
      }
      j++;
      while (s.charCodeAt(j) === 0x20) j++;
      const e = scanVariable(s, j, to);
      if (e < 0) return null;
      list.push(this.ref(s.slice(j, e)));
      i = e;
    }
  }

  /**
   * `|name args|name args…` from `s[i]` to `to`, in a body that starts at `from`; null after
   * recording an error.
   */
  private formatterChain(s: string, i: number, from: number, to: number): FormatterCall[] | null {
    const out: FormatterCall[] = [];
    while (i < to) {
      // s[i] is '|'
      const nameStart = i + 1;
      const w = scanWord(s, nameStart, to);
      if (w < 0) {
        this.fail('FORMATTER_INVALID', `Invalid formatter name '${s.slice(nameStart, to)}' found.`, nameStart - from);
        return null;
      }
      const name = s.slice(nameStart, w);
      // The body holds no brace, so a `|` past `to` is another tag's.
      let next = s.indexOf('|', w);
      if (next < 0 || next > to) next = to;
      const a = splitArgs(s.slice(w, next));
      const spec = this.env.registry.formatters.get(name);
      if (!spec) {
        this.fail('FORMATTER_UNKNOWN', `Formatter '${name}' is unknown.`, nameStart - from);
        return null;
      }
      if (a.args.length === 0 && spec.requiresArgs) {
        this.fail('FORMATTER_NEEDS_ARGS', `Formatter '${name}' needs arguments but none were provided.`, nameStart - from);
        return null;
      }
      let bound: unknown;
      // Read once: specs have shapes of their own, each read a megamorphic load.
      const bind = spec.bind;
      try {
        bound = bind !== undefined ? bind.call(spec, a.args as string[], this.bindContext(name, a)) : undefined;
      } catch (e) {
        if (e instanceof Abort) throw e;
        this.fail('FORMATTER_ARGS_INVALID', `Formatter '${name}' arguments are invalid: '${errorText(e)}'`, nameStart - from);
        return null;
      }
      out.push({ name, raw: a.raw, delimiter: a.delimiter, args: a.args, span: { start: this.bodyStart + nameStart - from, end: this.bodyStart + next - from }, spec, bound });
      i = next;
    }
    return out;
  }

  /** Binders use their context only while they run, so one object serves every call. */
  private bindContext(name: string, a: PluginArgs): BindContext {
    const ctx = (this.bindCtx ??= new ParserBindContext(this.env));
    ctx.name = name;
    ctx.delimiter = a.delimiter;
    ctx.raw = a.raw;
    return ctx;
  }

  /** Binds a predicate; null (tag becomes text) after NEEDS_ARGS / ARGS_INVALID. */
  private predicateCall(name: string, raw: string, rawOffset: number): PredicateCall | null {
    const a = splitArgs(raw);
    const spec = this.env.registry.predicates.get(name);
    if (!spec) {
      this.syntaxError('token', 'PREDICATE_UNKNOWN', `Predicate '${name}' is unknown.`, this.tagStart, this.tagEnd);
      return { name, raw: a.raw, delimiter: a.delimiter, args: a.args, spec: null, bound: undefined };
    }
    if (a.args.length === 0 && spec.requiresArgs) {
      this.fail('PREDICATE_NEEDS_ARGS', `Predicate '.${name}' requires arguments but none were provided.`);
      return null;
    }
    let bound: unknown;
    // Read once (see `formatterChain`).
    const bind = spec.bind;
    try {
      bound = bind !== undefined ? bind.call(spec, a.args as string[], this.bindContext(name, a)) : undefined;
    } catch (e) {
      if (e instanceof Abort) throw e;
      this.fail('PREDICATE_ARGS_INVALID', `Predicate ${name} arguments invalid: '${errorText(e)}'`);
      return null;
    }
    void rawOffset;
    return { name, raw: a.raw, delimiter: a.delimiter, args: a.args, spec, bound };
  }

  private predicateBlock(name: string, raw: string, rawOffset: number, viaIf: boolean): TagResult {
    const pred = this.predicateCall(name, raw, rawOffset);
    if (!pred) return TEXT;
    return { kind: 'predicate', span: this.span(), pred, viaIf, body: [], alt: null, pre: this.pre || undefined };
  }

  private keyword(word: string, b: string, w: number): TagResult {
    const rest = b.slice(w);
    const span = this.span();
    const pre = this.pre || undefined;
    switch (word) {
      case 'end':
        return rest ? this.fail('EXTRA_CHARS', `Extra characters found after END instruction: '${rest}'`) : END;
      case 'meta-left':
      case 'meta-right':
      case 'newline':
      case 'space':
      case 'tab':
        if (rest) return this.fail('EXTRA_CHARS', `Extra characters found after ${LITERAL_TYPES[word]} instruction: '${rest}'`);
        return { kind: 'literal', span, keyword: word, pre };
      case 'section': {
        const v = this.wsThenVariable(b, w, 'SECTION');
        if (typeof v !== 'object' || !('ref' in v)) return v;
        return { kind: 'section', span, ref: v.ref, body: [], alt: null, pre };
      }
      case 'repeated': {
        let i = skipWs(b, w);
        if (i === w) return this.fail('WHITESPACE_EXPECTED', `Whitespace expected, found '${rest}'`);
        if (!b.startsWith('section', i)) return this.fail('MISSING_SECTION_KEYWORD', `Missing 'section' keyword, found '${b.slice(i)}'`);
        i += 7;
        const v = this.wsThenVariable(b, i, 'REPEATED');
        if (typeof v !== 'object' || !('ref' in v)) return v;
        return { kind: 'repeated', span, ref: v.ref, body: [], alternates: null, alt: null, pre };
      }
      case 'alternates': {
        if (b.charCodeAt(w) !== 0x20) return this.fail('WHITESPACE_EXPECTED', `Whitespace expected, found '${rest}'`);
        if (!b.startsWith('with', w + 1)) return this.fail('MISSING_WITH_KEYWORD', `Missing 'with' keyword, found '${b.slice(w + 1)}'`);
        const after = b.slice(w + 5);
        if (after) return this.fail('EXTRA_CHARS', `Extra characters found after ALTERNATES_WITH instruction: '${after}'`);
        return { kind: 'alternates', span, body: [], pre };
      }
      case 'or': {
        if (rest === '') return { kind: 'or', span, pred: null, body: [], alt: null, pre };
        if (b.charCodeAt(w) !== 0x20) return this.fail('EXTRA_CHARS', `Extra characters found after OR_PREDICATE instruction: '${rest}'`);
        const nameEnd = scanWord(b, w + 1);
        if (nameEnd < 0 || b.charCodeAt(nameEnd) !== 0x3f) {
          return this.fail('OR_EXPECTED_PREDICATE', `Expected a predicate to follow OR_PREDICATE, found '${b.slice(w + 1)}'`);
        }
        const pred = this.predicateCall(b.slice(w + 1, nameEnd + 1), b.slice(nameEnd + 1), nameEnd + 1);
        if (!pred) return TEXT;
        return { kind: 'or', span, pred, body: [], alt: null, pre };
      }
      case 'if':
        return this.ifInstruction(b, w);
      case 'var':
        return this.bindVar(b, w);
      case 'ctx':
        return this.ctxVar(b, w);
      case 'macro': {
        const i = skipWs(b, w);
        if (i === w) return this.fail('WHITESPACE_EXPECTED', `Whitespace expected, found '${rest}'`);
        const e = scanPath(b, i);
        if (e < 0) return this.fail('MACRO_EXPECTS_NAME', '{.macro} expects a name');
        if (e < b.length) return this.fail('EXTRA_CHARS', `Extra characters found after MACRO instruction: '${b.slice(e)}'`);
        return { kind: 'macro', span, name: b.slice(i, e), body: [], pre };
      }
      case 'eval': {
        const i = skipWs(b, w);
        if (i === w) return this.fail('WHITESPACE_EXPECTED', `Whitespace expected, found '${rest}'`);
        return { kind: 'eval', span, gap: b.slice(w, i), expression: b.slice(i), pre };
      }
      case 'include': {
        if (b.charCodeAt(w) !== 0x20) return TEXT;
        const a = splitArgs(rest);
        if (a.args.length === 0) return TEXT;
        return { kind: 'include', span, name: a.args[0], options: a.args.slice(1), raw: a.raw, delimiter: a.delimiter, args: a.args, pre };
      }
      case 'inject': {
        const operand = this.localOperand(b, w, 'INJECT_EXPECTS_NAME', '{.inject} expects a variable name (e.g. @foo)');
        if (!('name' in operand)) return operand;
        const { name, at: i } = operand;
        const p = scanPath(b, i);
        if (p < 0) return this.fail('INJECT_EXPECTS_PATH', `{.inject} expects the path for a JSON injectable, found '${b.slice(i)}'`);
        const a = splitArgs(b.slice(p));
        return { kind: 'inject', span, name, path: b.slice(i, p), raw: a.raw, delimiter: a.delimiter, args: a.args, pre };
      }
    }
    return this.fail('INVALID_INSTRUCTION', `Invalid instruction '.${word}'`);
  }

  /** `@WORD` at i: end offset or -1. */
  private local(b: string, i: number): number {
    if (b.charCodeAt(i) !== 0x40) return -1;
    return scanWord(b, i + 1);
  }

  private wsThenVariable(b: string, w: number, type: string): { ref: VarRef } | TagOutcome {
    const i = skipWs(b, w);
    if (i === w) return this.fail('WHITESPACE_EXPECTED', `Whitespace expected, found '${b.slice(w)}'`);
    const e = scanVariable(b, i);
    if (e < 0) return this.fail('VARIABLE_EXPECTED', `Variable expected, found '${b.slice(i)}'`);
    if (e < b.length) return this.fail('EXTRA_CHARS', `Extra characters found after ${type} instruction: '${b.slice(e)}'`);
    return { ref: this.ref(b.slice(i, e)) };
  }

  private ifInstruction(b: string, w: number): TagResult {
    let i = skipWs(b, w);
    if (i === w) return this.fail('WHITESPACE_EXPECTED', `Whitespace expected, found '${b.slice(w)}'`);
    const nameEnd = scanWord(b, i);
    if (nameEnd >= 0 && b.charCodeAt(nameEnd) === 0x3f) return this.predicateBlock(b.slice(i, nameEnd + 1), b.slice(nameEnd + 1), nameEnd + 1, true);
    if (i === b.length) return this.fail('IF_EMPTY', 'IF instruction requires at least one variable to test.');
    const refs: VarRef[] = [];
    const ops: ('&&' | '||')[] = [];
    for (;;) {
      const e = scanVariable(b, i);
      if (e < 0) return this.fail('IF_EXPECTED_VAROP', `Expected an operator or a variable, found '${b.slice(i)}'`);
      refs.push(this.ref(b.slice(i, e)));
      if (refs.length > 30) return this.fail('IF_TOO_MANY_VARS', 'Too many variables in IF instruction. Limit is 30.');
      i = skipWs(b, e);
      if (i === b.length) break;
      const op = b.slice(i, i + 2);
      if (op !== '&&' && op !== '||') return this.fail('IF_EXPECTED_VAROP', `Expected an operator or a variable, found '${b.slice(i)}'`);
      ops.push(op);
      i = skipWs(b, i + 2);
      if (i === b.length) return this.fail('IF_TOO_MANY_OPERATORS', 'Too many operators in IF instruction.');
    }
    return { kind: 'if', span: this.span(), refs, ops, body: [], alt: null, pre: this.pre || undefined };
  }

  /** `WS @name WS` after `.var`, `.ctx` or `.inject`: the name and where its operand starts. */
  private localOperand(b: string, w: number, code: DiagnosticCode, expects: string): { name: string; at: number } | TagOutcome {
    const i = skipWs(b, w);
    if (i === w) return this.fail('WHITESPACE_EXPECTED', `Whitespace expected, found '${b.slice(w)}'`);
    const n = this.local(b, i);
    if (n < 0) return this.fail(code, `${expects}, found '${b.slice(i)}'`);
    const at = skipWs(b, n);
    if (at === n) return this.fail('WHITESPACE_EXPECTED', `Whitespace expected, found '${b.slice(n)}'`);
    return { name: b.slice(i, n), at };
  }

  private bindVar(b: string, w: number): TagResult {
    const operand = this.localOperand(b, w, 'BINDVAR_EXPECTS_NAME', '{.var} expects a local variable name (e.g. @foo)');
    if (!('name' in operand)) return operand;
    const { name, at: i } = operand;
    const e = scanVariable(b, i);
    if (e < 0) return this.fail('MISSING_VARIABLE_NAME', `Missing variable name, found '${b.slice(i)}'`);
    const refs = this.variableList(b, i, e, b.length);
    if (!refs) return TEXT;
    let formatters: FormatterCall[] = [];
    const end = this.listEnd;
    if (end < b.length) {
      if (b.charCodeAt(end) !== 0x7c || b.charCodeAt(end + 1) === 0x7c) return TEXT;
      const chain = this.formatterChain(b, end, 0, b.length);
      if (!chain) return TEXT;
      formatters = chain;
    }
    return { kind: 'bindvar', span: this.span(), name, refs, formatters, pre: this.pre || undefined };
  }

  private ctxVar(b: string, w: number): TagResult {
    const operand = this.localOperand(b, w, 'CTXVAR_EXPECTS_NAME', '{.ctx} expects a local variable name (e.g. @foo)');
    if (!('name' in operand)) return operand;
    const name = operand.name;
    let i = operand.at;
    const bindings: { key: string; ref: VarRef }[] = [];
    for (;;) {
      const k = scanWord(b, i);
      let ok = k >= 0 && b.charCodeAt(k) === 0x3d; /* = */
      let e = -1;
      if (ok) {
        e = scanVariable(b, k + 1);
        ok = e >= 0 && (e === b.length || isWs(b.charCodeAt(e)));
      }
      if (!ok) {
        if (bindings.length === 0) {
          return this.fail('CTXVAR_EXPECTS_BINDINGS', `{.ctx} expects one or more bindings (e.g. foo=bar.baz), found '${b.slice(i)}'`);
        }
        break; // the rest of the tag is ignored (§4.8)
      }
      bindings.push({ key: b.slice(i, k), ref: this.ref(b.slice(k + 1, e)) });
      i = skipWs(b, e);
      if (i === b.length) break;
    }
    return { kind: 'ctxvar', span: this.span(), name, bindings, pre: this.pre || undefined };
  }

  /**
   * A VarRef per occurrence. Sharing one per distinct text (a Map per parse, until
   * 2026-11-29) saved splitting a repeated reference, but hashing and looking up every
   * occurrence cost more: without it compiling the fresh pages was 2-15% faster
   * (bench/README.md, "Compile").
   */
  private ref(text: string): VarRef {
    return { text, segments: splitVariable(text), compiled: null };
  }

  // ---- block assembly (§4.16) ----

  private instruction(n: Inst): void {
    this.append(n);
    // Read once: nodes come in a dozen shapes, so each read of `kind` is a megamorphic load
    // that V8 does not merge with the next.
    const kind = n.kind;
    if (kind === 'section' || kind === 'repeated' || kind === 'predicate' || kind === 'if' || kind === 'macro') {
      if (this.stack.length >= this.opts.limits.maxNesting) {
        throw new Abort(
          makeDiagnostic('LIMIT_NESTING', `Blocks nest deeper than the limit of ${this.opts.limits.maxNesting}`, this.source, n.span, { limit: 'maxNesting' }),
        );
      }
      this.stack.push({ node: n, cur: n, state: stateOf(kind) });
      this.body = n.body;
    }
  }

  private blockError(code: DiagnosticCode, message: string): void {
    this.syntaxError('block', code, message, this.tagStart, this.tagEnd);
  }

  private orInstruction(or: OrNode): void {
    const top = lastOf(this.stack);
    if (!top) return this.blockError('NOT_ALLOWED_AT_ROOT', 'OR_PREDICATE instruction is not allowed at the template root.');
    switch (top.state) {
      case 'MACRO':
        return this.blockError('NOT_ALLOWED_IN_BLOCK', 'OR_PREDICATE instruction is not allowed inside MACRO block.');
      case 'OR_PREDICATE': {
        const cur = top.cur as OrNode;
        if (!cur.pred) return this.blockError('DEAD_CODE_BLOCK', 'This OR_PREDICATE block will never execute.');
        cur.alt = or;
        break;
      }
      case 'ALTERNATES_WITH':
      default:
        (top.node as { alt: OrNode | null }).alt = or;
    }
    top.cur = or;
    this.body = or.body;
    top.state = 'OR_PREDICATE';
  }

  private alternates(n: AlternatesNode): void {
    const top = lastOf(this.stack);
    if (!top) return this.blockError('NOT_ALLOWED_AT_ROOT', 'ALTERNATES_WITH instruction is not allowed at the template root.');
    if (top.state !== 'REPEATED') {
      return this.blockError('NOT_ALLOWED_IN_BLOCK', `ALTERNATES_WITH instruction is not allowed inside ${top.state} block.`);
    }
    (top.node as { alternates: AlternatesNode | null }).alternates = n;
    top.cur = n;
    this.body = n.body;
    top.state = 'ALTERNATES_WITH';
  }

  private end(): void {
    if (this.stack.length === 0) return this.blockError('MISMATCHED_END', 'Mismatched END found at ROOT.');
    this.stack.pop();
    const top = lastOf(this.stack);
    this.body = top ? top.cur.body : this.root;
  }

  private finish(eof: number): void {
    this.flushText();
    const top = lastOf(this.stack);
    if (top) {
      const started = this.source.position(top.cur.span.start);
      this.syntaxError(
        'block',
        'EOF_IN_BLOCK',
        `Reached EOF in the middle of ${repr(top.cur)} started at line ${started.line} char ${started.column}`,
        eof,
        eof,
      );
    }
  }
}


/**
 * The last element, or undefined for an empty array. `a[a.length - 1]` on an empty array
 * reads the property "-1", which V8 looks up along the prototype chain (~60 ns, and a
 * megamorphic load after it): it happened for the first node of every body and at every
 * top-level `.end`, 17% of compiling a template of plain text.
 */
function lastOf<T>(a: readonly T[]): T | undefined {
  return a.length > 0 ? a[a.length - 1] : undefined;
}

function errorText(e: unknown): string {
  if (e instanceof ArgsError) return e.message;
  return e instanceof Error ? e.message : String(e);
}

export function parseTemplate(source: Source, env: BindEnv, opts: ParseOptions): ParseResult {
  return new TemplateParser(source, env, opts).parse();
}

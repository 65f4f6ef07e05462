// AST → closures. Each instruction becomes a specialised function over the Runtime:
// formatter references and bound arguments are captured once, references are pre-split,
// adjacent literal text is merged, and a block charges its whole instruction count to the
// budget in one addition instead of one check per instruction.

import type { FormatterCall, Inst, OrNode, PredicateCall, TemplateAst, VarRef } from './ast.ts';
import { LITERAL_TEXT } from './ast.ts';
import { evaluateExpression, type ExprScope, parseExpression, type ParsedExpression } from './expr/index.ts';
import type { Limits } from './limits.ts';
import { type FormatterSpec, TEXT_PER_STEP } from './plugin-api.ts';
import { type Code, CompiledRef, descend, type Exec, LONG_TEXT, plainMember, Runtime } from './runtime.ts';
import type { Source } from './source.ts';
import { isTruthy, PIECE_PART, renderText, type JsonObject, type Value } from './value.ts';

export interface EmitContext {
  readonly source: Source;
  readonly limits: Limits;
  /** Block bodies are built on their first run (see `nested`); false inside such a build. */
  readonly lazy?: boolean;
}

const NOOP: Exec = () => {};

/**
 * The compiled form of a reference, made once per VarRef and kept on it: no Map per compile
 * (nor the closure that kept it), ~10% of compiling `{a}` (bench/README.md, "Compile").
 */
function makeRef(r: VarRef): CompiledRef {
  let c = r.compiled as CompiledRef | null;
  if (c === null) r.compiled = c = new CompiledRef(r.text, r.segments);
  return c;
}

export function emitTemplate(ast: TemplateAst, ctx: EmitContext): Code {
  return { run: body(ast.body, ctx), source: ctx.source };
}

type VariableNode = Inst & { kind: 'variable' };

function body(nodes: readonly Inst[], ctx: EmitContext): Exec {
  // Arrays made only when needed, and no closure to flush a run: most bodies are a text or
  // one or two runs, and these allocations were a sixth of compiling `{a}`.
  let fns: Exec[] | null = null;
  // The run being gathered: texts[k] is written before items[k], `text` after the last.
  let texts: string[] | null = null;
  let items: VariableNode[] | null = null;
  let text = '';
  // Instructions and formatter calls the body executes, charged to the budget at once.
  let c = nodes.length;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    // The kind read once: nodes of a dozen shapes make every read of it a megamorphic load,
    // which V8 does not merge with the next one.
    const kind = n.kind;
    if (kind === 'variable' || kind === 'bindvar') c += n.formatters.length;
    if (kind === 'text') text += n.text;
    else if (kind === 'literal') text += LITERAL_TEXT[n.keyword];
    else if (kind === 'comment') continue;
    else if (kind === 'variable' && n.refs.length === 1 && !mayWritePieces(n.formatters)) {
      if (text.length >= LONG_TEXT) {
        // A long text is a chunk of its own (`emitText`): it ends the run, and a run never
        // looks at its texts' lengths.
        if (items !== null) (fns ??= []).push(runOf(texts, items, '', ctx));
        (fns ??= []).push(emitText(text));
        texts = [''];
        items = [n];
      } else if (texts === null) {
        texts = [text];
        items = [n];
      } else {
        texts.push(text);
        (items as VariableNode[]).push(n);
      }
      text = '';
    } else {
      if (items !== null || text !== '') {
        pushRun((fns ??= []), texts, items, text, ctx);
        texts = items = null;
        text = '';
      }
      (fns ??= []).push(inst(n, ctx));
    }
  }
  if (items !== null || text !== '') pushRun((fns ??= []), texts, items, text, ctx);
  const cost = c;
  if (fns === null) {
    return (rt) => {
      if ((rt.steps += cost) > rt.stepMark) rt.passMark();
    };
  }
  if (fns.length === 1) {
    const f = fns[0];
    return (rt) => {
      if ((rt.steps += cost) > rt.stepMark) rt.passMark();
      f(rt);
    };
  }
  if (fns.length === 2) {
    const f = fns[0];
    const g = fns[1];
    return (rt) => {
      if ((rt.steps += cost) > rt.stepMark) rt.passMark();
      f(rt);
      g(rt);
    };
  }
  const list = fns;
  const len = list.length;
  return (rt) => {
    if ((rt.steps += cost) > rt.stepMark) rt.passMark();
    for (let i = 0; i < len; i++) list[i](rt);
  };
}

/** Appends the gathered run's closure, and a long last text's of its own after it (`emitText`). */
function pushRun(fns: Exec[], texts: string[] | null, items: VariableNode[] | null, text: string, ctx: EmitContext): void {
  if (items !== null && text.length >= LONG_TEXT) {
    fns.push(runOf(texts, items, '', ctx));
    fns.push(emitText(text));
  } else fns.push(runOf(texts, items, text, ctx));
}

/** A gathered run: texts and variables of one reference, `text` after the last (see `emitRun`). */
function runOf(texts: string[] | null, items: VariableNode[] | null, text: string, ctx: EmitContext): Exec {
  if (items === null) return emitText(text);
  if (items.length === 1 && (texts as string[])[0] === '' && text === '') return inst(items[0], ctx);
  (texts as string[]).push(text);
  const list: RunItem[] = [];
  for (let i = 0; i < items.length; i++) list.push(runItem(items[i], ctx));
  return emitRun(texts as string[], list, ctx.source);
}

/**
 * A block's body is turned into closures when the block first runs, not at compile time:
 * compile pays only for the top level, and branches a page never takes (the `.or` of a
 * section that is always present, predicates on absent data) are never built at all. The
 * AST is immutable and already validated, so building later cannot fail or differ.
 */
function nested(nodes: readonly Inst[], ctx: EmitContext): Exec {
  if (!ctx.lazy || nodes.length === 0) return body(nodes, ctx);
  return deferred(() => body(nodes, eager(ctx)));
}

/**
 * Inside a deferred body everything is built at once: only the blocks of the top level
 * wait, so a block that runs per item of a loop is called directly, not through a wrapper.
 */
function eager(ctx: EmitContext): EmitContext {
  // The members written out: `{ ...ctx, lazy: false }` cost ~0.6 µs in Node 20 (a spread
  // copy followed by a property is V8's slow path), against ~30 ns for this literal.
  return ctx.lazy ? { source: ctx.source, limits: ctx.limits, lazy: false } : ctx;
}

function deferred(build: () => Exec): Exec {
  let run: Exec | null = null;
  return (rt) => {
    if (run === null) run = build();
    run(rt);
  };
}

function emitText(s: string): Exec {
  if (s.length >= LONG_TEXT) return (rt) => rt.appendLong(s);
  return (rt) => {
    if ((rt.out += s).length > rt.maxOut) rt.overflow();
  };
}

/** Appends a variable's value; `source` and `span` say where, for LIMIT_OUTPUT, when no formatter set them. */
function emitValue(rt: Runtime, v: Value, source?: Source, span?: { start: number; end: number }): void {
  if (typeof v === 'string') {
    if (v.length >= LONG_TEXT) rt.appendLong(v, source, span);
    else if ((rt.out += v).length > rt.maxOut) rt.overflow(source, span);
  } else if (v !== undefined && v !== null) {
    if ((rt.out += renderText(v)).length > rt.maxOut) rt.overflow(source, span);
  }
}

type Getter = (rt: Runtime) => Value;

function getter(r: CompiledRef): Getter {
  if (r.isAt) return (rt) => rt.frames[rt.depth].node;
  if (r.isPlainKey) {
    // The common case, `{name}` or `{a.b}`: a member walk inlined without the kind switch.
    const key = r.key as string;
    const rest = r.rest;
    const guarded = r.restGuarded;
    const tail = rest.length > 0;
    return (rt) => {
      const frames = rt.frames;
      let v: Value;
      for (let d = rt.depth; d >= 0; d--) {
        const f = frames[d];
        v = plainMember(f.node, key);
        if (v !== undefined || f.stop) break;
      }
      return tail ? descend(v, rest, guarded) : v;
    };
  }
  return (rt) => rt.lookup(r);
}

function inst(n: Inst, ctx: EmitContext): Exec {
  const source = ctx.source;
  switch (n.kind) {
    case 'variable':
      return n.formatters.length === 0
        ? plainValue(getter(makeRef(n.refs[0])), source, n.span)
        : variable(n.refs.map((r) => makeRef(r)), n.formatters, n, n.span, source);
    case 'section': {
      const r = makeRef(n.ref);
      const run = nested(n.body, ctx);
      const alt = orChain(n.alt, ctx);
      return (rt) => {
        const v = rt.lookupHere(r);
        if (isTruthy(v)) {
          rt.push(v);
          run(rt);
          rt.pop();
        } else alt(rt);
      };
    }
    case 'repeated': {
      const r = makeRef(n.ref);
      const run = nested(n.body, ctx);
      const between = n.alternates ? nested(n.alternates.body, ctx) : null;
      const alt = orChain(n.alt, ctx);
      return (rt) => {
        const v = rt.lookupHere(r);
        if (Array.isArray(v) && v.length > 0) {
          const f = rt.push(v);
          const last = v.length - 1;
          for (let i = 0; i <= last; i++) {
            f.index = i;
            const e = v[i];
            rt.push(e === null ? undefined : e);
            run(rt);
            if (between !== null && i < last) between(rt);
            rt.pop();
          }
          rt.pop();
        } else alt(rt);
      };
    }
    case 'predicate':
      return predicateBlock(n.pred, nested(n.body, ctx), orChain(n.alt, ctx), n, n.span, source);
    case 'if': {
      const gets = n.refs.map((r) => getter(makeRef(r)));
      const ands = n.ops.map((op) => op === '&&');
      const run = nested(n.body, ctx);
      const alt = orChain(n.alt, ctx);
      const g0 = gets[0];
      return (rt) => {
        let result = isTruthy(g0(rt));
        for (let i = 0; i < ands.length; i++) {
          const t = isTruthy(gets[i + 1](rt));
          if (ands[i]) {
            result = result && t;
            if (!result) break;
          } else {
            result = result || t;
            if (result) break;
          }
        }
        if (result) run(rt);
        else alt(rt);
      };
    }
    case 'bindvar': {
      const gets = n.refs.map((r) => getter(makeRef(r)));
      const chain = fuseChain(n.formatters);
      const name = n.name;
      const span = n.span;
      return (rt) => {
        let v = gets[0](rt);
        if (chain.length) {
          const others = gets.length > 1 ? gets.slice(1).map((g) => g(rt)) : Runtime.EMPTY;
          rt.curSource = source;
          rt.curSpan = span;
          try {
            for (let i = 0; i < chain.length; i++) {
              countInput(rt, v);
              v = chain[i].spec.apply(v, chain[i].bound, rt, others);
              rt.made(v);
            }
          } catch (e) {
            rt.unexpected(e, n, source, span);
            return;
          }
        }
        rt.setVar(name, v);
      };
    }
    case 'ctxvar': {
      const bindings = n.bindings.map((b) => ({ key: b.key, get: getter(makeRef(b.ref)) }));
      const name = n.name;
      return (rt) => {
        const obj: JsonObject = {};
        for (const b of bindings) obj[b.key] = b.get(rt);
        rt.setVar(name, obj);
      };
    }
    case 'inject': {
      const { name, path } = n;
      return (rt) => rt.setVar(name, rt.injected(path));
    }
    case 'macro': {
      const code: Code = { run: body(n.body, ctx), source };
      const name = n.name;
      return (rt) => rt.registerMacro(name, code);
    }
    case 'eval':
      return evalInstruction(n.expression, n.span, source, ctx.limits);
    case 'include': {
      const name = n.name;
      const output = n.options.includes('output');
      const span = n.span;
      return (rt) => {
        if (rt.opts.include) rt.include(name, output, source, span);
      };
    }
    case 'text':
    case 'literal':
    case 'comment':
      return NOOP;
  }
}

/**
 * The chain with every pair `a|b` that `a` can do in one step (`FormatterSpec.fuse`)
 * replaced by the fused formatter. The instruction budget still counts the formatters as
 * written (`cost` reads the tree).
 */
function fuseChain(chain: readonly FormatterCall[]): readonly FormatterCall[] {
  let out: FormatterCall[] | null = null;
  for (let i = 0; i < chain.length; i++) {
    const call = chain[i];
    const next = chain[i + 1];
    // Each spec read once: specs have shapes of their own (megamorphic loads).
    const fuse = next !== undefined ? call.spec.fuse : undefined;
    const fused = fuse !== undefined && next.spec.bind === undefined ? fuse.call(call.spec, next.spec) : undefined;
    if (fused === undefined) {
      if (out !== null) out.push(call);
      continue;
    }
    out ??= chain.slice(0, i);
    // Written out, not `{ ...call, spec }`: V8 (Node 20) takes ~0.7 µs to add or set a
    // property on a spread copy, against ~30 ns for a literal (see `eager`).
    out.push({ name: call.name, raw: call.raw, delimiter: call.delimiter, args: call.args, span: call.span, spec: fused as FormatterSpec<unknown>, bound: call.bound });
    i++;
  }
  return out ?? chain;
}

/** A variable of one reference inside a run of text and such variables (`emitRun`). */
interface RunItem {
  readonly get: Getter;
  readonly chain: readonly FormatterCall[] | null;
  /** Every formatter of the chain is pure, and there is one: no frame, no output read. */
  readonly pure: boolean;
  readonly node: Inst;
  readonly span: { start: number; end: number };
}

function runItem(n: Inst & { kind: 'variable' }, ctx: EmitContext): RunItem {
  const ref = makeRef(n.refs[0]);
  const get = getter(ref);
  const chain = n.formatters.length === 0 ? null : fuseChain(n.formatters);
  const pure = chain !== null && chain.length === 1 && chain[0].spec.pure === true;
  return { get, chain, pure, node: n, span: n.span };
}

/**
 * Text and variables of one reference, in turn, written into a local string that becomes
 * `rt.out` once at the end: one closure and one store of the output for the run instead of one
 * of each per piece (the texts and variables between two blocks are most of a template's
 * instructions). The length is looked at once, after the run: the chunk boundary and the
 * output limit come at most a run late, and going over the limit still aborts the render. A
 * formatter that may use the context is given the output as it stands (`rt.out`) and its
 * own frame, as `variable` does.
 */
function emitRun(texts: readonly string[], items: readonly RunItem[], source: Source): Exec {
  const m = items.length;
  const lastSpan = items[m - 1].span;
  const first = texts[0];
  return (rt) => {
    let out = first === '' ? rt.out : rt.out + first;
    for (let k = 0; k < m; k++) {
      const it = items[k];
      let v = it.get(rt);
      const chain = it.chain;
      if (chain !== null) {
        rt.curSource = source;
        rt.curSpan = it.span;
        if (it.pure) {
          try {
            countInput(rt, v);
            v = chain[0].spec.apply(v, chain[0].bound, rt, Runtime.EMPTY);
          } catch (e) {
            rt.out = out;
            rt.unexpected(e, it.node, source, it.span);
            v = undefined;
          }
        } else {
          rt.out = out;
          const depth = rt.depth;
          rt.push(v);
          try {
            countInput(rt, v);
            v = chain[0].spec.apply(v, chain[0].bound, rt, Runtime.EMPTY);
            for (let i = 1; i < chain.length; i++) {
              rt.made(v);
              countInput(rt, v);
              v = chain[i].spec.apply(v, chain[i].bound, rt, Runtime.EMPTY);
            }
          } catch (e) {
            rt.depth = depth;
            rt.unexpected(e, it.node, source, it.span);
            v = undefined;
          }
          rt.depth = depth;
          out = rt.out;
        }
      }
      // A long value is a chunk of its own (`Runtime.appendLong`); a long text of the template
      // never is in a run (`body`). Written as a ternary, this comparison cost grid-200 3-4%
      // (bench:ab, 4 processes x 24 pairs); as a branch, within the noise.
      if (typeof v === 'string') {
        if (v.length >= LONG_TEXT) out = appendLong(rt, out, v, source, it.span);
        else out += v;
      } else if (v !== undefined && v !== null) out += renderText(v);
      const t = texts[k + 1];
      if (t !== '') out += t;
    }
    rt.out = out;
    if (out.length > rt.maxOut) rt.overflow(source, lastSpan);
  };
}

/**
 * Charges a formatter's text of `TEXT_PER_STEP` characters or more to the instruction budget
 * (`Runtime.work`). A formatter's time may grow with its text while what it gives back, which
 * the output and text limits see, stays short: `money-format` of a 176 K post body failed in
 * 7 ms (it listed every character to name the first bad one), and a macro applying itself
 * could repeat that a million times within the instruction limit.
 */
function countInput(rt: Runtime, v: Value): void {
  if (typeof v === 'string' && v.length >= TEXT_PER_STEP) rt.work(v.length);
}

/** `rt.appendLong(text)` from inside a run whose output so far is `out`; returns the run's output after it. */
function appendLong(rt: Runtime, out: string, text: string, source?: Source, span?: { start: number; end: number }): string {
  rt.out = out;
  rt.appendLong(text, source, span);
  return rt.out;
}

/**
 * Whether the chain may end in a formatter that hands its text over in pieces
 * (`FormatterSpec.pieces`), as its last formatter or fused with the one after it: such a
 * variable is written by `variable`, which appends the pieces one by one, not in a run.
 */
function mayWritePieces(chain: readonly FormatterCall[]): boolean {
  const n = chain.length;
  return n > 0 && (chain[n - 1].spec.pieces !== undefined || (n > 1 && chain[n - 2].spec.pieces !== undefined));
}

/**
 * Appends a formatter's text given as pieces (`FormatterSpec.pieces`), each with the output's
 * checks; one of `partMin` characters or more is a chunk of its own (`FormatterSpec.pieceViews`).
 */
function emitPieces(rt: Runtime, v: string | readonly string[], partMin: number): void {
  if (typeof v === 'string') emitPiece(rt, v, partMin);
  else for (let i = 0; i < v.length; i++) emitPiece(rt, v[i], partMin);
}

function emitPiece(rt: Runtime, p: string, partMin: number): void {
  if (p.length >= partMin) rt.appendLong(p);
  else if ((rt.out += p).length > rt.maxOut) rt.overflow();
}

function plainValue(g0: Getter, source: Source, span: { start: number; end: number }): Exec {
  return (rt) => emitValue(rt, g0(rt), source, span);
}

function variable(refs: CompiledRef[], written: readonly FormatterCall[], node: Inst, span: { start: number; end: number }, source: Source): Exec {
  const chain = fuseChain(written);
  // `{name}` alone: its closure is made in a function of its own, so that it keeps a context
  // of one getter instead of every variable the formatter paths below capture.
  if (chain.length === 0) return plainValue(getter(refs[0]), source, span);
  const gets = refs.map(getter);
  const g0 = gets[0];
  const multi = gets.length > 1;
  // A last formatter that writes its text in pieces (`mayWritePieces`) is called through
  // `pieces` in the framed closure below; a lone pure one gets a frame there too, which next
  // to writing a long text costs nothing measurable.
  const last = chain[chain.length - 1];
  const inPieces = last.spec.pieces !== undefined ? last : null;
  if (chain.length === 1 && !multi && inPieces === null) {
    const { spec, bound } = chain[0];
    if (spec.pure === true) {
      // No frame for the value: a pure formatter never asks the context for it.
      return (rt) => {
        let v = g0(rt);
        rt.curSource = source;
        rt.curSpan = span;
        try {
          countInput(rt, v);
          v = spec.apply(v, bound, rt, Runtime.EMPTY);
        } catch (e) {
          rt.unexpected(e, node, source, span);
          return;
        }
        emitValue(rt, v);
      };
    }
    return (rt) => {
      let v = g0(rt);
      const depth = rt.depth;
      rt.push(v);
      rt.curSource = source;
      rt.curSpan = span;
      try {
        countInput(rt, v);
        v = spec.apply(v, bound, rt, Runtime.EMPTY);
      } catch (e) {
        rt.depth = depth;
        rt.unexpected(e, node, source, span);
        return;
      }
      rt.depth = depth;
      emitValue(rt, v);
    };
  }
  const len = inPieces === null ? chain.length : chain.length - 1;
  const partMin = inPieces?.spec.pieceViews === true ? PIECE_PART : LONG_TEXT;
  return (rt) => {
    let v = g0(rt);
    const others = multi ? gets.slice(1).map((g) => g(rt)) : Runtime.EMPTY;
    const depth = rt.depth;
    rt.push(v);
    rt.curSource = source;
    rt.curSpan = span;
    let text: string | readonly string[] | null = null;
    try {
      for (let i = 0; i < len; i++) {
        if (i > 0) rt.made(v);
        countInput(rt, v);
        v = chain[i].spec.apply(v, chain[i].bound, rt, others);
      }
      // Called on the spec (`this`), as `apply` is.
      if (inPieces !== null) {
        if (len > 0) rt.made(v);
        countInput(rt, v);
        text = inPieces.spec.pieces!(v, inPieces.bound, rt, others);
      }
    } catch (e) {
      rt.depth = depth;
      rt.unexpected(e, node, source, span);
      return;
    }
    rt.depth = depth;
    if (text === null) emitValue(rt, v);
    else emitPieces(rt, text, partMin);
  };
}

function predicateBlock(pred: PredicateCall | null, run: Exec, alt: Exec, node: Inst | OrNode, span: { start: number; end: number }, source: Source): Exec {
  // A plain `.or`, or an unknown predicate kept in safe mode: always holds.
  if (pred === null || pred.spec === null) return run;
  const { spec, bound } = pred;
  return (rt) => {
    let ok: boolean;
    rt.curSource = source;
    rt.curSpan = span;
    try {
      ok = spec.test(rt.frames[rt.depth].node, bound, rt);
    } catch (e) {
      rt.unexpected(e, node, source, span);
      return;
    }
    if (ok) run(rt);
    else alt(rt);
  };
}

/**
 * Branches from which an `.or` chain runs as one loop (`orLoop`) rather than as closures each
 * calling the next: 10,000 `{.or equal? 1 2}` overflowed the stack, building the chain and
 * running it, and the render ended in UNEXPECTED_ERROR at 1:1 with its output dropped.
 */
const OR_LOOP_MIN = 16;

function orChain(alt: OrNode | null, ctx: EmitContext): Exec {
  if (alt === null) return NOOP;
  let n = 0;
  for (let a: OrNode | null = alt; a !== null && n < OR_LOOP_MIN; a = a.alt) n++;
  if (n >= OR_LOOP_MIN) return orLoop(alt, ctx);
  if (!ctx.lazy) return predicateBlock(alt.pred, body(alt.body, ctx), orChain(alt.alt, ctx), alt, alt.span, ctx.source);
  const now = eager(ctx);
  return deferred(() => predicateBlock(alt.pred, body(alt.body, now), orChain(alt.alt, now), alt, alt.span, now.source));
}

/** A long `.or` chain (`OR_LOOP_MIN`): the first branch that holds runs; bodies are built when first reached. */
function orLoop(first: OrNode, ctx: EmitContext): Exec {
  const branches: OrNode[] = [];
  for (let a: OrNode | null = first; a !== null; a = a.alt) branches.push(a);
  const now = eager(ctx);
  const source = ctx.source;
  const runs: (Exec | null)[] = branches.map(() => null);
  const run = (rt: Runtime, i: number): void => {
    let r = runs[i];
    if (r === null) r = runs[i] = body(branches[i].body, now);
    r(rt);
  };
  return (rt) => {
    for (let i = 0; i < branches.length; i++) {
      const branch = branches[i];
      const pred = branch.pred;
      // A plain `.or`, or an unknown predicate kept in safe mode: always holds (`predicateBlock`).
      if (pred === null || pred.spec === null) return run(rt, i);
      rt.curSource = source;
      rt.curSpan = branch.span;
      let ok: boolean;
      try {
        ok = pred.spec.test(rt.frames[rt.depth].node, pred.bound, rt);
      } catch (e) {
        rt.unexpected(e, branch, source, branch.span);
        return;
      }
      if (ok) return run(rt, i);
    }
  };
}

/** An expression's name as the engine looks it up, bound once per name (engine/expr/reduce.ts). */
function exprRef(segments: readonly (string | number)[]): CompiledRef {
  return new CompiledRef(segments.length === 1 && segments[0] === '@' ? '@' : segments.join('.'), segments);
}

/**
 * An eval's lookups against the runtime it runs in: one per instruction, pointed at the
 * runtime for each evaluation, rather than a scope object and a closure made per evaluation.
 * Under tsx, whose `keepNames` makes every closure creation a `defineProperty`, that was ~60%
 * of `{.eval n * 2 + 1}` (460 against 165 ns an evaluation); bundled, as the server and the
 * benches run, within the noise (1.11–1.24x the port before, 1.04–1.23x after).
 */
class EvalScope implements ExprScope<CompiledRef> {
  rt: Runtime | null = null;

  lookup(ref: CompiledRef): Value {
    return (this.rt as Runtime).lookup(ref);
  }

  work(chars: number): void {
    (this.rt as Runtime).work(chars);
  }
}

function evalInstruction(text: string, span: { start: number; end: number }, source: Source, limits: Limits): Exec {
  const exprLimits = { maxTokens: limits.maxExpressionTokens, maxStringLen: limits.maxStringLength };
  // Parsed on first execution and kept on the instruction: parse errors are reported once
  // per compiled template, as both implementations do (§4.10).
  let parsed: ParsedExpression<CompiledRef> | null = null;
  const scope = new EvalScope();
  return (rt) => {
    if (parsed === null) {
      parsed = parseExpression(text, exprLimits, exprRef);
      // Indexed loops here and below: `for…of` over the shared frozen empty list was ~10% of a
      // one-off `.eval`'s compile and first render in a CPU profile (bench/README.md, "`.eval`
      // one-offs").
      const errors = parsed.errors;
      for (let i = 0; i < errors.length; i++) rt.error('EXPRESSION_PARSE', `Error parsing expression: ${errors[i]}`, source, span, undefined, false);
    }
    if (parsed.errors.length) {
      // Inert, but a debug expression still shows what was assembled (§5.12).
      if (parsed.debug) emitValue(rt, parsed.listing);
      return;
    }
    const frame = rt.frames[rt.depth];
    const depth = rt.depth;
    rt.push(frame.node);
    let outcome;
    // Lookups read data and cannot start another evaluation, so one scope serves.
    scope.rt = rt;
    try {
      outcome = evaluateExpression(parsed, scope, exprLimits);
    } finally {
      rt.depth = depth;
      scope.rt = null;
    }
    const errors = outcome.errors;
    for (let i = 0; i < errors.length; i++) rt.error('EXPRESSION_REDUCE', `Error reducing expression: ${errors[i]}`, source, span, undefined, false);
    if (outcome.assigned.size > 0) for (const [name, value] of outcome.assigned) rt.setVar(name, value);
    if (outcome.output) emitValue(rt, outcome.output);
  };
}

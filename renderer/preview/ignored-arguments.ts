import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeFrame, Source, type Diagnostic, type Template } from '../../engine/index.ts';
import type { Frame } from './diagnostic-frames.ts';

// `{.sold-out? foo}`, `{title|html x}`: a predicate or formatter that takes no arguments, given
// some. The engine accepts them without a word, as the reference does (conformance), and the
// plugin never sees them: `{.sold-out? variant}` tests the whole product, whatever the author
// meant. `quire check` warns (TEMPLATE_ARGS_IGNORED), the engine's output unchanged.

/** The code of this check (SITE_CODES in diagnostic-frames.ts says what it means). */
export const ARGS_IGNORED_CODE = 'TEMPLATE_ARGS_IGNORED';

type Kind = 'formatters' | 'predicates';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The plugins whose reference says they take no arguments (`"arguments": "none"` in
 * formatters/docs/*.json and predicates/docs/*.json, the data docs/reference/*.md is made
 * from). Those documented "none (arguments are ignored)" are left alone: ignoring is their
 * documented use. The engine's plugin API has no arity (a binder may only set up, as
 * `add-to-cart-btn` compiles its template), so the reference is the source. Read once.
 */
const takesNone = new Map<Kind, Set<string>>();
export function pluginsTakingNoArguments(kind: Kind): ReadonlySet<string> {
  let names = takesNone.get(kind);
  if (names === undefined) {
    names = new Set();
    const dir = path.join(ROOT, kind, 'docs');
    for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.json')).sort()) {
      const docs = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Record<string, { arguments?: unknown }>;
      for (const [name, doc] of Object.entries(docs)) if (doc.arguments === 'none') names.add(name);
    }
    takesNone.set(kind, names);
  }
  return names;
}

// The few syntax-tree fields this walk reads (the renderer sees the engine only through
// engine/index.ts, which does not export the node types).
interface Call {
  name: string;
  raw: string;
  args: readonly string[];
  /** Null for an unknown predicate (safe mode): its own error, not this one. */
  spec: unknown;
  span?: { start: number };
}
interface Inst {
  kind: string;
  span: { start: number };
  pred?: Call | null;
  formatters?: readonly Call[];
  body?: Inst[];
  alternates?: { body: Inst[] } | null;
  alt?: Inst | null;
}

interface Ignored {
  kind: Kind;
  call: Call;
  /** Where the instruction or formatter call starts; the arguments are looked for from here. */
  from: number;
}

function walk(body: readonly Inst[] | undefined, out: Ignored[]): void {
  for (const inst of body ?? []) {
    if (inst.pred) out.push({ kind: 'predicates', call: inst.pred, from: inst.span.start });
    for (const call of inst.formatters ?? []) out.push({ kind: 'formatters', call, from: call.span?.start ?? inst.span.start });
    walk(inst.body, out);
    walk(inst.alternates?.body, out);
    // `{.or pred? …}` chains: each or-node carries its own predicate and body.
    if (inst.alt) walk([inst.alt], out);
  }
}

/** The anchor of a plugin in docs/reference/*.md (as diagnostic-frames.ts links argument errors). */
const anchor = (name: string) => name.toLowerCase().replace(/[^a-z0-9_ -]/g, '').replace(/ /g, '-');

/**
 * Warnings for every predicate and formatter of `template` that takes no arguments (its
 * reference says none; ignored-arguments.test.ts renders each reference example with one added
 * and gets the same output) but was given some, at the first argument.
 */
export function ignoredArgumentFrames(template: Template, file: string): Frame[] {
  if (!template.ast) return [];
  const found: Ignored[] = [];
  walk((template.ast as unknown as { body: Inst[] }).body, found);
  const source = new Source(template.source.text, file);
  const frames: Frame[] = [];
  for (const { kind, call, from } of found) {
    if (call.spec === null || !call.args.some((arg) => arg.trim() !== '')) continue;
    if (!pluginsTakingNoArguments(kind).has(call.name)) continue;
    // The arguments follow the name as written: `sold-out? foo`, `html x`, or after a delimiter
    // (`active-time?:x`), which is not the argument: the place is the first argument's.
    const at = template.source.text.indexOf(call.name + call.raw, from);
    const first = call.args.find((arg) => arg.trim() !== '')!.trim();
    const inRaw = call.raw.indexOf(first);
    const start = at < 0 ? from : at + call.name.length + (inRaw < 0 ? call.raw.length - call.raw.trimStart().length : inRaw);
    const { line, column } = source.position(start);
    const given = call.args.filter((arg) => arg.trim() !== '').join(' ');
    const what = kind === 'predicates' ? `predicate ${call.name}` : `formatter ${call.name}`;
    const written = kind === 'predicates' ? `{.${call.name}}` : `|${call.name}`;
    const message = `${what} takes no arguments, so '${given}' is ignored: it works as ${written} alone`;
    const d = { kind: 'Warning', code: ARGS_IGNORED_CODE, message, line, column, source: file } as unknown as Diagnostic;
    const hint = `what ${call.name} does, with an example: docs/reference/${kind}.md#${anchor(call.name)}`;
    frames.push({ code: ARGS_IGNORED_CODE, where: `${file}:${line}:${column}`, text: `${codeFrame(d, source)}\n  hint: ${hint}`, warning: true });
  }
  return frames;
}

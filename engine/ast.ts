// The syntax tree. Nodes are plain objects tagged by `kind`; every node carries the span of
// its tag in the source. Formatter and predicate calls are bound while parsing (the
// reference's tokenizer validates names and arguments), so each call holds the plugin spec
// and the binder's result next to the names and raw arguments it came from.

import type { FormatterSpec, PredicateSpec } from './plugin-api.ts';
import type { Segment } from './path.ts';
import type { Span } from './source.ts';

export const AST_VERSION = 1;

export interface VarRef {
  readonly text: string;
  readonly segments: readonly Segment[];
  /**
   * The emitter's compiled form of this reference (a `CompiledRef`), made on first use and
   * kept here (a Map per compile used to keep them, engine.ts).
   */
  compiled: unknown;
}

export interface PluginArgs {
  /** Raw argument text after the name, delimiter included ('' when none). */
  readonly raw: string;
  readonly delimiter: string;
  readonly args: readonly string[];
}

export interface FormatterCall extends PluginArgs {
  readonly name: string;
  readonly span: Span;
  readonly spec: FormatterSpec<unknown>;
  readonly bound: unknown;
}

export interface PredicateCall extends PluginArgs {
  /** Name including `?`. */
  readonly name: string;
  /** Null for an unknown predicate kept in safe mode (it always holds). */
  readonly spec: PredicateSpec<unknown> | null;
  readonly bound: unknown;
}

interface Base {
  readonly span: Span;
  /** Written as a `{^…}` preprocessor tag. */
  readonly pre?: boolean;
}

export interface TextNode extends Base {
  readonly kind: 'text';
  readonly text: string;
}
export interface VariableNode extends Base {
  readonly kind: 'variable';
  readonly refs: readonly VarRef[];
  readonly formatters: readonly FormatterCall[];
}
export interface SectionNode extends Base {
  readonly kind: 'section';
  readonly ref: VarRef;
  body: Inst[];
  alt: OrNode | null;
}
export interface RepeatedNode extends Base {
  readonly kind: 'repeated';
  readonly ref: VarRef;
  body: Inst[];
  alternates: AlternatesNode | null;
  alt: OrNode | null;
}
export interface AlternatesNode extends Base {
  readonly kind: 'alternates';
  body: Inst[];
}
export interface PredicateNode extends Base {
  readonly kind: 'predicate';
  readonly pred: PredicateCall;
  /** Written `{.if name? …}`. */
  readonly viaIf: boolean;
  body: Inst[];
  alt: OrNode | null;
}
export interface OrNode extends Base {
  readonly kind: 'or';
  readonly pred: PredicateCall | null;
  body: Inst[];
  alt: OrNode | null;
}
export interface IfNode extends Base {
  readonly kind: 'if';
  readonly refs: readonly VarRef[];
  /** ops[i] joins refs[i] and refs[i + 1]. */
  readonly ops: readonly ('&&' | '||')[];
  body: Inst[];
  alt: OrNode | null;
}
export interface BindVarNode extends Base {
  readonly kind: 'bindvar';
  readonly name: string;
  readonly refs: readonly VarRef[];
  readonly formatters: readonly FormatterCall[];
}
export interface CtxVarNode extends Base {
  readonly kind: 'ctxvar';
  readonly name: string;
  readonly bindings: readonly { readonly key: string; readonly ref: VarRef }[];
}
export interface InjectNode extends Base, PluginArgs {
  readonly kind: 'inject';
  readonly name: string;
  readonly path: string;
}
export interface MacroNode extends Base {
  readonly kind: 'macro';
  readonly name: string;
  body: Inst[];
}
export interface EvalNode extends Base {
  readonly kind: 'eval';
  /** Whitespace that separates `.eval` from the expression, kept for printing. */
  readonly gap: string;
  readonly expression: string;
}
export interface IncludeNode extends Base, PluginArgs {
  readonly kind: 'include';
  readonly name: string;
  readonly options: readonly string[];
}
export interface CommentNode extends Base {
  readonly kind: 'comment';
  readonly text: string;
  readonly multiline: boolean;
}
export interface LiteralNode extends Base {
  readonly kind: 'literal';
  readonly keyword: 'meta-left' | 'meta-right' | 'newline' | 'space' | 'tab';
}

export type BlockNode = SectionNode | RepeatedNode | PredicateNode | IfNode | MacroNode;
export type Inst =
  | TextNode
  | VariableNode
  | BindVarNode
  | CtxVarNode
  | InjectNode
  | EvalNode
  | IncludeNode
  | CommentNode
  | LiteralNode
  | BlockNode;

export interface TemplateAst {
  readonly version: typeof AST_VERSION;
  readonly body: Inst[];
  /** Offset of the end of input (the EOF position). */
  readonly end: number;
}

export const LITERAL_TEXT: Record<LiteralNode['keyword'], string> = {
  'meta-left': '{',
  'meta-right': '}',
  newline: '\n',
  space: ' ',
  tab: '\t',
};

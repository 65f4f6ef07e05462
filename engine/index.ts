// PUBLIC API of the engine. This module wires the default formatter and predicate tables
// into one Engine; it is the only engine module that imports formatters/ and predicates/.

import { defaultFormatters } from '../formatters/index.ts';
import { defaultPredicates } from '../predicates/index.ts';
import { Engine, type CompileOptions, type RenderOptions, type RenderResult, Template } from './engine.ts';
import { createRegistry } from './registry.ts';

export { Engine, Template } from './engine.ts';
export type { CompileOptions, Mode, RenderOptions, RenderResult } from './engine.ts';
export { CODES, codeFrame, formatDiagnostic } from './diagnostics.ts';
export type { Diagnostic, DiagnosticCode, Severity, Stage } from './diagnostics.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export type { Limits } from './limits.ts';
export { createRegistry } from './registry.ts';
export type { Registry } from './registry.ts';
export { parseJson, tryParseJson, JsonSyntaxError, noteManyMembers } from './value.ts';
export type { Value, Node as JsonNode } from './value.ts';
export { printTemplate } from './print.ts';
export { Source } from './source.ts';

let defaultEngine: Engine | null = null;

/** The engine with every formatter and predicate of PLUGINS.md. */
export function getDefaultEngine(): Engine {
  return (defaultEngine ??= new Engine(createRegistry(defaultFormatters, defaultPredicates)));
}

/** Parses, checks and binds a template once; render it as often as needed. */
export function compile(source: string, options?: CompileOptions): Template {
  return getDefaultEngine().compile(source, options);
}

/** Compiles (through a bounded cache) and renders in one call. */
export function render(source: string, data: unknown, options?: RenderOptions): RenderResult {
  return getDefaultEngine().render(source, data, options);
}

/** Names of the registered formatters and predicates, sorted. */
export function listPlugins(): { formatters: string[]; predicates: string[] } {
  const r = getDefaultEngine().registry;
  return { formatters: [...r.formatters.keys()].sort(), predicates: [...r.predicates.keys()].sort() };
}

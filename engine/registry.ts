// A registry is the set of formatters and predicates one engine instance binds against.
// Tables are data; the registry is built once and never looked up by name while rendering.

import type { FormatterSpec, PredicateSpec, TemplateHandle } from './plugin-api.ts';

export interface Registry {
  readonly formatters: ReadonlyMap<string, FormatterSpec<unknown>>;
  readonly predicates: ReadonlyMap<string, PredicateSpec<unknown>>;
  /** Built-in templates compiled for this registry, by source text (as given and trimmed). */
  readonly builtins: Map<string, TemplateHandle>;
}

export function createRegistry(
  formatters: readonly FormatterSpec<any>[],
  predicates: readonly PredicateSpec<any>[],
): Registry {
  const f = new Map<string, FormatterSpec<unknown>>();
  const p = new Map<string, PredicateSpec<unknown>>();
  for (const spec of formatters) {
    if (f.has(spec.name)) throw new Error(`formatter registered twice: ${spec.name}`);
    f.set(spec.name, spec);
  }
  for (const spec of predicates) {
    if (!spec.name.endsWith('?')) throw new Error(`predicate name must end with '?': ${spec.name}`);
    if (p.has(spec.name)) throw new Error(`predicate registered twice: ${spec.name}`);
    p.set(spec.name, spec);
  }
  return { formatters: f, predicates: p, builtins: new Map() };
}

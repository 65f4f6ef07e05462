// For the tests of built-in templates printed in code (formatters/*-in-code.test.ts): two
// engines, one with the default formatters and one whose named formatters run their templates
// only, rendering the same page; `{@|charged}` prints the runtime's instruction and made-text
// counters where a test source puts it, so the tests compare what each charged.
import { createRegistry, Engine } from '../engine/index.ts';
import type { FormatterSpec, Node } from '../engine/plugin-api.ts';
import { defaultPredicates } from '../predicates/index.ts';
import { defaultFormatters } from '../formatters/index.ts';

const charged: FormatterSpec<undefined> = {
  name: 'charged',
  apply: (_v, _b, ctx) => {
    const rt = ctx as unknown as { steps: number; textMade: number };
    return `${rt.steps}/${rt.textMade}`;
  },
};

export interface Limits {
  maxInstructions?: number;
  maxTextMade?: number;
  maxOutputLength?: number;
}

export interface Rendered {
  html: string;
  errors: string[];
}

/** Renders a source and page with the printing in code and with `templatesOnly` (the same names, template only). */
export function inCodeHarness(templatesOnly: readonly FormatterSpec<any>[]) {
  const names = new Map(templatesOnly.map((f) => [f.name, f]));
  const inCode = new Engine(createRegistry([...defaultFormatters, charged], defaultPredicates));
  const byTemplate = new Engine(createRegistry([...defaultFormatters.map((f) => names.get(f.name) ?? f), charged], defaultPredicates));
  return (source: string, page: Node, limits: Limits = {}, locale = 'en-US'): { code: Rendered; template: Rendered } => {
    const run = (engine: Engine): Rendered => {
      const r = engine.compile(source).render(page, { limits, locale, now: 1_700_000_000_000 });
      return { html: r.html, errors: r.errors.map((e) => JSON.stringify(e)) };
    };
    return { code: run(inCode), template: run(byTemplate) };
  };
}

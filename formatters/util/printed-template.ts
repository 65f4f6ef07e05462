// Built-in templates printed in code: a formatter whose template a page prints once per item
// (`product-price`, `comment-link`, `like-button`, `add-to-cart-btn`) prints it here and runs
// the template only where its printing declines or `PluginContext.spend` refuses. A template run
// is a frame, a capture and the instruction closures of a dozen tags; printed, it is the
// concatenation (bench/README.md, "Thirty-first session"). Each printing is held to its
// template by a differential test through the engine (formatters/*-in-code.test.ts).
import { renderText, type FormatterSpec, type PluginContext, type Ref, type TemplateHandle, type Value } from '../../engine/plugin-api.ts';

export interface PrintedBound {
  readonly template: TemplateHandle;
  readonly refs: readonly Ref[];
}

/**
 * A formatter of a template that is not private, printed in code by `print` (given `paths` to
 * look up as the template would, each looked up only when the template would), the template
 * running only where `print` declines (undefined) or `spend` refuses. `inCode` false: the
 * template only, for the tests that hold the two to one another.
 */
export function printedTemplateFormatter(
  name: string,
  source: string,
  paths: readonly string[],
  print: (refs: readonly Ref[], ctx: PluginContext) => { text: string; steps: number } | undefined,
  inCode: boolean,
  guard?: (v: Value) => boolean,
): FormatterSpec<PrintedBound> {
  return {
    name,
    bind: (_args, ctx) => ({ template: ctx.compileTemplate(source), refs: paths.map((p) => ctx.parseRef(p) as Ref) }),
    apply: (value, b, ctx: PluginContext) => {
      if (guard && !guard(value)) return '';
      // The template's frame holds `value`; so does the formatter's own unless it follows
      // another in a chain (its frame then holds the chain's first value).
      if (inCode && ctx.node() === value) {
        const printed = print(b.refs, ctx);
        if (printed !== undefined && ctx.spend(printed.steps, 0, printed.text.length)) return printed.text;
      }
      return ctx.runTemplate(b.template, value, false);
    },
  };
}

/** What a `{name}` of a template prints of a value (engine/compile.ts, `emitRun`). */
export function printed(v: Value): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : renderText(v);
}


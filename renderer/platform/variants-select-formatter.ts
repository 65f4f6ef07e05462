import type { defaultFormatters } from '../../formatters/index.ts';

// The storefront's `variants-select`: the formatter of PLUGINS §4, whose reference markup gives
// each value's <label> `role="button" tabindex="0"`, with those two attributes left out of the
// labels. ARIA allows no role on a <label> (axe aria-allowed-role), and a tab stop per label
// beside the radio group's own made a keyboard visitor pass every value twice. The radios are
// the keyboard's way in (Tab to the group, arrows choose, as any radio group), and the
// dropdown of the same option mirrors them (A3). The default engine keeps the reference's
// bytes (`quire render`, the conformance cases); only the renderer's pages use this one.

type FormatterSpec = (typeof defaultFormatters)[number];

/** How the reference template opens every value's label (formatters/templates/variants-select.ts). */
export const REFERENCE_LABEL = '<label class="sqs-button-element--secondary" role="button" tabindex="0" for=';
export const STOREFRONT_LABEL = '<label class="sqs-button-element--secondary" for=';

/**
 * The reference formatter, binding the storefront's labels into its built-in template: the
 * template it compiles is the reference's with each label's opening rewritten, once per
 * compile. Rewriting every output instead (a `replaceAll` over the whole widget's HTML) was
 * ~1% of a product page's server CPU (bench/README.md, "HTTP path, 2026-12-03").
 */
export function storefrontVariantsSelect(reference: FormatterSpec): FormatterSpec {
  const bind = reference.bind;
  if (bind === undefined) throw new Error(`${reference.name}: the storefront's labels are bound into its template, and it has no binder`);
  return {
    ...reference,
    bind: (args, ctx) =>
      bind(args, {
        name: ctx.name,
        delimiter: ctx.delimiter,
        raw: ctx.raw,
        parseRef: (text) => ctx.parseRef(text),
        compileTemplate: (source) => ctx.compileTemplate(source.replaceAll(REFERENCE_LABEL, STOREFRONT_LABEL)),
      }),
  };
}

/**
 * Island marker format, shared by the server renderer (which writes the markers) and the
 * browser boot (which reads them). Pure data: no DOM, no React, no node built-ins, so the
 * renderer can import it without pulling browser code in.
 *
 * Bump ISLAND_PROTOCOL_VERSION whenever a name below or the props encoding changes; the
 * renderer writes it on the context block and the boot refuses a page from another version
 * (a stale cached bundle against new markup would otherwise hydrate into a mismatch).
 */
export const ISLAND_PROTOCOL_VERSION = 1;

/** Root attribute of renderer-made islands: `<div data-island="pill-cart">`. */
export const ISLAND_ATTR = 'data-island';
/** Set to "true" on each container once hydrated (a hook for tests; not React-managed). */
export const HYDRATED_ATTR = 'data-hydrated';
/** Marks the element whose descendants form one product's parts (A1 "product scope"). */
export const PRODUCT_SCOPE_ATTR = 'data-product-scope';
/** The page-context JSON block: `<script type="application/json" id="sf-context">`. */
export const CONTEXT_SCRIPT_ID = 'sf-context';
/** Attribute on the context script carrying ISLAND_PROTOCOL_VERSION. */
export const PROTOCOL_VERSION_ATTR = 'data-protocol';
/** Variant image marker emitted by the renderer's product templates (A3). */
export const VARIANT_IMAGE_ATTR = 'data-variant-image-for';
/** Census button marker (A12.6). */
export const CENSUS_BUTTON_ATTR = 'data-census-button';

/** Islands the renderer emits itself, by the value of `data-island`. */
export const RENDERER_ISLANDS = ['pill-cart', 'bnpl', 'site-form', 'account', 'cart-page', 'gallery', 'checkout', 'review-form'] as const;
export type RendererIslandKind = (typeof RENDERER_ISLANDS)[number];

/**
 * Islands whose markup comes from a commerce formatter: found by class, because the
 * formatter bytes are fixed by the plugin catalogue and must not gain a data-island.
 */
export const FORMATTER_ISLANDS = {
  'add-to-cart': '.sqs-add-to-cart-button-wrapper',
  'variants': '.product-variants',
  'quantity': '.product-quantity-input',
  'restock': '.product-restock-notification',
} as const;
export type FormatterIslandKind = keyof typeof FORMATTER_ISLANDS;

export type IslandKind = RendererIslandKind | FormatterIslandKind;

export function isRendererIslandKind(value: string): value is RendererIslandKind {
  return (RENDERER_ISLANDS as readonly string[]).includes(value);
}

/** CSS selector for the roots of one renderer-made island kind. */
export function rendererIslandSelector(kind: RendererIslandKind): string {
  return `[${ISLAND_ATTR}="${kind}"]`;
}

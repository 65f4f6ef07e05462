/**
 * Image width variants and the `sqs` loader's URLs (templates seed §9, STOREFRONT D8).
 * Pure: used by the image markup on the server and by the React image component.
 */

/** Every width variant the image service keeps, smallest first. */
export const IMAGE_WIDTH_VARIANTS = ['100w', '300w', '500w', '750w', '1000w', '1500w', '2500w'] as const;
export type ImageWidthVariant = (typeof IMAGE_WIDTH_VARIANTS)[number];

/** Widths of the srcset the `sqs` loader builds. */
export const SQS_SRCSET_WIDTHS = [100, 300, 500, 750, 1000, 1500, 2500] as const;

/**
 * Seed §9: a requested width strictly over `over` takes `variant`; the first match wins,
 * and anything at or under 100 takes 100w. 2500w is never chosen by width.
 */
export const WIDTH_VARIANT_THRESHOLDS: readonly { over: number; variant: ImageWidthVariant }[] = [
  { over: 1000, variant: '1500w' },
  { over: 750, variant: '1000w' },
  { over: 500, variant: '750w' },
  { over: 300, variant: '500w' },
  { over: 100, variant: '300w' },
];
export const SMALLEST_WIDTH_VARIANT: ImageWidthVariant = '100w';

export function widthVariantFor(width: number): ImageWidthVariant {
  for (const threshold of WIDTH_VARIANT_THRESHOLDS) {
    if (width > threshold.over) return threshold.variant;
  }
  return SMALLEST_WIDTH_VARIANT;
}

/** Seed §8 (images), character for character: no quotes and no final period. */
export const INVALID_SOURCE_MESSAGE = 'Invalid source parameter. Pass in originalSize';

export type OriginalSize = { ok: true; width: number; height: number } | { ok: false; error: string };

/**
 * An asset's `originalSize` (`"1000x667"`): exactly two positive integers around one `x`.
 * Anything else is the seed's invalid-source error.
 */
export function parseOriginalSize(value: unknown): OriginalSize {
  const match = typeof value === 'string' ? /^\s*(\d{1,6})\s*x\s*(\d{1,6})\s*$/.exec(value) : null;
  const width = match ? Number(match[1]) : 0;
  const height = match ? Number(match[2]) : 0;
  if (!match || width === 0 || height === 0) return { ok: false, error: INVALID_SOURCE_MESSAGE };
  return { ok: true, width, height };
}

/** The image service picks a variant through the `format` query parameter. */
export function sqsImageUrl(src: string, format: string): string {
  const hashAt = src.indexOf('#');
  const base = hashAt >= 0 ? src.slice(0, hashAt) : src;
  return `${base}${base.includes('?') ? '&' : '?'}format=${format}`;
}

/** `src?format=100w 100w, …, src?format=2500w 2500w`. */
export function sqsSrcSet(src: string): string {
  return SQS_SRCSET_WIDTHS.map((width) => `${sqsImageUrl(src, `${width}w`)} ${width}w`).join(', ');
}

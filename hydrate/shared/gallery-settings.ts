/**
 * Gallery settings of templates seed §5 and §9: the designs, the enumerated settings, the
 * numeric ranges with their defaults, and `normalizeGallerySettings`, which turns stored
 * (possibly stale or hand-edited) settings into a complete, in-range set. Pure.
 *
 * Defaults the seed gives are marked "seed"; the others are designed here. Which design a
 * setting applies to is not shown in the seed, so every setting is always present.
 */

export const GALLERY_DESIGNS = ['grid', 'slideshow', 'slider', 'stacked'] as const;
export const GALLERY_ASPECT_RATIOS = [
  'square',
  'standard',
  'standard-vertical',
  'four-three',
  'three-four-vertical',
  'widescreen',
  'anamorphic-widescreen',
] as const;
export const GALLERY_META_POSITIONS = ['top', 'top-left', 'top-right', 'center', 'bottom', 'bottom-left', 'bottom-right'] as const;
export const GALLERY_ACTIVE_ALIGNMENTS = ['center', 'left', 'right'] as const;
export const GALLERY_LIGHTBOX_THEMES = ['dark', 'light'] as const;
/** The flags the `gallery-<flag>?` predicates test (seed §9). */
export const GALLERY_FLAGS = ['autoplay', 'auto-crop', 'controls', 'lightbox', 'square-thumbs', 'show-meta', 'show-meta-on-hover', 'thumbnails'] as const;

/** Seed §5 ranges (inclusive) and defaults. */
export const GALLERY_RANGES = {
  'autoplay-duration': { min: 1, max: 10, default: 5 },
  'thumbnail-strip-height': { min: 0, max: 200, default: 80 },
  'thumbnail-strip-margin': { min: 0, max: 60, default: 20 },
  'thumbnails-per-row': { min: 1, max: 10, default: 4 },
  padding: { min: 0, max: 50, default: 20 },
  'max-width': { min: 100, max: 300, default: 300 },
} as const;
export type GalleryRangeName = keyof typeof GALLERY_RANGES;

const ENUMS = {
  design: { values: GALLERY_DESIGNS, default: 'grid' }, // seed
  'aspect-ratio': { values: GALLERY_ASPECT_RATIOS, default: 'square' }, // seed
  'meta-position': { values: GALLERY_META_POSITIONS, default: 'bottom' }, // seed
  'active-alignment': { values: GALLERY_ACTIVE_ALIGNMENTS, default: 'center' }, // seed
  lightboxTheme: { values: GALLERY_LIGHTBOX_THEMES, default: 'dark' }, // designed
} as const;
type EnumName = keyof typeof ENUMS;

export const GALLERY_BOOLEAN_DEFAULTS = {
  autoplay: false, // seed
  controls: true,
  'auto-crop': true, // seed
  'square-thumbs': true, // seed
  thumbnails: true,
  'show-meta': false,
  'show-meta-basic': false,
  'show-meta-only-title': false,
  'show-meta-on-hover': false,
  lightbox: false,
  newWindow: false,
  transparentBackground: false,
} as const;
type BooleanName = keyof typeof GALLERY_BOOLEAN_DEFAULTS;

export type GallerySettings = { [K in EnumName]: (typeof ENUMS)[K]['values'][number] } & { [K in GalleryRangeName]: number } & {
  [K in BooleanName]: boolean;
};

export function defaultGallerySettings(): GallerySettings {
  return normalizeGallerySettings({});
}

/**
 * Unknown values take the default; numbers (or numeric strings) are rounded and clamped
 * into their range; booleans accept true/false and "true"/"false". Unknown keys are
 * dropped.
 */
export function normalizeGallerySettings(input: Record<string, unknown>): GallerySettings {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(ENUMS)) {
    const value = input[name];
    out[name] = (spec.values as readonly unknown[]).includes(value) ? value : spec.default;
  }
  for (const [name, range] of Object.entries(GALLERY_RANGES)) {
    const raw = input[name];
    const number = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    out[name] = Number.isFinite(number) ? Math.min(range.max, Math.max(range.min, Math.round(number))) : range.default;
  }
  for (const [name, fallback] of Object.entries(GALLERY_BOOLEAN_DEFAULTS)) {
    const raw = input[name];
    out[name] = typeof raw === 'boolean' ? raw : raw === 'true' ? true : raw === 'false' ? false : fallback;
  }
  return out as GallerySettings;
}

/**
 * Colour parsing and the two light/dark rules of templates seed §5, §8 and §9. Pure.
 */

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export type HexColour = { ok: true; hex: string; rgb: Rgb } | { ok: false };

/** Seed §5: hex accepts 3 or 6 digits, with or without `#`; 3 digits double up (`abc` = `aabbcc`). */
export function parseHexColour(text: unknown): HexColour {
  if (typeof text !== 'string') return { ok: false };
  const match = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.exec(text.trim());
  if (!match) return { ok: false };
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1];
  const value = Number.parseInt(digits, 16);
  return { ok: true, hex: `#${digits.toLowerCase()}`, rgb: { r: value >> 16, g: (value >> 8) & 0xff, b: value & 0xff } };
}

/** Seed §8, character for character (each with its final period). */
export const HSL_MESSAGES = {
  hue: 'Hue out of bounds.',
  saturation: 'Saturation out of bounds.',
  lightness: 'Lightness out of bounds.',
  alpha: 'Alpha out of bounds.',
  missing: 'Missing an H/S/L value.',
} as const;

/** Seed §5 ranges, inclusive. */
export const HSL_RANGES = {
  hue: { min: 0, max: 360 },
  saturation: { min: 0, max: 1 },
  lightness: { min: 0, max: 1 },
  alpha: { min: 0, max: 1 },
} as const;

export interface Hsl {
  hue: number;
  saturation: number;
  lightness: number;
  alpha?: number;
}

export type HslCheck = { ok: true; hsl: Hsl } | { ok: false; errors: string[] };

function inRange(value: number, range: { min: number; max: number }): boolean {
  return Number.isFinite(value) && value >= range.min && value <= range.max;
}

/**
 * A missing hue, saturation or lightness is the one error reported on its own; otherwise
 * every out-of-range component is reported, in the order hue, saturation, lightness,
 * alpha. Alpha is optional.
 */
export function checkHsl(input: { hue?: unknown; saturation?: unknown; lightness?: unknown; alpha?: unknown }): HslCheck {
  const { hue, saturation, lightness, alpha } = input;
  if (typeof hue !== 'number' || typeof saturation !== 'number' || typeof lightness !== 'number') {
    return { ok: false, errors: [HSL_MESSAGES.missing] };
  }
  const errors: string[] = [];
  if (!inRange(hue, HSL_RANGES.hue)) errors.push(HSL_MESSAGES.hue);
  if (!inRange(saturation, HSL_RANGES.saturation)) errors.push(HSL_MESSAGES.saturation);
  if (!inRange(lightness, HSL_RANGES.lightness)) errors.push(HSL_MESSAGES.lightness);
  const hasAlpha = alpha !== undefined && alpha !== null;
  if (hasAlpha && (typeof alpha !== 'number' || !inRange(alpha, HSL_RANGES.alpha))) errors.push(HSL_MESSAGES.alpha);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, hsl: hasAlpha ? { hue, saturation, lightness, alpha: alpha as number } : { hue, saturation, lightness } };
}

/** Seed §9: the colour as one 24-bit number over this threshold (0x7FFFFF) is light. */
export const BRIGHTNESS_THRESHOLD = 8388607;

export function brightnessWeight(rgb: Rgb): 'light' | 'dark' {
  const value = (rgb.r << 16) | (rgb.g << 8) | rgb.b;
  return value > BRIGHTNESS_THRESHOLD ? 'light' : 'dark';
}

/**
 * Seed §9's other rule: dark when the weighted luminance is below 0.65 of 256. The
 * weights are not in the seed; the Rec. 601 luma weights are used (designed here).
 */
export const DARK_LUMINANCE_FRACTION = 0.65;
export const LUMINANCE_WEIGHTS = { r: 0.299, g: 0.587, b: 0.114 } as const;

export function weightedLuminance(rgb: Rgb): number {
  return LUMINANCE_WEIGHTS.r * rgb.r + LUMINANCE_WEIGHTS.g * rgb.g + LUMINANCE_WEIGHTS.b * rgb.b;
}

export function isDarkColour(rgb: Rgb): boolean {
  return weightedLuminance(rgb) < DARK_LUMINANCE_FRACTION * 256;
}

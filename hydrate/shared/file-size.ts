/**
 * File sizes as people read them (seed 001 §9: "file size display uses units of 1024"; the
 * seed's megabyte of 1,000,000 bytes is for limits, not for display). Pure: the renderer's
 * pages and any browser code show the same text.
 */

/** Seed §9: a megabyte, for size limits. */
export const MEGABYTE = 1_000_000;
/** Seed §9: the display unit. */
export const FILE_SIZE_UNIT = 1024;

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** `512 B`, `1 KB`, `2.4 MB`: one decimal, dropped when it is 0; null for a bad count. */
export function formatFileSize(bytes: number): string | null {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return null;
  let value = Math.round(bytes);
  let unit = 0;
  while (value >= FILE_SIZE_UNIT && unit < UNITS.length - 1) {
    value /= FILE_SIZE_UNIT;
    unit++;
  }
  const text = unit === 0 ? String(value) : (Math.round(value * 10) / 10).toFixed(1).replace(/\.0$/, '');
  return `${text} ${UNITS[unit]}`;
}

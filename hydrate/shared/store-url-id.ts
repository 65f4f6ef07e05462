/**
 * Store URL ids and the tag and category limits (templates seed §5, §9; commerce seed
 * §9). Pure: the editor may check a title as it is typed, the server assigns the id.
 */

/** Seed: slugs shorter than this fall back to the fallback title. */
export const MIN_URL_ID_LENGTH = 3;
/** The fallback title when the caller gives none (designed here). */
export const DEFAULT_FALLBACK_TITLE = 'store';
export const MAX_TAG_LENGTH = 50;
export const MAX_CATEGORY_LENGTH = 25;

/** Lower-case ASCII letters and digits; every other run becomes one `-`; accents are dropped. */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The title's slug, or the fallback title's when that is empty or under 3 characters;
 * if taken, the first free of `-1`, `-2`, … is appended.
 */
export function storeUrlId(title: string, existing: Iterable<string>, fallbackTitle: string = DEFAULT_FALLBACK_TITLE): string {
  let base = slugify(title);
  if (base.length < MIN_URL_ID_LENGTH) base = slugify(fallbackTitle) || DEFAULT_FALLBACK_TITLE;
  const taken = new Set(existing);
  if (!taken.has(base)) return base;
  for (let suffix = 1; ; suffix++) {
    const candidate = `${base}-${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A tag is non-blank text of at most 50 characters (code points). */
export function isValidTag(text: unknown): text is string {
  return typeof text === 'string' && text.trim() !== '' && [...text].length <= MAX_TAG_LENGTH;
}

/** A category is non-blank text of at most 25 characters (code points). */
export function isValidCategory(text: unknown): text is string {
  return typeof text === 'string' && text.trim() !== '' && [...text].length <= MAX_CATEGORY_LENGTH;
}

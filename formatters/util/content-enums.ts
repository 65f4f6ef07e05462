// Code ↔ name tables of PLUGINS §16 and the magic words of §7 that the content, social and
// slide plugins test against. The generated predicates (§7.2–7.5) are built from these
// tables, so a name appears here exactly once.

export interface EnumEntry {
  readonly name: string;
  readonly code: number;
}

/** RecordType (`recordType`). */
export const RECORD_TYPES: readonly EnumEntry[] = [
  { name: 'undefined', code: -1 },
  { name: 'text', code: 1 },
  { name: 'image', code: 2 },
  { name: 'quote', code: 4 },
  { name: 'link', code: 5 },
  { name: 'audio', code: 7 },
  { name: 'video', code: 8 },
  { name: 'store-item', code: 11 },
  { name: 'event', code: 12 },
  { name: 'gallery', code: 14 },
  { name: 'binary', code: 15 },
  { name: 'css-asset', code: 16 },
  { name: 'tweak-asset', code: 17 },
  { name: 'digital-good', code: 18 },
  { name: 'attachment', code: 19 },
  { name: 'wordpress-export', code: 20 },
  { name: 'json-export', code: 21 },
  { name: 'site-search', code: 30 },
  { name: 'active-time', code: 31 },
  { name: 'tweet', code: 50 },
  { name: 'checkin', code: 52 },
  { name: 'kbarticle', code: 54 },
];

export const RECORD_TYPE_STORE_ITEM = 11;

/**
 * Record types whose predicate also matches a promoted block of the same word (§7.3); the
 * extra `external-video?` is a second name for the video test.
 */
export const PROMOTED_RECORD_TYPES: readonly { readonly predicate: string; readonly code: number; readonly word: string }[] = [
  { predicate: 'video', code: 8, word: 'video' },
  { predicate: 'external-video', code: 8, word: 'video' },
  { predicate: 'image', code: 2, word: 'image' },
  { predicate: 'quote', code: 4, word: 'quote' },
  { predicate: 'link', code: 5, word: 'link' },
  { predicate: 'gallery', code: 14, word: 'gallery' },
];

/** Promoted block words (§7.4); the predicate is `promoted<WORD upper-cased>?`. */
export const PROMOTED_BLOCK_WORDS: readonly string[] = [
  'map', 'embed', 'image', 'code', 'quote', 'twitter', 'link', 'video', 'foursquare', 'instagram', 'form',
];

/** BackgroundSource (`backgroundSource`). */
export const BACKGROUND_SOURCES: readonly EnumEntry[] = [
  { name: 'undefined', code: -1 },
  { name: 'upload', code: 1 },
  { name: 'instagram', code: 2 },
  { name: 'video', code: 3 },
  { name: 'none', code: 4 },
];

/** SliceType (`currentType`); `current-type?` looks names up here. */
export const SLICE_TYPES: readonly EnumEntry[] = [
  { name: 'undefined', code: -1 },
  { name: 'heading', code: 1 },
  { name: 'body', code: 3 },
  { name: 'image', code: 4 },
  { name: 'gallery', code: 5 },
  { name: 'video', code: 6 },
  { name: 'social-icons', code: 7 },
  { name: 'buttons', code: 8 },
  { name: 'navigation', code: 9 },
  { name: 'custom-form', code: 10 },
  { name: 'newsletter', code: 11 },
  { name: 'album', code: 12 },
  { name: 'map', code: 13 },
  { name: 'logo', code: 14 },
  { name: 'action', code: 15 },
  { name: 'form', code: 16 },
  { name: 'lock', code: 17 },
  { name: 'password', code: 18 },
  { name: 'twitter', code: 19 },
];

export const UNDEFINED_CODE = -1;

/** CollectionType codes tested by `collection-page?` / `collection-template-page?`. */
export const COLLECTION_TYPE_TEMPLATE_PAGE = 7;
export const COLLECTION_TYPE_PAGE = 10;

/** FolderBehavior codes. */
export const FOLDER_BEHAVIOR_INDEX = 1;
export const FOLDER_BEHAVIOR_REDIRECT = 2;

/** Gallery select options (§7.2): `gallery-<option>-<value>?`. */
export const GALLERY_SELECT_OPTIONS: readonly { readonly option: string; readonly values: readonly string[] }[] = [
  { option: 'design', values: ['grid', 'slideshow', 'slider', 'stacked'] },
  { option: 'meta-position', values: ['top', 'top-left', 'top-right', 'center', 'bottom', 'bottom-left', 'bottom-right'] },
  { option: 'active-alignment', values: ['center', 'left', 'right'] },
];

/** Gallery boolean options (§7.2): `gallery-<option>?`. */
export const GALLERY_BOOLEAN_OPTIONS: readonly string[] = [
  'autoplay', 'auto-crop', 'controls', 'lightbox', 'square-thumbs', 'show-meta', 'show-meta-on-hover', 'thumbnails',
];

/** Code of a slice type name; an unknown name is UNDEFINED, as in the reference. */
export function sliceTypeCode(name: string): number {
  for (const e of SLICE_TYPES) if (e.name === name) return e.code;
  return UNDEFINED_CODE;
}

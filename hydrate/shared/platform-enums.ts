/**
 * Identifier catalogues of the templates seed §3 (plus the editor ids of §2), as typed
 * constants. Pure: the browser runtime and the renderer can both import them.
 *
 * Scope: what the seed states, nothing more. Where the seed gives only examples and an id
 * range ("block types … ids 1 to 71"), the range and the named examples are kept and no
 * other id is invented. The formatters' own tables of PLUGINS §16 (full record and slice
 * type lists, in `formatters/util/content-enums.ts`) are not imported here: formatters may
 * not import hydrate/ and this catalogue must not depend on formatter internals, so the few
 * ids both state (record types, background sources) appear twice, each checked by its test.
 */
import { ENVIRONMENTS, EVENT_SOURCES } from './platform-wire.ts';

export { ENVIRONMENTS, EVENT_SOURCES };

export interface IdRange {
  min: number;
  max: number;
}

export function inRange(range: IdRange, id: unknown): id is number {
  return typeof id === 'number' && Number.isInteger(id) && id >= range.min && id <= range.max;
}

export const PRODUCT_TYPES = { physical: 1, digital: 2, service: 3, 'gift-card': 4 } as const;
export const SUBSCRIPTION_UNITS = ['WEEK', 'MONTH', 'YEAR'] as const;

export const BACKGROUND_SOURCES = { upload: 1, instagram: 2, video: 3, none: 4 } as const;
export const FOLDER_BEHAVIOURS = { index: 1, redirect: 2, none: 3 } as const;

/** Two catalogues: about 60 entries from navigation 1 to accordion 69, and ids 1 to 71. */
export const BLOCK_TYPE_IDS: IdRange = { min: 1, max: 71 };
export const BLOCK_TYPE_LEGACY_IDS: IdRange = { min: 1, max: 69 };
export const BLOCK_TYPES = {
  navigation: 1,
  html: 2,
  image: 5,
  form: 9,
  product: 43,
  newsletter: 51,
  button: 53,
  'member-area': 67,
  accordion: 69,
  marquee: 70,
  shape: 71,
} as const;

export const COLLECTION_TYPE_IDS: IdRange = { min: 1, max: 25 };
export const COLLECTION_TYPES = { generic: 1, subscription: 2, page: 10, products: 13, lessons: 24, course: 25 } as const;

/** The record types the seed names ("and others" are not listed there). */
export const RECORD_TYPES = {
  text: 1,
  image: 2,
  quote: 4,
  link: 5,
  audio: 7,
  video: 8,
  'store-item': 11,
  event: 12,
  gallery: 14,
} as const;

export const ITEM_TYPE_IDS: IdRange = { min: 1, max: 63 };
export const ITEM_TYPES = { review: 10, 'store-item': 11, event: 12, 'digital-good': 18, lesson: 62, 'course-item': 63 } as const;

export const SLICE_TYPE_IDS: IdRange = { min: 1, max: 19 };
/** The named slice list, in the seed's order (20 names; not the numeric catalogue). */
export const SLICE_TYPE_NAMES = [
  'heading',
  'sub-heading',
  'body',
  'image',
  'gallery',
  'video',
  'social-icons',
  'buttons',
  'navigation',
  'custom-form',
  'newsletter',
  'album',
  'map',
  'lock',
  'password',
  'twitter',
  'logo',
  'action',
  'popup-overlay-action',
  'temp-lock-inject',
] as const;

export const SLIDE_TYPES = ['cover-page', 'lock-screen', 'popup-overlay'] as const;
export const COLLECTION_VIEWS = ['list', 'grid', 'product'] as const;
export const GALLERY_ITEM_MEDIA_TYPES = ['imageEmpty', 'imageFile', 'imageLicensed', 'imageReused', 'assetReused', 'video'] as const;
export const DEVICE_VIEWS = ['desktop', 'phone', 'tablet'] as const;

const VERTICAL = ['TOP', 'CENTER', 'BOTTOM'] as const;
const HORIZONTAL = ['LEFT', 'CENTER', 'RIGHT'] as const;
export type AnchorPosition = `${(typeof VERTICAL)[number]}_${(typeof HORIZONTAL)[number]}`;
/** Nine positions, row by row; the `V_H` spelling is designed (the seed names only the cross). */
export const ANCHOR_POSITIONS: readonly AnchorPosition[] = VERTICAL.flatMap((v) => HORIZONTAL.map((h) => `${v}_${h}` as AnchorPosition));

export const WEBSITE_STATUS_IDS: IdRange = { min: 1, max: 15 };
/**
 * The seed lists "expired, past due, trial, beta, removed, internal, comped, paid 8, …,
 * enterprise 15": the seven before paid 8 are read as ids 1 to 7 in that order.
 */
export const WEBSITE_STATUSES = {
  expired: 1,
  'past-due': 2,
  trial: 3,
  beta: 4,
  removed: 5,
  internal: 6,
  comped: 7,
  paid: 8,
  enterprise: 15,
} as const;

export const CONTRIBUTOR_ROLES = [
  'admin',
  'billing',
  'reporting',
  'editor',
  'moderator',
  'commenter',
  'store-manager',
  'scheduling',
  'viewer',
  'campaigns-editor',
  'scheduling-viewer',
  'scheduling-editor',
  'none',
  'website-manager',
] as const;

export const FEATURE_FLAG_IDS: IdRange = { min: 1, max: 70 };
/** Named in the seed without their ids. */
export const FEATURE_FLAG_EXAMPLES = ['commerce subscriptions', 'Afterpay', 'Clearpay', 'Klarna', 'gift cards', 'site user accounts'] as const;

export const LAYOUT_VARIANT_IDS: IdRange = { min: 1000, max: 1019 };
export const SURVEY_COHORTS = ['cohort-A', 'cohort-B', 'cohort-C', 'cohort-D', 'cohort-E'] as const;
export const CONTENT_STATUS_LABELS = ['Scheduled', 'Needs Review', 'Draft', 'Private'] as const;
export const EXPERIMENT_TYPES = ['FEATURE_TOGGLE', 'AB_TEST'] as const;

/** Seed §2 editor ids. */
export const TWEAK_EDITOR_PAGE_TYPES = ['SPLASH_PAGE', 'LOCK_SCREEN', 'POPUP_OVERLAY', 'CHECKOUT', 'STYLE'] as const;
export const TWEAK_EDITOR_EVENTS = ['change', 'close', 'save', 'reset', 'aftershow', 'afterclose', 'beforeopen'] as const;
export const FORM_BUILDER_TABS = { build: 1, storage: 2, advanced: 3, captcha: 4, disclaimer: 5 } as const;

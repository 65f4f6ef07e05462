import { describe, expect, test } from 'vitest';
import * as E from './platform-enums.ts';

describe('seed §3 catalogues', () => {
  test('product, background, folder', () => {
    expect(E.PRODUCT_TYPES).toEqual({ physical: 1, digital: 2, service: 3, 'gift-card': 4 });
    expect(E.SUBSCRIPTION_UNITS).toEqual(['WEEK', 'MONTH', 'YEAR']);
    expect(E.BACKGROUND_SOURCES).toEqual({ upload: 1, instagram: 2, video: 3, none: 4 });
    expect(E.FOLDER_BEHAVIOURS).toEqual({ index: 1, redirect: 2, none: 3 });
  });

  test('block types: the named examples inside ids 1 to 71', () => {
    expect(E.BLOCK_TYPES).toEqual({ navigation: 1, html: 2, image: 5, form: 9, product: 43, newsletter: 51, button: 53, 'member-area': 67, accordion: 69, marquee: 70, shape: 71 });
    for (const id of Object.values(E.BLOCK_TYPES)) expect(E.inRange(E.BLOCK_TYPE_IDS, id)).toBe(true);
    expect(E.BLOCK_TYPE_LEGACY_IDS).toEqual({ min: 1, max: 69 });
    expect(E.inRange(E.BLOCK_TYPE_IDS, 72)).toBe(false);
    expect(E.inRange(E.BLOCK_TYPE_IDS, 0)).toBe(false);
    expect(E.inRange(E.BLOCK_TYPE_IDS, 2.5)).toBe(false);
    expect(E.inRange(E.BLOCK_TYPE_IDS, '2')).toBe(false);
  });

  test('collection, record and item types', () => {
    expect(E.COLLECTION_TYPES).toEqual({ generic: 1, subscription: 2, page: 10, products: 13, lessons: 24, course: 25 });
    expect(E.COLLECTION_TYPE_IDS).toEqual({ min: 1, max: 25 });
    expect(E.RECORD_TYPES).toEqual({ text: 1, image: 2, quote: 4, link: 5, audio: 7, video: 8, 'store-item': 11, event: 12, gallery: 14 });
    expect(E.ITEM_TYPES).toEqual({ review: 10, 'store-item': 11, event: 12, 'digital-good': 18, lesson: 62, 'course-item': 63 });
    expect(E.ITEM_TYPE_IDS).toEqual({ min: 1, max: 63 });
  });

  test('slices, slides, views, media, devices', () => {
    expect(E.SLICE_TYPE_IDS).toEqual({ min: 1, max: 19 });
    expect(E.SLICE_TYPE_NAMES).toHaveLength(20);
    expect(E.SLICE_TYPE_NAMES.slice(0, 3)).toEqual(['heading', 'sub-heading', 'body']);
    expect(E.SLICE_TYPE_NAMES.slice(-3)).toEqual(['action', 'popup-overlay-action', 'temp-lock-inject']);
    expect(E.SLIDE_TYPES).toEqual(['cover-page', 'lock-screen', 'popup-overlay']);
    expect(E.COLLECTION_VIEWS).toEqual(['list', 'grid', 'product']);
    expect(E.GALLERY_ITEM_MEDIA_TYPES).toEqual(['imageEmpty', 'imageFile', 'imageLicensed', 'imageReused', 'assetReused', 'video']);
    expect(E.DEVICE_VIEWS).toEqual(['desktop', 'phone', 'tablet']);
  });

  test('nine anchor positions', () => {
    expect(E.ANCHOR_POSITIONS).toEqual([
      'TOP_LEFT', 'TOP_CENTER', 'TOP_RIGHT',
      'CENTER_LEFT', 'CENTER_CENTER', 'CENTER_RIGHT',
      'BOTTOM_LEFT', 'BOTTOM_CENTER', 'BOTTOM_RIGHT',
    ]);
  });

  test('website statuses 1 to 15, internal 6, paid 8, enterprise 15', () => {
    expect(E.WEBSITE_STATUSES.internal).toBe(6);
    expect(E.WEBSITE_STATUSES.paid).toBe(8);
    expect(E.WEBSITE_STATUSES.enterprise).toBe(15);
    expect(Object.values(E.WEBSITE_STATUSES)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 15]);
    expect(E.WEBSITE_STATUS_IDS).toEqual({ min: 1, max: 15 });
  });

  test('roles, flags, layouts, cohorts, sources, environments, content statuses', () => {
    expect(E.CONTRIBUTOR_ROLES).toHaveLength(14);
    expect(E.CONTRIBUTOR_ROLES).toContain('store-manager');
    expect(E.CONTRIBUTOR_ROLES.at(-1)).toBe('website-manager');
    expect(E.FEATURE_FLAG_IDS).toEqual({ min: 1, max: 70 });
    expect(E.FEATURE_FLAG_EXAMPLES).toContain('Klarna');
    expect(E.LAYOUT_VARIANT_IDS).toEqual({ min: 1000, max: 1019 });
    expect(E.SURVEY_COHORTS).toEqual(['cohort-A', 'cohort-B', 'cohort-C', 'cohort-D', 'cohort-E']);
    expect(E.EVENT_SOURCES).toEqual(['WEB', 'IOS', 'ANDROID', 'SERVER']);
    expect(E.ENVIRONMENTS).toEqual(['dev', 'qa', 'staging', 'prod']);
    expect(E.CONTENT_STATUS_LABELS).toEqual(['Scheduled', 'Needs Review', 'Draft', 'Private']);
    expect(E.EXPERIMENT_TYPES).toEqual(['FEATURE_TOGGLE', 'AB_TEST']);
  });

  test('seed §2 editor ids', () => {
    expect(E.TWEAK_EDITOR_PAGE_TYPES).toEqual(['SPLASH_PAGE', 'LOCK_SCREEN', 'POPUP_OVERLAY', 'CHECKOUT', 'STYLE']);
    expect(E.TWEAK_EDITOR_EVENTS).toEqual(['change', 'close', 'save', 'reset', 'aftershow', 'afterclose', 'beforeopen']);
    expect(E.FORM_BUILDER_TABS).toEqual({ build: 1, storage: 2, advanced: 3, captcha: 4, disclaimer: 5 });
  });
});

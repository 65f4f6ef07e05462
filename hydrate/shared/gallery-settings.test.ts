import { describe, expect, test } from 'vitest';
import {
  GALLERY_ACTIVE_ALIGNMENTS,
  GALLERY_ASPECT_RATIOS,
  GALLERY_DESIGNS,
  GALLERY_FLAGS,
  GALLERY_META_POSITIONS,
  GALLERY_RANGES,
  defaultGallerySettings,
  normalizeGallerySettings,
} from './gallery-settings.ts';

describe('gallery settings (seed §5, §9)', () => {
  test('designs, aspect ratios, meta positions, alignments and flags', () => {
    expect(GALLERY_DESIGNS).toEqual(['grid', 'slideshow', 'slider', 'stacked']);
    expect(GALLERY_ASPECT_RATIOS).toEqual(['square', 'standard', 'standard-vertical', 'four-three', 'three-four-vertical', 'widescreen', 'anamorphic-widescreen']);
    expect(GALLERY_META_POSITIONS).toEqual(['top', 'top-left', 'top-right', 'center', 'bottom', 'bottom-left', 'bottom-right']);
    expect(GALLERY_ACTIVE_ALIGNMENTS).toEqual(['center', 'left', 'right']);
    expect(GALLERY_FLAGS).toEqual(['autoplay', 'auto-crop', 'controls', 'lightbox', 'square-thumbs', 'show-meta', 'show-meta-on-hover', 'thumbnails']);
  });

  test('ranges and defaults', () => {
    expect(GALLERY_RANGES).toEqual({
      'autoplay-duration': { min: 1, max: 10, default: 5 },
      'thumbnail-strip-height': { min: 0, max: 200, default: 80 },
      'thumbnail-strip-margin': { min: 0, max: 60, default: 20 },
      'thumbnails-per-row': { min: 1, max: 10, default: 4 },
      padding: { min: 0, max: 50, default: 20 },
      'max-width': { min: 100, max: 300, default: 300 },
    });
  });

  test('the seed defaults of a new gallery', () => {
    expect(defaultGallerySettings()).toMatchObject({
      design: 'grid',
      autoplay: false,
      'auto-crop': true,
      'aspect-ratio': 'square',
      'square-thumbs': true,
      'meta-position': 'bottom',
      'active-alignment': 'center',
      'autoplay-duration': 5,
      'thumbnail-strip-height': 80,
      'thumbnail-strip-margin': 20,
      'thumbnails-per-row': 4,
      padding: 20,
      'max-width': 300,
    });
  });

  test('out-of-range numbers are clamped and rounded; junk takes the default', () => {
    const s = normalizeGallerySettings({
      'autoplay-duration': 0,
      'thumbnail-strip-height': 250,
      'thumbnail-strip-margin': '30.6',
      'thumbnails-per-row': 11,
      padding: -4,
      'max-width': 'wide',
    });
    expect([s['autoplay-duration'], s['thumbnail-strip-height'], s['thumbnail-strip-margin'], s['thumbnails-per-row'], s.padding, s['max-width']]).toEqual([
      1, 200, 31, 10, 0, 300,
    ]);
  });

  test('enumerations and booleans', () => {
    const s = normalizeGallerySettings({ design: 'stacked', 'meta-position': 'middle', lightboxTheme: 'light', lightbox: 'true', autoplay: 1, extra: 1 });
    expect(s).toMatchObject({ design: 'stacked', 'meta-position': 'bottom', lightboxTheme: 'light', lightbox: true, autoplay: false });
    expect(s).not.toHaveProperty('extra');
  });
});

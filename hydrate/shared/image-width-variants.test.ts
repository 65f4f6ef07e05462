import { describe, expect, test } from 'vitest';
import {
  IMAGE_WIDTH_VARIANTS,
  INVALID_SOURCE_MESSAGE,
  parseOriginalSize,
  sqsImageUrl,
  sqsSrcSet,
  SQS_SRCSET_WIDTHS,
  widthVariantFor,
} from './image-width-variants.ts';

describe('seed §9 width variants', () => {
  test('the variant list and the sqs srcset widths', () => {
    expect(IMAGE_WIDTH_VARIANTS).toEqual(['100w', '300w', '500w', '750w', '1000w', '1500w', '2500w']);
    expect(SQS_SRCSET_WIDTHS).toEqual([100, 300, 500, 750, 1000, 1500, 2500]);
  });

  test.each([
    [1, '100w'], [100, '100w'], [101, '300w'], [300, '300w'], [301, '500w'], [500, '500w'], [501, '750w'],
    [750, '750w'], [751, '1000w'], [1000, '1000w'], [1001, '1500w'], [5000, '1500w'], [0, '100w'],
  ])('width %d takes %s', (width, variant) => {
    expect(widthVariantFor(width)).toBe(variant);
  });
});

describe('originalSize', () => {
  test('WxH gives two integers', () => {
    expect(parseOriginalSize('1000x667')).toEqual({ ok: true, width: 1000, height: 667 });
  });

  test.each([['1000'], ['x'], ['0x10'], ['10x'], ['1.5x2'], [1000], [null], ['10x20x30']])('%j is the seed error', (value) => {
    expect(parseOriginalSize(value)).toEqual({ ok: false, error: 'Invalid source parameter. Pass in originalSize' });
  });

  test('the text is the seed text exactly', () => {
    expect(INVALID_SOURCE_MESSAGE).toBe('Invalid source parameter. Pass in originalSize');
  });
});

describe('sqs urls', () => {
  test('format parameter, appended after an existing query and before a fragment is dropped', () => {
    expect(sqsImageUrl('/i.jpg', '750w')).toBe('/i.jpg?format=750w');
    expect(sqsImageUrl('/i.jpg?v=2', '750w')).toBe('/i.jpg?v=2&format=750w');
    expect(sqsImageUrl('/i.jpg#top', '100w')).toBe('/i.jpg?format=100w');
  });

  test('the srcset lists the seven widths in order', () => {
    expect(sqsSrcSet('/i.jpg')).toBe(
      '/i.jpg?format=100w 100w, /i.jpg?format=300w 300w, /i.jpg?format=500w 500w, /i.jpg?format=750w 750w, ' +
        '/i.jpg?format=1000w 1000w, /i.jpg?format=1500w 1500w, /i.jpg?format=2500w 2500w',
    );
  });
});

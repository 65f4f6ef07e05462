import { describe, expect, test } from 'vitest';
import { BRIGHTNESS_THRESHOLD, HSL_MESSAGES, brightnessWeight, checkHsl, isDarkColour, parseHexColour, weightedLuminance } from './colour-rules.ts';

describe('hex colours', () => {
  test.each([
    ['#abc', '#aabbcc', { r: 0xaa, g: 0xbb, b: 0xcc }],
    ['ABC', '#aabbcc', { r: 0xaa, g: 0xbb, b: 0xcc }],
    ['#027AFF', '#027aff', { r: 2, g: 122, b: 255 }],
    [' ffb802 ', '#ffb802', { r: 255, g: 184, b: 2 }],
  ])('%j parses', (text, hex, rgb) => {
    expect(parseHexColour(text)).toEqual({ ok: true, hex, rgb });
  });

  test.each([['#abcd'], ['#abcde'], ['#abcdeff'], ['#ggg'], [''], ['#'], [123]])('%j is refused (3 or 6 digits only)', (text) => {
    expect(parseHexColour(text)).toEqual({ ok: false });
  });
});

describe('HSL', () => {
  test('the five seed texts', () => {
    expect(Object.values(HSL_MESSAGES)).toEqual([
      'Hue out of bounds.',
      'Saturation out of bounds.',
      'Lightness out of bounds.',
      'Alpha out of bounds.',
      'Missing an H/S/L value.',
    ]);
  });

  test('bounds are inclusive: hue 0-360, saturation, lightness and alpha 0-1', () => {
    expect(checkHsl({ hue: 0, saturation: 0, lightness: 0, alpha: 0 }).ok).toBe(true);
    expect(checkHsl({ hue: 360, saturation: 1, lightness: 1, alpha: 1 })).toEqual({
      ok: true,
      hsl: { hue: 360, saturation: 1, lightness: 1, alpha: 1 },
    });
    expect(checkHsl({ hue: 200, saturation: 0.3, lightness: 0.5 })).toEqual({ ok: true, hsl: { hue: 200, saturation: 0.3, lightness: 0.5 } });
  });

  test.each([
    [{ hue: 360.5, saturation: 0.5, lightness: 0.5 }, ['Hue out of bounds.']],
    [{ hue: -1, saturation: 1.1, lightness: 0.5 }, ['Hue out of bounds.', 'Saturation out of bounds.']],
    [{ hue: 10, saturation: 0.5, lightness: -0.1, alpha: 2 }, ['Lightness out of bounds.', 'Alpha out of bounds.']],
    [{ hue: 10, saturation: 0.5, lightness: 0.5, alpha: 'x' }, ['Alpha out of bounds.']],
    [{ hue: Number.NaN, saturation: 0.5, lightness: 0.5 }, ['Hue out of bounds.']],
    [{ saturation: 0.5, lightness: 0.5 }, ['Missing an H/S/L value.']],
    [{ hue: 1, saturation: '0.5', lightness: 0.5 }, ['Missing an H/S/L value.']],
  ])('%j', (input, errors) => {
    expect(checkHsl(input)).toEqual({ ok: false, errors });
  });
});

describe('light and dark', () => {
  test('brightness: over 8388607 (0x7fffff) is light', () => {
    expect(BRIGHTNESS_THRESHOLD).toBe(8388607);
    expect(brightnessWeight({ r: 0x7f, g: 0xff, b: 0xff })).toBe('dark');
    expect(brightnessWeight({ r: 0x80, g: 0, b: 0 })).toBe('light');
    expect(brightnessWeight({ r: 255, g: 255, b: 255 })).toBe('light');
    expect(brightnessWeight({ r: 0x44, g: 0x44, b: 0x44 })).toBe('dark');
  });

  test('dark colour: weighted luminance under 0.65 × 256 = 166.4', () => {
    expect(weightedLuminance({ r: 166, g: 166, b: 166 })).toBeCloseTo(166);
    expect(isDarkColour({ r: 166, g: 166, b: 166 })).toBe(true);
    expect(isDarkColour({ r: 167, g: 167, b: 167 })).toBe(false);
    expect(isDarkColour({ r: 2, g: 122, b: 255 })).toBe(true);
    expect(isDarkColour({ r: 255, g: 184, b: 2 })).toBe(false);
  });
});

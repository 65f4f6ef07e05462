import { describe, expect, test } from 'vitest';
import { MAX_CATEGORY_LENGTH, MAX_TAG_LENGTH, isValidCategory, isValidTag, slugify, storeUrlId } from './store-url-id.ts';

describe('store URL ids (seed §5)', () => {
  test('the title becomes a slug', () => {
    expect(slugify('  Café & Crème — Shop! ')).toBe('cafe-creme-shop');
    expect(storeUrlId('Summer Sale', [])).toBe('summer-sale');
  });

  test('an empty slug or one under 3 characters takes the fallback title', () => {
    expect(storeUrlId('', [], 'Shop')).toBe('shop');
    expect(storeUrlId('!!', [], 'Shop')).toBe('shop');
    expect(storeUrlId('AB', [], 'My Store')).toBe('my-store');
    expect(storeUrlId('ABC', [], 'My Store')).toBe('abc');
    expect(storeUrlId('日本', [])).toBe('store');
  });

  test('a used id takes -1, -2, … (the first free one)', () => {
    expect(storeUrlId('Shop', ['shop'])).toBe('shop-1');
    expect(storeUrlId('Shop', ['shop', 'shop-1'])).toBe('shop-2');
    expect(storeUrlId('Shop', ['shop', 'shop-2'])).toBe('shop-1');
    expect(storeUrlId('', ['store'], '')).toBe('store-1');
  });
});

describe('tag and category limits', () => {
  test('tags up to 50, categories up to 25 characters', () => {
    expect(MAX_TAG_LENGTH).toBe(50);
    expect(MAX_CATEGORY_LENGTH).toBe(25);
    expect(isValidTag('x'.repeat(50))).toBe(true);
    expect(isValidTag('x'.repeat(51))).toBe(false);
    expect(isValidTag('😀'.repeat(50))).toBe(true);
    expect(isValidCategory('y'.repeat(25))).toBe(true);
    expect(isValidCategory('y'.repeat(26))).toBe(false);
  });

  test('blank or non-text values are not tags or categories', () => {
    expect(isValidTag('   ')).toBe(false);
    expect(isValidTag(5)).toBe(false);
    expect(isValidCategory('')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { FILE_SIZE_UNIT, MEGABYTE, formatFileSize } from './file-size.ts';

describe('formatFileSize (seed §9: units of 1024)', () => {
  it('counts in 1024s, one decimal at most', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(MEGABYTE)).toBe('976.6 KB');
    expect(formatFileSize(2_516_582)).toBe('2.4 MB');
    expect(formatFileSize(5 * FILE_SIZE_UNIT ** 3)).toBe('5 GB');
    expect(formatFileSize(3 * FILE_SIZE_UNIT ** 5)).toBe('3072 TB');
  });
  it('refuses what is not a byte count', () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, '12' as unknown as number]) expect(formatFileSize(bad)).toBeNull();
  });
});

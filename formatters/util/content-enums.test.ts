import { describe, expect, it } from 'vitest';
import { BACKGROUND_SOURCES, PROMOTED_RECORD_TYPES, RECORD_TYPES, SLICE_TYPES, sliceTypeCode } from './content-enums.ts';

describe('content enumerations', () => {
  it('have the sizes of PLUGINS §16', () => {
    expect(RECORD_TYPES.length).toBe(22);
    expect(BACKGROUND_SOURCES.length).toBe(5);
    expect(SLICE_TYPES.length).toBe(19);
  });
  it('have unique names and codes', () => {
    for (const table of [RECORD_TYPES, BACKGROUND_SOURCES, SLICE_TYPES]) {
      expect(new Set(table.map((e) => e.name)).size).toBe(table.length);
      expect(new Set(table.map((e) => e.code)).size).toBe(table.length);
    }
  });
  it('promoted record types are record types of the same word', () => {
    for (const p of PROMOTED_RECORD_TYPES) expect(RECORD_TYPES.find((r) => r.code === p.code)?.name).toBe(p.word);
  });
  it('maps slice names, unknown to UNDEFINED', () => {
    expect(sliceTypeCode('gallery')).toBe(5);
    expect(sliceTypeCode('password')).toBe(18);
    expect(sliceTypeCode('Gallery')).toBe(-1);
  });
});

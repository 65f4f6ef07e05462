import { describe, expect, it } from 'vitest';
import { JavaError } from '../../engine/plugin-api.ts';
import { javaIntCast, parseJavaIntOrThrow } from './java-int.ts';

describe('parseJavaIntOrThrow', () => {
  it('parses Java int syntax', () => {
    expect(parseJavaIntOrThrow('+42')).toBe(42);
    expect(parseJavaIntOrThrow('-0')).toBe(0);
  });
  it('throws NumberFormatException with the input in the message', () => {
    for (const bad of ['', ' 1', '1.0', '2147483648', 'x']) {
      expect(() => parseJavaIntOrThrow(bad)).toThrow(JavaError);
      expect(() => parseJavaIntOrThrow(bad)).toThrow(`For input string: "${bad}"`);
    }
  });
});

describe('javaIntCast', () => {
  it('truncates and saturates like Java', () => {
    expect(javaIntCast(12.9)).toBe(12);
    expect(javaIntCast(-12.9)).toBe(-12);
    expect(javaIntCast(NaN)).toBe(0);
    expect(javaIntCast(Infinity)).toBe(2147483647);
    expect(javaIntCast(-1e20)).toBe(-2147483648);
  });
});

import { describe, expect, it } from 'vitest';
import { assemble, listing } from './assemble.ts';
import { tokenize } from './tokenize.ts';

function rpn(text: string): { rpn: string; errors: string[] } {
  const scan = tokenize(text, 0);
  expect(scan.errors).toEqual([]);
  const result = assemble(scan.tokens);
  return { rpn: listing(result.subExpressions), errors: result.errors };
}

describe('precedence and associativity (§5.3)', () => {
  it.each([
    ['1 + 2 * 3', '[[1 2 3 <multiply> <add>]]'],
    ['1 * 2 + 3', '[[1 2 <multiply> 3 <add>]]'],
    ['1 - 2 - 3', '[[1 2 <subtract> 3 <subtract>]]'],
    ['2 ** 3 ** 2', '[[2 3 2 <exponent> <exponent>]]'],
    ['-2 ** 2', '[[2 <unary minus> 2 <exponent>]]'],
    ['2 ** -2', '[[2 2 <unary minus> <exponent>]]'],
    ['- - 4', '[[4 <unary minus> <unary minus>]]'],
    ['!a == b', '[[a <logical not> b <equality>]]'],
    ['1 == 1 == 1', '[[1 1 <equality> 1 <equality>]]'],
    ['1 << 2 + 3', '[[1 2 3 <add> <left shift>]]'],
    ['a < b == c > d', '[[a b <less than> c d <greater than> <equality>]]'],
    ['a & b ^ c | d', '[[a b <bitwise and> c <bitwise xor> d <bitwise or>]]'],
    ['a || b && c', '[[a b c <logical and> <logical or>]]'],
    ['a | b && c | d', '[[a b <bitwise or> c d <bitwise or> <logical and>]]'],
    ['@a = 1 + 2', '[[@a 1 2 <add> <assign>]]'],
    ['@a = @b = 3', '[[@a @b 3 <assign> <assign>]]'],
    ['(1 + 2) * 3', '[[1 2 <add> 3 <multiply>]]'],
    ['1 + (@b = 2)', '[[1 @b 2 <assign> <add>]]'],
    ['~1 % 2 / 3', '[[1 <bitwise not> 2 <modulus> 3 <divide>]]'],
  ])('%s', (text, expected) => {
    expect(rpn(text)).toEqual({ rpn: expected, errors: [] });
  });
});

describe('calls, commas and grouping (§5.4)', () => {
  it('emits an argument marker, the arguments, then the call after its )', () => {
    expect(rpn('@a * max(2, b)').rpn).toBe('[[@a <args> 2 b max() <multiply>]]');
    expect(rpn('max(1 + 2, min(3, 4))').rpn).toBe('[[<args> 1 2 <add> <args> 3 4 min() max()]]');
    expect(rpn('abs()').rpn).toBe('[[<args> abs()]]');
  });
  it('treats a comma outside a call as a separator that emits nothing', () => {
    expect(rpn('3, 2, 1').rpn).toBe('[[3 2 1]]');
    expect(rpn('(1, 2)').rpn).toBe('[[1 2]]');
    expect(rpn('1 + 2, 3 * 4').rpn).toBe('[[1 2 <add> 3 4 <multiply>]]');
  });
  it('treats @( and a.b( as grouping', () => {
    expect(rpn('@(3)').rpn).toBe('[[@ 3]]');
    expect(rpn('a.b(1 + 2)').rpn).toBe('[[a.b 1 2 <add>]]');
  });
});

describe('sub-expressions', () => {
  it('splits at ; and drops empty ones', () => {
    expect(rpn('1; 2').rpn).toBe('[[1], [2]]');
    expect(rpn(';;').rpn).toBe('[]');
    expect(rpn('1;').rpn).toBe('[[1]]');
    expect(rpn('; 1 ;; 2 ;').rpn).toBe('[[1], [2]]');
    expect(rpn('()').rpn).toBe('[]');
    expect(rpn('').rpn).toBe('[]');
  });
  it('lists values in their debug forms', () => {
    expect(rpn(`'a\\n"' 1.5 1e21 (-0) true false null NaN Infinity PI`).rpn).toBe(
      '[["a\\n\\"" 1.5 1e+21 0 <unary minus> true false null NaN Infinity 3.141592653589793]]',
    );
  });
});

describe('mismatched parentheses', () => {
  it('reports an unmatched ( at the end of a sub-expression', () => {
    expect(rpn('(1 + 2')).toEqual({ rpn: '[]', errors: ['Mismatched operator found: left parenthesis'] });
    expect(rpn('max(1').errors).toEqual(['Mismatched operator found: left parenthesis']);
  });
  it('reports an unmatched )', () => {
    expect(rpn('1 + 2)').errors).toEqual(['Mismatched operator found: right parenthesis']);
  });
  it('stops at the first error, keeping the sub-expressions completed before it', () => {
    expect(rpn('1; (2; 3)')).toEqual({ rpn: '[[1]]', errors: ['Mismatched operator found: left parenthesis'] });
    expect(rpn('1; 2); (3')).toEqual({ rpn: '[[1]]', errors: ['Mismatched operator found: right parenthesis'] });
  });
});

import { describe, expect, it } from 'vitest';
import { JDouble, isObject, parseJson, type Node, type Value } from '../value.ts';
import type { Segment } from '../path.ts';
import { assemble } from './assemble.ts';
import { evaluateExpression, parseExpression, type ExprLimits, type ExprScope } from './index.ts';
import { tokenize } from './tokenize.ts';

const UNLIMITED: ExprLimits = { maxTokens: 0, maxStringLen: 0 };

/** A one-frame stand-in for the engine's stack lookup over a JSON document. */
function jsonScope(root: Node, locals: Record<string, Value> = {}): ExprScope & { calls: number } {
  return {
    calls: 0,
    lookup(segments: readonly Segment[]): Value {
      this.calls++;
      let v: Value;
      let i = 1;
      const first = segments[0];
      if (first === '@') v = root;
      else if (typeof first === 'string' && first.startsWith('@')) v = locals[first];
      else {
        v = root;
        i = 0;
      }
      for (; i < segments.length; i++) {
        const s = segments[i];
        if (typeof s === 'number') v = Array.isArray(v) ? v[s] : undefined;
        else v = isObject(v) && Object.prototype.hasOwnProperty.call(v, s) ? v[s] : undefined;
      }
      return v;
    },
  };
}

function run(text: string, json = '{}', limits: ExprLimits = UNLIMITED) {
  const parsed = parseExpression(text, limits);
  if (parsed.errors.length > 0) return { output: '', parseErrors: [...parsed.errors], errors: [], assigned: {} };
  // The first evaluation runs the stack, the second the steps compiled from it: both must agree.
  const first = evaluateExpression(parsed, jsonScope(parseJson(json)), limits);
  const outcome = evaluateExpression(parsed, jsonScope(parseJson(json)), limits);
  expect(outcome).toEqual(first);
  return {
    output: outcome.output,
    parseErrors: [],
    errors: [...outcome.errors],
    assigned: Object.fromEntries(outcome.assigned),
  };
}

/** Output of an expression that must evaluate without any error. */
function out(text: string, json = '{}'): string {
  const r = run(text, json);
  expect(r.parseErrors).toEqual([]);
  expect(r.errors).toEqual([]);
  return r.output;
}

describe('literals and output (§5.2, §5.9)', () => {
  it.each([
    ['1 2 3', '3'],
    ['3, 2, 1', '1'],
    ["'a' 'b' 'c'", 'c'],
    ['true; false; true', 'true'],
    ['1.', '1'],
    ['0.1', '0.1'],
    ['0x07a', '122'],
    ['0x111111111111111111111', '1.2895208742556044e+24'],
    ['1e20', '100000000000000000000'],
    ['1e21', '1e+21'],
    ['1e-7', '1e-7'],
    ['2 ** 64', '18446744073709552000'],
    ['0.1 + 0.2', '0.30000000000000004'],
    ['-2', '-2'],
    ['+5', '5'],
    ['+17; +17', '17'],
    ['-0', '0'],
    ['"\\u2018x\\u2019"', '\u2018x\u2019'],
    ['"\\u00ce\\u00fe\\u0266\\u00f2\\u00f1\\u00ea"', 'Îþɦòñê'],
    ['null', ''],
    ['NaN', 'NaN'],
    ['-Infinity', '-Infinity'],
    ['PI', '3.141592653589793'],
    ['E', '2.718281828459045'],
    ['', ''],
    ['  ', ''],
    [';;', ''],
    ['1;', '1'],
    ['1; 2;', '2'],
  ])('%s → %j', (text, expected) => {
    expect(out(text)).toBe(expected);
  });
});

describe('precedence examples (§5.3)', () => {
  it.each([
    ['-2 ** 2', '4'],
    ['2 ** -2', '0.25'],
    ['2 ** 3 ** 2', '512'],
    ['1 == 1 == 1', 'true'],
    ['2 ** (4 ** 3)', '18446744073709552000'],
    ['3 + 4 - 5', '2'],
    ['3 * 8 / 6', '4'],
    ['3 / 8 * 6', '2.25'],
    ['1 + 2 * 3', '7'],
    ['(1 + 2) * 3', '9'],
    ['1 + -3', '-2'],
    ['-1 - -4', '3'],
    ['2 + ~2', '-1'],
    ['true && (false || true)', 'true'],
    ['1 < 2 == 2 < 3', 'true'],
    ['6 & 3 | 8', '10'],
  ])('%s → %s', (text, expected) => {
    expect(out(text)).toBe(expected);
  });
});

describe('conversions (§5.6)', () => {
  it.each([
    ['num(5)', '5'],
    ['num(true)', '1'],
    ['num(false)', '0'],
    ['num(null)', '0'],
    ["num('')", '0'],
    ["num(' 12')", 'NaN'],
    ["num('.5')", 'NaN'],
    ["num('1.')", '1'],
    ["num('1e3')", '1000'],
    ["num('-0x10')", '-16'],
    ["num('--1')", 'NaN'],
    ["num('Infinity')", 'NaN'],
    ["num('12abc')", 'NaN'],
  ])('to number: %s → %s', (text, expected) => {
    expect(out(text)).toBe(expected);
  });
  it.each([
    ['str(1)', '1'],
    ['str(0.1)', '0.1'],
    ['str(1e21)', '1e+21'],
    ['str(35e20)', '3.5e+21'],
    ['str(1e-7)', '1e-7'],
    ['str(NaN)', 'NaN'],
    ['str(Infinity)', 'Infinity'],
    ['str(-Infinity)', '-Infinity'],
    ['str(-0)', '0'],
    ['str(true)', 'true'],
    ['str(false)', 'false'],
    ['str(null)', 'null'],
    ["str('x')", 'x'],
  ])('to string: %s → %s', (text, expected) => {
    expect(out(text)).toBe(expected);
  });
  it.each([
    ['bool(true)', 'true'],
    ['bool(false)', 'false'],
    ['bool(1)', 'true'],
    ['bool(-0.5)', 'true'],
    ['bool(0)', 'false'],
    ['bool(NaN)', 'true'],
    ["bool('x')", 'true'],
    ["bool('')", 'false'],
    ["bool('false')", 'true'],
    ['bool(null)', 'false'],
  ])('to boolean: %s → %s', (text, expected) => {
    expect(out(text)).toBe(expected);
  });
  it.each([
    ['2 ** 32 | 0', '2147483647'],
    ['-(2 ** 32) | 0', '-2147483648'],
    ['~(2 ** 32)', '-2147483648'],
    ['Infinity | 0', '2147483647'],
    ['-Infinity | 0', '-2147483648'],
    ['NaN | 0', '0'],
    ['3.9 | 0', '3'],
    ['-3.9 | 0', '-3'],
    ["'7.5' | 0", '7'],
    ['true | 0', '1'],
    ['null | 0', '0'],
    ['1 << 32', '1'],
    ['1 << 33', '2'],
    ['1 << 31', '-2147483648'],
    ['-16 >> 2', '-4'],
    ['100 << 2', '400'],
    ['100 >> 2', '25'],
  ])('to 32-bit integer: %s → %s', (text, expected) => {
    expect(out(text)).toBe(expected);
  });
});

describe('name conversion (§5.5)', () => {
  const doc = '{"b": true, "i": 3, "f": 2.5, "d": 4.0, "big": 123456789012345678901, "s": "x", "n": null,'
    + ' "o": {"k": 1}, "a": [1, 2], "PI": "pie", "nested": {"list": [{"v": 7}]}}';
  it('keeps booleans and strings, makes numbers doubles, null and missing null', () => {
    expect(out('b', doc)).toBe('true');
    expect(out('i + 0.5', doc)).toBe('3.5');
    expect(out('f', doc)).toBe('2.5');
    expect(out('d', doc)).toBe('4');
    expect(out('big', doc)).toBe('123456789012345680000');
    expect(out('s', doc)).toBe('x');
    expect(out('n == null', doc)).toBe('true');
    expect(out('missing === null', doc)).toBe('true');
    expect(out('str(missing)', doc)).toBe('null');
  });
  it('walks paths, including array indexes', () => {
    expect(out('nested.list.0.v * 2', doc)).toBe('14');
    expect(out('a.1', doc)).toBe('2');
  });
  it('reports objects and arrays as results as unexpected tokens', () => {
    expect(run('o', doc).errors).toEqual(['Reduce error: unexpected token on stack']);
    expect(run('a', doc).errors).toEqual(['Reduce error: unexpected token on stack']);
    expect(run('@', doc).errors).toEqual(['Reduce error: unexpected token on stack']);
  });
  it('lets constants shadow keys, reachable through @', () => {
    expect(out('@.PI', doc)).toBe('pie');
    expect(out('PI', doc)).toBe('3.141592653589793');
  });
  it('reads the current node through @', () => {
    expect(out('@', '"hello"')).toBe('hello');
    expect(out('@(3)', '"hello"')).toBe('3');
  });
  it('resolves names only when used', () => {
    const scope = jsonScope(parseJson('{"x": 1}'));
    const parsed = parseExpression('x x x 1', UNLIMITED);
    expect(evaluateExpression(parsed, scope, UNLIMITED).output).toBe('1');
    expect(scope.calls).toBe(0);
  });
  it('reads locals of the enclosing frames through the scope', () => {
    const parsed = parseExpression('@v + 1', UNLIMITED);
    const outcome = evaluateExpression(parsed, jsonScope({}, { '@v': new JDouble(41) }), UNLIMITED);
    expect(outcome.output).toBe('42');
  });
});

describe('operators (§5.7)', () => {
  it.each([
    ['"foo" + null', 'foonull'],
    ['1 + "foo"', '1foo'],
    ['"a" + true', 'atrue'],
    ['"x" + 0.5', 'x0.5'],
    ['true + true', '2'],
    ['null + 2', '2'],
    ['5 - "2"', '3'],
    ['"3" * "4"', '12'],
    ['"a" * 2', 'NaN'],
    ['1 / 0', 'NaN'],
    ['-1 / 0', 'NaN'],
    ['0 / 0', 'NaN'],
    ['1 / -0', 'NaN'],
    ['1 / 4', '0.25'],
    ['7 % -4', '3'],
    ['-7 % 4', '-3'],
    ['5 % 0', 'NaN'],
    ['5 % -5', '0'],
    ['5.5 % 2', '1.5'],
    ['5 % Infinity', '5'],
    ['2 ** 0.5', '1.4142135623730951'],
    ['0 ** 0', '1'],
    ['2 ** NaN', 'NaN'],
    ['6 & 3', '2'],
    ['6 ^ 3', '5'],
    ['6 | 3', '7'],
    ['~1', '-2'],
    ['~2', '-3'],
    ['!0', 'true'],
    ["!''", 'true'],
    ['!NaN', 'false'],
    ['!null', 'true'],
    ['-"3"', '-3'],
    ['+"0x10"', '16'],
    ['+true', '1'],
    ['-null', '0'],
    ["'a' || 0", 'true'],
    ["'a' && 'b'", 'true'],
    ['0 || null', 'false'],
    ['NaN && 1', 'true'],
  ])('%s → %s', (text, expected) => {
    expect(out(text)).toBe(expected);
  });
  it.each([
    ['null == 0', 'true'],
    ['null == false', 'true'],
    ['"" == 0', 'true'],
    ['" " == 0', 'false'],
    ['"1" == 1', 'true'],
    ['true == 1', 'true'],
    ['false == 1', 'false'],
    ['"10" < "9"', 'true'],
    ['"10" < 9', 'false'],
    ['"a" < "b"', 'true'],
    ['"a" <= "a"', 'true'],
    ['"b" > "a"', 'true'],
    ['"B" >= "a"', 'false'],
    ['"a" == "a"', 'true'],
    ['"a" != "a"', 'false'],
    ['"\uffff" > "\ud83d\ude00"', 'true'],
    ['0 < "0x01"', 'true'],
    ['0 < true', 'true'],
    ['1 == NaN', 'false'],
    ['NaN == NaN', 'false'],
    ['NaN != NaN', 'true'],
    ['NaN < 1', 'false'],
    ['NaN >= NaN', 'false'],
    ['1 != "x"', 'true'],
    ['1 === 1', 'true'],
    ['"1" === 1', 'false'],
    ['true === 1', 'false'],
    ['null === null', 'true'],
    ['null === 0', 'false'],
    ['NaN === NaN', 'false'],
    ['"a" === "a"', 'true'],
    ['1 !== 1', 'false'],
    ['"1" !== 1', 'true'],
    ['NaN !== NaN', 'true'],
  ])('comparison %s → %s', (text, expected) => {
    expect(out(text)).toBe(expected);
  });
  it('mixes types as §5.7 says', () => {
    expect(out('2 + s', '{"s": "-0.5"}')).toBe('2-0.5');
    expect(out('s + 2', '{"s": "-0.5"}')).toBe('-0.52');
    expect(out('2 + num(s)', '{"s": "-0.5"}')).toBe('1.5');
  });
});

describe('functions (§5.8)', () => {
  it.each([
    ['max(1, 3, 2)', '3'],
    ['min(1, 3, 2)', '1'],
    ['max(7)', '7'],
    ['max(1, NaN)', 'NaN'],
    ['max(NaN, 1)', '1'],
    ['min(1, NaN)', 'NaN'],
    ['min(NaN, 1)', '1'],
    ["max(4, 'y', 2)", '2'],
    ["max('5', true)", '5'],
    ['abs(-7)', '7'],
    ["abs('-7')", '7'],
    ['abs(-2, -9)', '2'],
    ["num('0x1f', 2)", '31'],
    ['str(35e20)', '3.5e+21'],
    ['bool(0)', 'false'],
    ['max(1 + 2, min(8, 4))', '4'],
    ['max (1, 2)', '2'],
  ])('%s → %s', (text, expected) => {
    expect(out(text)).toBe(expected);
  });
  it('drops object and array arguments', () => {
    const doc = '{"obj": {"k": 1}, "arr": [9]}';
    expect(out('max(obj, 2)', doc)).toBe('2');
    expect(out('min(3, arr, 2, obj)', doc)).toBe('2');
    expect(out('abs(obj, -4)', doc)).toBe('4');
    expect(run('num(obj)', doc).errors).toEqual(['Error calling function num']);
  });
  it.each(['max', 'min', 'abs', 'num', 'str', 'bool'])('%s() is an error', (name) => {
    expect(run(`${name}()`).errors).toEqual([`Error calling function ${name}`]);
  });
  it('keeps values below the call on the stack', () => {
    expect(out('1 + max(2, 3)')).toBe('4');
    expect(out('10, max(2, 3)')).toBe('3');
  });
});

describe('assignment (§5.5)', () => {
  it('sets @locals as doubles, and later sub-expressions see them', () => {
    const r = run('@p = 3; @q = 4 * 2.5; @r = @p * @q; @r');
    expect(r.output).toBe('30');
    expect(r.assigned).toEqual({ '@p': new JDouble(3), '@q': new JDouble(10), '@r': new JDouble(30) });
  });
  it('keeps non-integral numbers, strings, booleans and null as they are', () => {
    const r = run("@a = 0.5; @b = 'x'; @c = true; @d = null; @e = missing; @f = s", '{"s": "y"}');
    expect(r.assigned).toEqual({ '@a': 0.5, '@b': 'x', '@c': true, '@d': null, '@e': null, '@f': 'y' });
  });
  it('produces no value itself', () => {
    expect(run('@a = 1')).toMatchObject({ output: '', errors: [] });
    expect(run('1; @a = 2').output).toBe('');
  });
  it('ends its sub-expression, leaving what remains on the stack', () => {
    const r = run('1 + (@b = 2)');
    expect(r.output).toBe('1');
    expect(r.assigned).toEqual({ '@b': new JDouble(2) });
    expect(run('(@b = 2) * 10; @b').output).toBe('2');
  });
  it('assigns only the rightmost target of a chain', () => {
    expect(run('@a = @b = 3').assigned).toEqual({ '@b': new JDouble(3) });
  });
  it('ignores targets that are not a single @word', () => {
    for (const text of ['a = 1', '@a.b = 1', '1 = 1', '@ = 1', 'a.b = 1', '= 1', '@a =']) {
      expect(run(text)).toMatchObject({ errors: [], assigned: {} });
    }
  });
  it('does not assign objects or arrays', () => {
    expect(run('@o = obj', '{"obj": {"k": 1}}')).toMatchObject({ errors: [], assigned: {} });
  });
  it('shadows outer values of the same name, and a local has no members', () => {
    const parsed = parseExpression('@v = 5; @v + 1; @v.x', UNLIMITED);
    const scope = jsonScope({}, { '@v': new JDouble(100) });
    const outcome = evaluateExpression(parsed, scope, UNLIMITED);
    expect(outcome.output).toBe('');
    expect(evaluateExpression(parseExpression('@v = 5; @v + 1', UNLIMITED), scope, UNLIMITED).output).toBe('6');
  });
  it('keeps the last assignment of a name', () => {
    expect(run('@a = 1; @a = @a + 1; @a').assigned).toEqual({ '@a': new JDouble(2) });
  });
});

describe('reduce behaviour (§5.5)', () => {
  it('leaves a unary operator with nothing to apply to alone', () => {
    expect(run('-obj', '{"obj": {}}').errors).toEqual(['Reduce error: unexpected token on stack']);
    expect(run('!').errors).toEqual([]);
    expect(run('-').output).toBe('');
  });
  it('stops a sub-expression at an error and runs the next ones', () => {
    const r = run('1 + obj; @z = 3', '{"obj": {"k": 1}}');
    expect(r.errors).toEqual(['Invalid arguments to operator add']);
    expect(r.assigned).toEqual({ '@z': new JDouble(3) });
  });
  it('keeps assignments made before a failure and outputs the last value', () => {
    const r = run('@a = 1; abs(); @a + 1');
    expect(r).toMatchObject({ output: '2', errors: ['Error calling function abs'], assigned: { '@a': new JDouble(1) } });
  });
  it('outputs nothing when the last sub-expression fails', () => {
    expect(run('1; 2 +')).toMatchObject({ output: '', errors: ['Invalid arguments to operator add'] });
  });
  it('reports a stray argument marker left on top', () => {
    expect(run('max(@a = 1, 2)')).toMatchObject({
      output: '',
      errors: ['Reduce error: unexpected token on stack'],
      assigned: { '@a': new JDouble(1) },
    });
  });
  it('collects several errors in order', () => {
    expect(run('1 +; abs(); o', '{"o": []}').errors).toEqual([
      'Invalid arguments to operator add',
      'Error calling function abs',
      'Reduce error: unexpected token on stack',
    ]);
  });
});

describe('errors (§5.10)', () => {
  it.each([
    ["'abc", 'Unterminated string'],
    ["'a\nb'", 'Illegal bare line feed character in string literal'],
    ["'a\rb'", 'Illegal bare carriage return character in string literal'],
    ['"\\x4"', 'Invalid 2-char hex escape found'],
    ["'\\x41", 'Invalid 2-char hex escape found'],
    ['"\\u12"', 'Invalid unicode escape found'],
    ['0x', 'Expected digits after start of hex number'],
    ['1e-', 'Expected a digit after exponent in decimal number'],
    ['1..2', 'Duplicate decimal point in number'],
    ['12e10.1', 'Unexpected decimal point in exponent'],
    ['1 # 2', 'Unexpected character at 2: #'],
    ['1 \f 2', 'Unexpected form feed at 2: \\f'],
    ['foo(1)', 'Invalid function: foo'],
    ['(1 + 2', 'Mismatched operator found: left parenthesis'],
    ['1 + 2)', 'Mismatched operator found: right parenthesis'],
  ])('parse: %j → %s', (text, error) => {
    expect(run(text).parseErrors).toEqual([error]);
  });
  it('counts the unexpected-character index after the debug #', () => {
    expect(parseExpression('#1 # 2', UNLIMITED).errors).toEqual(['Unexpected character at 2: #']);
  });
  it.each([
    ['1 +', 'Invalid arguments to operator add'],
    ['+ 1 *', 'Invalid arguments to operator multiply'],
    ['1 + obj', 'Invalid arguments to operator add'],
    ['obj - 1', 'Invalid arguments to operator subtract'],
    ['1 ** arr', 'Invalid arguments to operator exponent'],
    ['1 <<', 'Invalid arguments to operator left shift'],
    ['1 >= obj', 'Invalid arguments to operator greater than or equal'],
    ['1 !==', 'Invalid arguments to operator strict inequality'],
    ['1 ||', 'Invalid arguments to operator logical or'],
    ['abs()', 'Error calling function abs'],
    ['num(obj)', 'Error calling function num'],
    ['obj', 'Reduce error: unexpected token on stack'],
    ['@', 'Reduce error: unexpected token on stack'],
  ])('reduce: %s → %s', (text, error) => {
    expect(run(text, '{"obj": {"k": 1}, "arr": [1]}').errors).toEqual([error]);
  });
  it('makes an expression with a parse error inert', () => {
    const scope = jsonScope({});
    const parsed = parseExpression('@a = 1; foo(2)', UNLIMITED);
    expect(parsed.errors).toEqual(['Invalid function: foo']);
    const outcome = evaluateExpression(parsed, scope, UNLIMITED);
    expect(outcome).toEqual({ output: '', assigned: new Map(), errors: [] });
    expect(scope.calls).toBe(0);
  });
});

describe('limits (§5.11)', () => {
  it('fails past the token limit', () => {
    const limits = { maxTokens: 10, maxStringLen: 0 };
    expect(run('1 + 3 + 5 + 7 + 9', '{}', limits).output).toBe('25');
    expect(run('1 + 3 + 5 + 7 + 9 + 11', '{}', limits).parseErrors).toEqual([
      'Expression exceeds the maximum number of allowed tokens: 10',
    ]);
  });
  it('keeps scanning past the token limit for lexical errors', () => {
    expect(run('1 + 3 + 5 + 7 + 9 + 11 + 0x', '{}', { maxTokens: 10, maxStringLen: 0 }).parseErrors).toEqual([
      'Expression exceeds the maximum number of allowed tokens: 10',
      'Expected digits after start of hex number',
    ]);
  });
  it('checks each concatenation against the string limit', () => {
    const limits = { maxTokens: 0, maxStringLen: 10 };
    expect(run('"123456789" + "a"', '{}', limits)).toMatchObject({ output: '123456789a', errors: [] });
    expect(run('"123456789" + "ab"', '{}', limits)).toMatchObject({
      output: '',
      errors: ['Concatenation would exceed maximum string length 10'],
    });
    expect(run('12345 + "678901"', '{}', limits).errors).toEqual([
      'Concatenation would exceed maximum string length 10',
    ]);
    expect(run('"ab" + "cd" + "ef" + "gh" + "ij" + "k"', '{}', limits).errors).toEqual([
      'Concatenation would exceed maximum string length 10',
    ]);
  });
  it('does not limit string literals or numeric addition', () => {
    const limits = { maxTokens: 0, maxStringLen: 3 };
    expect(run('"abcdefgh"', '{}', limits).output).toBe('abcdefgh');
    expect(run('123456 + 1', '{}', limits).output).toBe('123457');
  });
  it('treats zero or negative limits as unlimited', () => {
    const text = Array.from({ length: 300 }, () => '"ab"').join(' + ');
    for (const n of [0, -5]) expect(run(text, '{}', { maxTokens: n, maxStringLen: n }).output).toHaveLength(600);
  });
});

describe('debug mode (§5.12)', () => {
  it('lists the RPN and the value', () => {
    expect(out('#@a = 1; @a * max(2, b)', '{"b": 3}')).toBe(
      'EVAL=[[@a 1 <assign>], [@a <args> 2 b max() <multiply>]] -> 3',
    );
    expect(out(`#'a' + "b"`)).toBe('EVAL=[["a" "b" <add>]] -> ab');
  });
  it('lists without a value when there is none', () => {
    expect(out('#@a = 1')).toBe('EVAL=[[@a 1 <assign>]]');
    expect(out('#')).toBe('EVAL=[]');
    expect(out('# ;;')).toBe('EVAL=[]');
  });
  it('lists what was assembled when parsing failed', () => {
    const parsed = parseExpression("#'abc", UNLIMITED);
    expect(parsed.debug).toBe(true);
    expect(evaluateExpression(parsed, jsonScope({}), UNLIMITED).output).toBe('EVAL=[]');
    const partial = parseExpression('#1 + 2; (3', UNLIMITED);
    expect(evaluateExpression(partial, jsonScope({}), UNLIMITED).output).toBe('EVAL=[[1 2 <add>]]');
  });
  it('shows a failed last sub-expression without a value', () => {
    const r = run('#1 +');
    expect(r).toMatchObject({ output: 'EVAL=[[1 <add>]]', errors: ['Invalid arguments to operator add'] });
  });
  it('is only a leading #', () => {
    expect(parseExpression(' #1', UNLIMITED).errors).toEqual(['Unexpected character at 1: #']);
    expect(parseExpression('1', UNLIMITED).debug).toBe(false);
  });
});

describe('worked examples', () => {
  it('§4.10', () => {
    const r = run('@w = 320; @h = @w / 4');
    expect(r.assigned).toEqual({ '@w': new JDouble(320), '@h': new JDouble(80) });
    expect(out("'n=' + (n * 2)", '{"n": 21}')).toBe('n=42');
  });
  it('§5.9', () => {
    const s = '{"s": "-0.5"}';
    expect(['2 + s', 's + 2', '2 + num(s)', '1 / 0', '7 % -4', 'null == 0', '"1" === 1', '!NaN', '2 ** 32 | 0', "'a' || 0"]
      .map((t) => out(t, s))).toEqual(['2-0.5', '-0.52', '1.5', 'NaN', '3', 'true', 'false', 'false', '2147483647', 'true']);
    expect(out("max(4, 'y', 2)")).toBe('2');
    expect(out("abs('-7')")).toBe('7');
  });
  it('§5.10', () => {
    const doc = '{"obj": {"k": 1}}';
    expect(run("'abc", doc).parseErrors).toEqual(['Unterminated string']);
    expect(run('foo(1)', doc).parseErrors).toEqual(['Invalid function: foo']);
    expect(run('1 # 2', doc).parseErrors).toEqual(['Unexpected character at 2: #']);
    expect(run('(1 + 2', doc).parseErrors).toEqual(['Mismatched operator found: left parenthesis']);
    expect(run('1 + obj; @z = 3', doc)).toMatchObject({
      output: '',
      errors: ['Invalid arguments to operator add'],
      assigned: { '@z': new JDouble(3) },
    });
    expect(run('abs()', doc).errors).toEqual(['Error calling function abs']);
    expect(run('obj', doc).errors).toEqual(['Reduce error: unexpected token on stack']);
  });
});

describe('parsed expressions', () => {
  it('are left as parsed by evaluation, and reusable across scopes', () => {
    // Read-only by their types, not frozen (assemble.ts, `RpnItem`): evaluating changes none of it.
    const parsed = parseExpression('#@t = x * 2; @t + 1; max(@t, -x)', UNLIMITED);
    const snapshot = () => ({ debug: parsed.debug, errors: [...parsed.errors], listing: parsed.listing, items: parsed.subExpressions.map((sub) => sub.map((item) => ({ ...item }))) });
    const before = snapshot();
    // The value shown is the last sub-expression's, max(2x, -x).
    for (const [x, last] of [[1, '2'], [10, '20'], [-4, '4'], [0.5, '1']] as const) {
      expect(evaluateExpression(parsed, jsonScope(parseJson(`{"x": ${x}}`)), UNLIMITED).output).toBe(`${parsed.listing} -> ${last}`);
      expect(snapshot()).toEqual(before);
    }
  });
  it('never throw, even for a throwing scope or a non-string text', () => {
    const throwing: ExprScope = { lookup: () => { throw new Error('boom'); } };
    const outcome = evaluateExpression(parseExpression('x', UNLIMITED), throwing, UNLIMITED);
    expect(outcome.errors).toHaveLength(1);
    expect(parseExpression(undefined as unknown as string, UNLIMITED).errors).toEqual([]);
  });
});

describe('hostile input', () => {
  // Work is counted, not timed (a stopwatch fails on a busy machine): the characters the
  // scanner reads (every read goes through charCodeAt or slice), the tokens the assembler
  // reads, and the RPN items the reducer walks. Each text is built at sizes n and 4n; linear
  // parsing does about 4 times the work at 4n, a rescan per token would do 16 times.
  class CountingText extends String {
    reads = 0;
    override charCodeAt(index: number): number {
      this.reads++;
      return super.charCodeAt(index);
    }
    override slice(start?: number, end?: number): string {
      const part = super.slice(start, end);
      this.reads += part.length + 1;
      return part;
    }
  }
  function work(text: string): { reads: number; tokenReads: number; items: number; errors: readonly string[] } {
    const counted = new CountingText(text);
    const scan = tokenize(counted as unknown as string, 0);
    let tokenReads = 0;
    const tokens = new Proxy(scan.tokens, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) tokenReads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const assembled = scan.errors.length === 0 ? assemble(tokens) : { subExpressions: [], errors: scan.errors };
    const items = assembled.subExpressions.reduce((sum, rpn) => sum + rpn.length, 0);
    return { reads: counted.reads, tokenReads, items, errors: assembled.errors };
  }
  const cases: [string, (n: number) => string, string][] = [
    ['a long sum', (n) => '1' + ' + 1'.repeat(n), 'n + 1'],
    ['deep nesting', (n) => '('.repeat(n) + '1' + ')'.repeat(n), '1'],
    ['unclosed parentheses', (n) => '('.repeat(2 * n), ''],
    ['a chain of unary minus', (n) => '-'.repeat(2 * n) + '1', '1'],
    ['nested calls', (n) => 'max('.repeat(n / 2) + '1' + ')'.repeat(n / 2), '1'],
    ['many sub-expressions', (n) => '@a = 1;'.repeat(n / 2), ''],
    // The runs of spaces grow with n: a scan that looks back over a run would be caught.
    ['long names with spaces before (', (n) => ('a.b' + ' '.repeat(n / 25)).repeat(50) + '(', ''],
  ];
  it.each(cases)('%s parses and evaluates with work linear in its length', (_, build, expected) => {
    const n = 25_000;
    const small = work(build(n));
    const large = work(build(4 * n));
    expect(large.errors).toEqual(small.errors);
    for (const key of ['reads', 'tokenReads', 'items'] as const) {
      expect(large[key], key).toBeLessThanOrEqual(4 * small[key] + 16);
    }
    // Stack-safe at full size: 100,000 levels of nesting cost no recursion.
    const text = build(4 * n);
    const outcome = evaluateExpression(parseExpression(text, UNLIMITED), jsonScope({}), UNLIMITED);
    if (expected !== '') expect(outcome.output).toBe(expected === 'n + 1' ? String(4 * n + 1) : expected);
  });
  it('stops collecting tokens at the limit, without assembling', () => {
    const parsed = parseExpression('1' + ' + 1'.repeat(100_000), { maxTokens: 1000, maxStringLen: 0 });
    expect(parsed.errors).toEqual(['Expression exceeds the maximum number of allowed tokens: 1000']);
    expect(parsed.subExpressions).toEqual([]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringToNumber, tokenize, type Token } from './tokenize.ts';
import { ITEM_CALL, ITEM_NAME, ITEM_OPERATOR, ITEM_VALUE, TOKEN_COMMA, TOKEN_LPAREN, TOKEN_RPAREN } from './rpn-item.ts';

/** A compact view of tokens: values as themselves, names as `name:x`, operators by description. */
function view(tokens: readonly Token[]): unknown[] {
  return tokens.map((t) => {
    switch (t.type) {
      case ITEM_VALUE: return t.value;
      case ITEM_NAME: return `name:${t.text}`;
      case ITEM_OPERATOR: return `<${t.operator!.description}>`;
      case ITEM_CALL: return `call:${t.text}`;
      case TOKEN_LPAREN: return 'lparen';
      case TOKEN_RPAREN: return 'rparen';
      case TOKEN_COMMA: return 'comma';
      default: return 'semicolon';
    }
  });
}

function scan(text: string, maxTokens = 0) {
  const r = tokenize(text, maxTokens);
  return { tokens: view(r.tokens), errors: r.errors };
}

describe('whitespace', () => {
  it('skips space, line feed, tab, carriage return and no-break space', () => {
    expect(scan(' 1\n\t\r\u00a02 ')).toEqual({ tokens: [1, 2], errors: [] });
  });
  it('rejects form feed and other control characters', () => {
    expect(scan('1\f2').errors).toEqual(['Unexpected form feed at 1: \\f']);
    expect(scan('\b').errors).toEqual(['Unexpected backspace at 0: \\b']);
    expect(scan('1 \u000b').errors).toEqual(['Unexpected control character at 2: \\u000B']);
    expect(scan('\u0001').errors).toEqual(['Unexpected control character at 0: \\u0001']);
  });
  it('rejects other Unicode spaces and non-ASCII letters as characters, Java-escaped', () => {
    expect(scan('\u2003').errors).toEqual(['Unexpected character at 0: \\u2003']);
    expect(scan('a é').errors).toEqual(['Unexpected character at 2: \\u00E9']);
  });
});

describe('decimal numbers', () => {
  it.each([
    ['0', 0],
    ['12', 12],
    ['1.', 1],
    ['1.5', 1.5],
    ['007', 7],
    ['1e5', 100000],
    ['1E+2', 100],
    ['25e-1', 2.5],
    ['1.e2', 100],
    ['1e400', Infinity],
  ])('%s is %d', (text, value) => {
    expect(scan(text)).toEqual({ tokens: [value], errors: [] });
  });
  it('ends at the first character that does not fit', () => {
    expect(scan('12abc').tokens).toEqual([12, 'name:abc']);
    expect(scan('1e5e').tokens).toEqual([100000, 'name:e']);
    expect(scan('1.x').tokens).toEqual([1, 'name:x']);
  });
  it.each([
    ['.5', 'Unexpected character at 0: .'],
    ['1e', 'Expected a digit after exponent in decimal number'],
    ['1e-', 'Expected a digit after exponent in decimal number'],
    ['1ee', 'Expected a digit after exponent in decimal number'],
    ['1..2', 'Duplicate decimal point in number'],
    ['0.0.0', 'Duplicate decimal point in number'],
    ['12e10.1', 'Unexpected decimal point in exponent'],
  ])('%s is an error', (text, error) => {
    expect(scan(text).errors).toEqual([error]);
  });
});

describe('hexadecimal numbers', () => {
  it('reads any number of hex digits, in either case, as a double', () => {
    expect(scan('0x07a 0XfF 0x0').tokens).toEqual([122, 255, 0]);
    expect(scan('0x111111111111111111111').tokens).toEqual([1.2895208742556044e24]);
  });
  it('ends at the first non-hex character', () => {
    expect(scan('0x1g').tokens).toEqual([1, 'name:g']);
  });
  it('needs at least one digit', () => {
    expect(scan('0x').errors).toEqual(['Expected digits after start of hex number']);
    expect(scan('0xg').errors).toEqual(['Expected digits after start of hex number']);
  });
});

describe('strings', () => {
  it('accepts both quotes, with the other quote unescaped inside', () => {
    expect(scan(`'a"b' "c'd"`).tokens).toEqual(['a"b', "c'd"]);
  });
  it('decodes the short escapes; any other escaped character stands for itself', () => {
    expect(scan(String.raw`'\n\t\f\r'`).tokens).toEqual(['\n\t\f\r']);
    expect(scan(String.raw`'\"\'\\\a\b\/'`).tokens).toEqual(['"\'\\ab/']);
  });
  it('decodes \\x, \\u and \\U escapes', () => {
    expect(scan(String.raw`'\x41\u2018\U0001F600'`).tokens).toEqual(['A\u2018\u{1F600}']);
  });
  it('reads exactly four digits after \\u', () => {
    expect(scan(String.raw`'\u01f600'`).tokens).toEqual(['\u01f600']);
  });
  it('replaces decoded control code points and non-code-points by a space, keeping \\t..\\r', () => {
    expect(scan(String.raw`'\x00\x08\x0e\x1f\U00110000'`).tokens).toEqual(['     ']);
    expect(scan(String.raw`'\x09\x0a\x0b\x0c\x0d\x7f'`).tokens).toEqual(['\t\n\u000b\f\r\u007f']);
  });
  it('keeps raw control characters other than line breaks', () => {
    expect(scan("'a\u0001\tb'").tokens).toEqual(['a\u0001\tb']);
  });
  it.each([
    ["'abc", 'Unterminated string'],
    ['"abc\'', 'Unterminated string'],
    ["'abc\\", 'Unterminated string'],
    ["'a\nb'", 'Illegal bare line feed character in string literal'],
    ["'a\rb'", 'Illegal bare carriage return character in string literal'],
    [String.raw`"\x4"`, 'Invalid 2-char hex escape found'],
    [String.raw`"\xZZ"`, 'Invalid 2-char hex escape found'],
    [String.raw`'\x41`, 'Invalid 2-char hex escape found'],
    [String.raw`"\u12"`, 'Invalid unicode escape found'],
    [String.raw`"\uZZZZ"`, 'Invalid unicode escape found'],
    [String.raw`"\U1234"`, 'Invalid unicode escape found'],
  ])('%j is an error', (text, error) => {
    expect(scan(text).errors).toEqual([error]);
  });
});

describe('names, constants and calls', () => {
  it('reads variable references with all segment forms', () => {
    expect(scan('a a.b.0 @ @x @index $k @.PI a-b x_1').tokens).toEqual([
      'name:a', 'name:a.b.0', 'name:@', 'name:@x', 'name:@index', 'name:$k', 'name:@.PI', 'name:a-b', 'name:x_1',
    ]);
  });
  it('leaves a dangling dot to be reported', () => {
    expect(scan('a.').errors).toEqual(['Unexpected character at 1: .']);
    expect(scan('$').errors).toEqual(['Unexpected character at 0: $']);
  });
  it('turns single-segment constant names into values', () => {
    const r = scan('null true false PI E Infinity NaN');
    expect(r.tokens.slice(0, 6)).toEqual([null, true, false, Math.PI, Math.E, Infinity]);
    expect(r.tokens[6]).toBeNaN();
  });
  it('does not treat multi-segment names as constants', () => {
    expect(scan('@.PI a.true').tokens).toEqual(['name:@.PI', 'name:a.true']);
  });
  it('makes a valid single-segment name before ( a call, whitespace allowed', () => {
    expect(scan('max(1) min (2) abs\t(3)').tokens).toEqual([
      'call:max', 'lparen', 1, 'rparen', 'call:min', 'lparen', 2, 'rparen', 'call:abs', 'lparen', 3, 'rparen',
    ]);
    expect(scan('num(1) str(1) bool(1)').errors).toEqual([]);
  });
  it('treats a multi-segment name or @ before ( as a value followed by a grouping', () => {
    expect(scan('@(3) a.b(4)').tokens).toEqual(['name:@', 'lparen', 3, 'rparen', 'name:a.b', 'lparen', 4, 'rparen']);
  });
  it.each(['foo(1)', '@x(1)', 'PI(1)', '$k (1)'])('%s is an invalid function', (text) => {
    expect(scan(text).errors).toEqual([`Invalid function: ${text.slice(0, text.search(/ ?\(/))}`]);
  });
  it('keeps scanning after an invalid function, reporting a later lexical error', () => {
    expect(scan('foo(1..2)').errors).toEqual(['Invalid function: foo', 'Duplicate decimal point in number']);
  });
});

describe('operators and punctuation', () => {
  it('reads operators greedily', () => {
    expect(scan('1 === 2 == 3 = 4 !== 5 != !6').tokens).toEqual([
      1, '<strict equality>', 2, '<equality>', 3, '<assign>', 4, '<strict inequality>', 5, '<inequality>', '<logical not>', 6,
    ]);
    expect(scan('1 ** 2 * 3 << 4 <= 5 < 6 >> 7 >= 8 > 9').tokens).toEqual([
      1, '<exponent>', 2, '<multiply>', 3, '<left shift>', 4, '<less than or equal>', 5, '<less than>', 6,
      '<right shift>', 7, '<greater than or equal>', 8, '<greater than>', 9,
    ]);
    expect(scan('1 && 2 & 3 || 4 | 5 ^ ~6 / 7 % 8').tokens).toEqual([
      1, '<logical and>', 2, '<bitwise and>', 3, '<logical or>', 4, '<bitwise or>', 5, '<bitwise xor>',
      '<bitwise not>', 6, '<divide>', 7, '<modulus>', 8,
    ]);
  });
  it('has no >>> (it is >> then >)', () => {
    expect(scan('1 >>> 2').tokens).toEqual([1, '<right shift>', '<greater than>', 2]);
  });
  it('reads punctuation', () => {
    expect(scan('(1, 2); 3').tokens).toEqual(['lparen', 1, 'comma', 2, 'rparen', 'semicolon', 3]);
  });
  it('makes + and - unary at the start and after any operator token but )', () => {
    expect(scan('-1 - -2').tokens).toEqual(['<unary minus>', 1, '<subtract>', '<unary minus>', 2]);
    expect(scan('+a + +b').tokens).toEqual(['<unary plus>', 'name:a', '<add>', '<unary plus>', 'name:b']);
    expect(scan('(-1) - (2); -3, -4').tokens).toEqual([
      'lparen', '<unary minus>', 1, 'rparen', '<subtract>', 'lparen', 2, 'rparen', 'semicolon',
      '<unary minus>', 3, 'comma', '<unary minus>', 4,
    ]);
    expect(scan('!-1').tokens).toEqual(['<logical not>', '<unary minus>', 1]);
    expect(scan("'a' -1").tokens).toEqual(['a', '<subtract>', 1]);
  });
  it('reports the index of an unexpected character in the text it was given', () => {
    expect(scan('1 # 2').errors).toEqual(['Unexpected character at 2: #']);
    expect(scan('a[0]').errors).toEqual(['Unexpected character at 1: [']);
    expect(scan('x ? 1 : 2').errors).toEqual(['Unexpected character at 2: ?']);
  });
  it('stops at the first lexical error', () => {
    expect(scan('1 # 2 # 3 .5').errors).toEqual(['Unexpected character at 2: #']);
  });
});

describe('token limit', () => {
  it('counts every token and fails past the limit', () => {
    expect(scan('1 + 3 + 5 + 7 + 9', 10).errors).toEqual([]);
    expect(scan('1 + 3 + 5 + 7 + 9 + 11', 10).errors).toEqual([
      'Expression exceeds the maximum number of allowed tokens: 10',
    ]);
    expect(scan('max(1, 2);', 7).errors).toEqual([]);
    expect(scan('max(1, 2);', 6).errors).toEqual(['Expression exceeds the maximum number of allowed tokens: 6']);
  });
  it('reports the limit once and still reports a later lexical error', () => {
    expect(scan('1 + 2 + 3 + 4 # 5', 3).errors).toEqual([
      'Expression exceeds the maximum number of allowed tokens: 3',
      'Unexpected character at 14: #',
    ]);
  });
  it('is disabled by zero or a negative value', () => {
    const text = Array.from({ length: 500 }, (_, i) => i).join(' + ');
    expect(scan(text, 0).errors).toEqual([]);
    expect(scan(text, -1).errors).toEqual([]);
  });
});

describe('stringToNumber (the num conversion of strings)', () => {
  it.each([
    ['', 0],
    ['0', 0],
    ['12', 12],
    ['1.', 1],
    ['1e3', 1000],
    ['-0x10', -16],
    ['+0X1f', 31],
    ['-6.5', -6.5],
    ['007', 7],
  ])('%j is %d', (text, value) => {
    expect(stringToNumber(text)).toBe(value);
  });
  it('reads decimal numbers as Number does, integers summed or not (up to 15 digits, and past them)', () => {
    const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
    // Long integers often: past 15 digits a sum digit by digit is no longer exact.
    const integer = fc.oneof(digits(1, 22), fc.tuple(fc.integer({ min: 1, max: 9 }), digits(13, 21)).map(([a, b]) => a + b));
    const decimal = fc.tuple(fc.constantFrom('', '-', '+'), integer, fc.option(digits(0, 6)), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3))));
    fc.assert(
      fc.property(decimal, ([sign, int, frac, exp]) => {
        const text = sign + int + (frac === null ? '' : '.' + frac) + (exp === null ? '' : exp.join(''));
        expect(Object.is(stringToNumber(text), Number(text))).toBe(true);
        // The same digits as a token of an expression.
        const token = tokenize(int + (frac === null ? '' : '.' + frac), 0).tokens[0];
        expect(token.value).toBe(Number(int + (frac === null ? '' : '.' + frac)));
      }),
      { numRuns: 2000 },
    );
  });
  it.each([' 12', '12 ', '.5', '--1', '+', '-', 'Infinity', 'NaN', '1e', '0x', '1..2', '12abc', '1e5e', '0x1g', 'abc'])(
    '%j is NaN',
    (text) => {
      expect(stringToNumber(text)).toBeNaN();
    },
  );
});

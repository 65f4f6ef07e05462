// Tokenizer of the expression language (LANGUAGE §5.1, §5.2). One left-to-right pass with
// no backtracking, so hostile input costs linear time. A lexical error (bad number, bad string,
// unexpected character) ends the scan; `Invalid function` and the token limit only stop
// *accepting* tokens, and scanning goes on so that a later lexical error is reported too.

import * as path from '../path.ts';
import { javaEscape } from '../java-escape.ts';
import {
  ADD,
  BINARY_OPERATORS,
  BITWISE_NOT,
  LOGICAL_NOT,
  SUBTRACT,
  UNARY_MINUS,
  UNARY_PLUS,
  isFunctionName,
} from './operators.ts';
import * as rpnItem from './rpn-item.ts';
import type { Literal, RpnItem } from './rpn-item.ts';

export type { Literal } from './rpn-item.ts';

/** A token is the RPN item the assembler will place (rpn-item.ts), or punctuation. */
export type Token = RpnItem;

export interface TokenizeResult {
  readonly tokens: Token[];
  readonly errors: string[];
}

const { ITEM_VALUE, ITEM_NAME, ITEM_CALL, TOKEN_RPAREN, LPAREN, RPAREN, COMMA, SEMICOLON, operatorItem } = rpnItem;
const RpnItemClass = rpnItem.RpnItem;

const OPERATOR_TOKENS = new Map<string, Token>();
for (const [spelling, operator] of BINARY_OPERATORS) OPERATOR_TOKENS.set(spelling, operatorItem(operator));
const PLUS_TOKEN = operatorItem(ADD);
const MINUS_TOKEN = operatorItem(SUBTRACT);
const UNARY_PLUS_TOKEN = operatorItem(UNARY_PLUS);
const UNARY_MINUS_TOKEN = operatorItem(UNARY_MINUS);
const NOT_TOKEN = operatorItem(LOGICAL_NOT);
const BITWISE_NOT_TOKEN = operatorItem(BITWISE_NOT);

function valueToken(value: Literal): Token {
  return new RpnItemClass(ITEM_VALUE, value, '', null, null);
}

// Copied once: under tsx every read of an imported name is a getter call (see reduce.ts).
const { scanWord, splitVariable } = path;

const CONSTANTS: ReadonlyMap<string, Literal> = new Map<string, Literal>([
  ['null', null],
  ['true', true],
  ['false', false],
  ['PI', Math.PI],
  ['E', Math.E],
  ['Infinity', Infinity],
  ['NaN', NaN],
]);

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0xa0;
}

// ---- numbers (shared with the `num` conversion, which applies the same rules) ----------

const NUMBER_ERRORS = [
  '',
  'Expected digits after start of hex number',
  'Expected a digit after exponent in decimal number',
  'Duplicate decimal point in number',
  'Unexpected decimal point in exponent',
] as const;

/** Below 10^15 an integer summed digit by digit is exact (< 2^53). */
const MAX_SUMMED_DIGITS = 15;

/** `.`, `e` or `E`: the number goes on past its integer digits. */
function continuesNumber(c: number): boolean {
  return c === 0x2e || c === 0x65 || c === 0x45;
}

// Out-parameters of scanNumber: a scan runs per `num` conversion on the render path, and a
// result object per call would be garbage.
let scannedEnd = 0;
let scannedValue = 0;

/**
 * Scans the number starting at `i` (a digit) and sets scannedEnd/scannedValue. Returns 0,
 * or an index into NUMBER_ERRORS.
 */
function scanNumber(s: string, i: number): number {
  const n = s.length;
  const start = i;
  const x = i + 1 < n ? s.charCodeAt(i + 1) : 0;
  if (s.charCodeAt(i) === 0x30 && (x === 0x78 || x === 0x58)) {
    i += 2;
    let v = 0;
    let d: number;
    while (i < n && (d = hexValue(s.charCodeAt(i))) >= 0) {
      v = v * 16 + d;
      i++;
    }
    if (i === start + 2) return 1;
    scannedEnd = i;
    scannedValue = v;
    return 0;
  }
  // An integer's value is summed as it is read: exact up to 15 digits, and no slice to parse.
  let v = 0;
  let d = 0;
  while (i < n && (d = s.charCodeAt(i) - 0x30) >= 0 && d <= 9) {
    v = v * 10 + d;
    i++;
  }
  if (i - start <= MAX_SUMMED_DIGITS && (i >= n || !continuesNumber(s.charCodeAt(i)))) {
    scannedEnd = i;
    scannedValue = v;
    return 0;
  }
  if (i < n && s.charCodeAt(i) === 0x2e) {
    i++;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
    if (i < n && s.charCodeAt(i) === 0x2e) return 3;
  }
  if (i < n) {
    const e = s.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      if (i < n) {
        const sign = s.charCodeAt(i);
        if (sign === 0x2b || sign === 0x2d) i++;
      }
      if (i >= n || !isDigit(s.charCodeAt(i))) return 2;
      while (i < n && isDigit(s.charCodeAt(i))) i++;
      if (i < n && s.charCodeAt(i) === 0x2e) return 4;
    }
  }
  scannedEnd = i;
  scannedValue = Number(s.slice(start, i));
  return 0;
}

/**
 * The `num` conversion of a string (LANGUAGE §5.6): "" is 0; otherwise an optional single
 * sign and a number of §5.2 that spans the whole string, else NaN. No trimming.
 */
export function stringToNumber(s: string): number {
  const n = s.length;
  if (n === 0) return 0;
  let i = 0;
  const c = s.charCodeAt(0);
  if (c === 0x2b || c === 0x2d) i = 1;
  if (i >= n || !isDigit(s.charCodeAt(i))) return NaN;
  if (scanNumber(s, i) !== 0 || scannedEnd !== n) return NaN;
  return c === 0x2d ? -scannedValue : scannedValue;
}

// ---- strings ------------------------------------------------------------------------

let stringEnd = 0;
let stringValue = '';

function decodedCodePoint(cp: number): string {
  // The reference replaces C0 controls (other than \t \n \v \f \r) and non-code-points by a space.
  if (cp <= 0x08 || (cp >= 0x0e && cp <= 0x1f) || cp > 0x10ffff) return ' ';
  return String.fromCodePoint(cp);
}

/** Reads `count` hex digits at `i`; -1 if any is missing or not hex. */
function readHex(s: string, i: number, count: number): number {
  if (i + count > s.length) return -1;
  let v = 0;
  for (let k = 0; k < count; k++) {
    const d = hexValue(s.charCodeAt(i + k));
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** Scans the string literal whose quote is at `i`; sets stringEnd/stringValue or returns an error text. */
function scanString(s: string, i: number): string | null {
  const n = s.length;
  const quote = s.charCodeAt(i);
  i++;
  let out = '';
  let runStart = i;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === quote) {
      stringValue = out + s.slice(runStart, i);
      stringEnd = i + 1;
      return null;
    }
    if (c === 0x0a) return 'Illegal bare line feed character in string literal';
    if (c === 0x0d) return 'Illegal bare carriage return character in string literal';
    if (c !== 0x5c) {
      i++;
      continue;
    }
    out += s.slice(runStart, i);
    if (i + 1 >= n) return 'Unterminated string'; // a final backslash stays literal; the string is open
    const e = s.charCodeAt(i + 1);
    i += 2;
    switch (e) {
      case 0x6e: out += '\n'; break;
      case 0x74: out += '\t'; break;
      case 0x66: out += '\f'; break;
      case 0x72: out += '\r'; break;
      case 0x78: { // \xHH — the reference also rejects two digits that end the text
        const v = readHex(s, i, 2);
        if (v < 0 || i + 2 >= n) return 'Invalid 2-char hex escape found';
        out += decodedCodePoint(v);
        i += 2;
        break;
      }
      case 0x75: { // \uHHHH
        const v = readHex(s, i, 4);
        if (v < 0) return 'Invalid unicode escape found';
        out += decodedCodePoint(v);
        i += 4;
        break;
      }
      case 0x55: { // \UHHHHHHHH
        const v = readHex(s, i, 8);
        if (v < 0) return 'Invalid unicode escape found';
        out += decodedCodePoint(v);
        i += 8;
        break;
      }
      default:
        out += String.fromCharCode(e);
    }
    runStart = i;
  }
  return 'Unterminated string';
}

// ---- names --------------------------------------------------------------------------

/** End of one SEGMENT (§1.4) at `i`, or -1. */
function scanSegment(s: string, i: number): number {
  if (i >= s.length) return -1;
  const c = s.charCodeAt(i);
  if (isDigit(c)) {
    i++;
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    return i;
  }
  if (c === 0x40 /* @ */) {
    const w = scanWord(s, i + 1);
    return w < 0 ? i + 1 : w;
  }
  if (c === 0x24 /* $ */) return scanWord(s, i + 1);
  return scanWord(s, i);
}

/**
 * End of the longest VARIABLE at `i`, or -1. Unlike path.ts's scanVariable, a dangling `.`
 * is left for the caller (where it is an unexpected character) instead of failing the name.
 */
function scanName(s: string, i: number): number {
  const first = s.charCodeAt(i);
  if (isDigit(first)) return -1;
  let j = scanSegment(s, i);
  if (j < 0) return -1;
  while (j < s.length && s.charCodeAt(j) === 0x2e) {
    const k = scanSegment(s, j + 1);
    if (k < 0) break;
    j = k;
  }
  return j;
}

function describeUnexpected(c: number): string {
  switch (c) {
    case 0x08: return 'backspace';
    case 0x0c: return 'form feed';
    case 0x0a: return 'line feed';
    case 0x0d: return 'carriage return';
    case 0x09: return 'tab';
    default: return c <= 0x1f ? 'control character' : 'character';
  }
}

// ---- the scan -----------------------------------------------------------------------

interface ScanState {
  readonly tokens: Token[];
  readonly errors: string[];
  readonly maxTokens: number;
  accepting: boolean;
  limitReported: boolean;
  /** Whether the previous token ends an operand: then `+`/`-` are binary. */
  afterOperand: boolean;
}

// Module-level rather than a closure: tsx's keepNames makes per-call closures costly.
function emit(state: ScanState, token: Token): void {
  const type = token.type;
  state.afterOperand = type === ITEM_VALUE || type === ITEM_NAME || type === TOKEN_RPAREN;
  if (!state.accepting) return;
  if (state.maxTokens > 0 && state.tokens.length >= state.maxTokens) {
    state.accepting = false;
    if (!state.limitReported) {
      state.limitReported = true;
      state.errors.push(`Expression exceeds the maximum number of allowed tokens: ${state.maxTokens}`);
    }
    return;
  }
  state.tokens.push(token);
}

function failed(state: ScanState, message: string): TokenizeResult {
  state.errors.push(message);
  return { tokens: state.tokens, errors: state.errors };
}

/** Tokenizes expression text (already stripped of the debug `#`). `maxTokens <= 0` = unlimited. */
export function tokenize(text: string, maxTokens: number): TokenizeResult {
  const state: ScanState = { tokens: [], errors: [], maxTokens, accepting: true, limitReported: false, afterOperand: false };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (isDigit(c)) {
      const status = scanNumber(text, i);
      if (status !== 0) return failed(state, NUMBER_ERRORS[status]);
      emit(state, valueToken(scannedValue));
      i = scannedEnd;
      continue;
    }
    switch (c) {
      case 0x22: // "
      case 0x27: { // '
        const error = scanString(text, i);
        if (error !== null) return failed(state, error);
        emit(state, valueToken(stringValue));
        i = stringEnd;
        continue;
      }
      case 0x28: emit(state, LPAREN); i++; continue;
      case 0x29: emit(state, RPAREN); i++; continue;
      case 0x2c: emit(state, COMMA); i++; continue;
      case 0x3b: emit(state, SEMICOLON); i++; continue;
      case 0x2b: emit(state, state.afterOperand ? PLUS_TOKEN : UNARY_PLUS_TOKEN); i++; continue;
      case 0x2d: emit(state, state.afterOperand ? MINUS_TOKEN : UNARY_MINUS_TOKEN); i++; continue;
      case 0x7e: emit(state, BITWISE_NOT_TOKEN); i++; continue;
      case 0x2f: case 0x25: case 0x5e: // / % ^
        emit(state, OPERATOR_TOKENS.get(text[i])!);
        i++;
        continue;
      case 0x2a: case 0x3c: case 0x3e: case 0x3d: case 0x21: case 0x26: case 0x7c: {
        const spelling = operatorAt(text, i);
        emit(state, spelling === '!' ? NOT_TOKEN : OPERATOR_TOKENS.get(spelling)!);
        i += spelling.length;
        continue;
      }
    }
    const end = scanName(text, i);
    if (end < 0) return failed(state, `Unexpected ${describeUnexpected(c)} at ${i}: ${javaEscape(text[i])}`);
    const name = text.slice(i, end);
    i = end;
    let k = i;
    while (k < n && isSpace(text.charCodeAt(k))) k++;
    const single = name.indexOf('.') < 0;
    if (k < n && text.charCodeAt(k) === 0x28 && single && name !== '@') {
      if (isFunctionName(name)) {
        emit(state, new RpnItemClass(ITEM_CALL, null, name, null, null));
      } else {
        state.errors.push(`Invalid function: ${name}`);
        state.accepting = false;
      }
      continue;
    }
    const constant = single ? CONSTANTS.get(name) : undefined;
    if (constant !== undefined) emit(state, valueToken(constant));
    else emit(state, new RpnItemClass(ITEM_NAME, null, name, splitVariable(name), null));
  }
  return { tokens: state.tokens, errors: state.errors };
}

/** The longest operator spelled at `i` whose first character is one of `* < > = ! & |`. */
function operatorAt(s: string, i: number): string {
  const c = s[i];
  const d = s[i + 1];
  switch (c) {
    case '*': return d === '*' ? '**' : '*';
    case '<': return d === '<' ? '<<' : d === '=' ? '<=' : '<';
    case '>': return d === '>' ? '>>' : d === '=' ? '>=' : '>';
    case '=': return d === '=' ? (s[i + 2] === '=' ? '===' : '==') : '=';
    case '!': return d === '=' ? (s[i + 2] === '=' ? '!==' : '!=') : '!';
    case '&': return d === '&' ? '&&' : '&';
    default: return d === '|' ? '||' : '|';
  }
}

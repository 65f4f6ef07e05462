// Variable references (LANGUAGE §1.4, §2.2): VARIABLE = SEGMENT ('.' SEGMENT)*, where a
// SEGMENT is `@` alone, a run of digits, or an optional `@`/`$` followed by a WORD.
// References are split once, at compile time; digit segments that fit a signed 32-bit int
// become numbers (array indexes), everything else stays a string key.

export type Segment = string | number;

// Character classes of ASCII, one table load per character while scanning.
const LETTER = 1;
const DIGIT = 2;
const WORD = 4;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const digit = c >= 0x30 && c <= 0x39;
  CLASS[c] = (letter ? LETTER : 0) | (digit ? DIGIT : 0) | (letter || digit || c === 0x5f || c === 0x2d ? WORD : 0);
}

function charClass(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 128 ? CLASS[c] : 0;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** End of the WORD starting at `i`, or -1. */
export function scanWord(s: string, i: number, end = s.length): number {
  if (i >= end || (charClass(s, i) & LETTER) === 0) return -1;
  i++;
  while (i < end && (charClass(s, i) & WORD) !== 0) i++;
  return i;
}

function scanSegment(s: string, i: number, end: number): number {
  if (i >= end) return -1;
  const c = s.charCodeAt(i);
  if (isDigit(c)) {
    i++;
    while (i < end && (charClass(s, i) & DIGIT) !== 0) i++;
    return i;
  }
  if (c === 0x40 /* @ */) {
    const w = scanWord(s, i + 1, end);
    return w < 0 ? i + 1 : w;
  }
  if (c === 0x24 /* $ */) return scanWord(s, i + 1, end);
  return scanWord(s, i, end);
}

/** End of the longest VARIABLE starting at `i` (`a.` scans as `a`), or -1 when there is none. */
export function scanVariable(s: string, i: number, end = s.length): number {
  let j = scanSegment(s, i, end);
  if (j < 0) return -1;
  while (j < end && s.charCodeAt(j) === 0x2e /* . */) {
    const k = scanSegment(s, j + 1, end);
    if (k < 0) break; // `a.` is the reference `a` followed by junk
    j = k;
  }
  return j;
}

const INT32_MAX = 2147483647;

/** Splits an already-scanned reference into segments. `@` alone stays the single segment '@'. */
export function splitVariable(text: string): Segment[] {
  if (text === '@') return ['@'];
  let dot = text.indexOf('.');
  if (dot < 0) return [isDigit(text.charCodeAt(0)) ? indexSegment(text) : text];
  const out: Segment[] = [];
  let start = 0;
  for (;;) {
    const p = text.slice(start, dot < 0 ? text.length : dot);
    out.push(isDigit(p.charCodeAt(0)) ? indexSegment(p) : p);
    if (dot < 0) return out;
    start = dot + 1;
    dot = text.indexOf('.', start);
  }
}

function indexSegment(p: string): Segment {
  const n = Number(p);
  return n <= INT32_MAX ? n : p;
}

/** Parses a whole string as a reference; null when it is not exactly one. */
export function parseVariable(text: string): Segment[] | null {
  return scanVariable(text, 0) === text.length && text.length > 0 ? splitVariable(text) : null;
}

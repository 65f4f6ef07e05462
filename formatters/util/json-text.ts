// JSON text as the `json`, `json-pretty` and `raw` formatters write it (the reference's
// Jackson output: Java double forms, member order kept, non-ASCII left as is).
import { isObject, jsonString, toJson, type Value } from '../../engine/plugin-api.ts';
import { escapeHtmlAttr } from './escape-html.ts';

/**
 * Replaces every `</` with `<\/` so that JSON placed inside a `<script>` element cannot
 * close it; `\/` is a valid JSON escape for `/`, so the text still parses the same.
 */
export function escapeScriptClose(s: string): string {
  let at = s.indexOf('</');
  if (at < 0) return s;
  let out = '';
  let start = 0;
  while (at >= 0) {
    out += s.slice(start, at + 1) + '\\/';
    start = at + 2;
    at = s.indexOf('</', start);
  }
  return out + s.slice(start);
}

/**
 * `json|htmlattr` in one pass: the compact JSON of `json`, attribute-escaped. Escaping the
 * finished text copies it around every quote; here the quotes are written as `&quot;` and
 * only a string with something to escape is escaped, on its own. That is the same text:
 * strings are the only part of JSON with characters that either escape touches, and a `</`
 * never spans two strings (a `<` is always inside one, followed by its content or its
 * closing quote).
 */
export function toJsonAttr(v: Value): string {
  return toJson(v, jsonStringAttr);
}

function jsonStringAttr(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x26 || c === 0x3c || c === 0x3e) return escapeHtmlAttr(escapeScriptClose(jsonString(s)));
  }
  return '&quot;' + s + '&quot;';
}

/**
 * Pretty JSON in the layout PLUGINS §2 `json-pretty` gives: objects break their members onto
 * lines indented two spaces per object level, `"key": value`; arrays stay on one line
 * `[ a, b ]` and add no indentation level; empty containers are `{ }` and `[ ]`. Missing
 * values (and missing members) print `null`.
 *
 * Every scalar and key is written exactly as the compact form writes it, so the pretty text is
 * the compact text (`toJson`, mostly one native `JSON.stringify`) with the space between its
 * tokens laid out: one pass copies each run between two structural characters (outside
 * strings) and writes the layout around it. Walking the tree and writing every leaf through
 * the writer (until 2026-11-28) was 0.55–0.65x the port's `JSON.stringify(v, null, 2)`
 * (bench/SERIALIZERS-RESULTS.md); this is faster up to ~100 KB, about the same at 1 MB,
 * and still slower than the port's native writer.
 */
export function toPrettyJson(v: Value): string {
  return layOut(toJson(v));
}

// '\n' followed by the indentation of each object level, built as levels are reached.
const NEWLINES: string[] = ['\n'];

function newline(level: number): string {
  while (NEWLINES.length <= level) NEWLINES.push(NEWLINES[NEWLINES.length - 1] + '  ');
  return NEWLINES[level];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The pretty layout of compact JSON text (no space outside strings, as `toJson` writes it). */
function layOut(s: string): string {
  // A rope: joining an array of the pieces was faster for a 50 KB text and slower for a
  // 1 MB one (bench/README.md, serializers).
  let out = '';
  let start = 0;
  let level = 0;
  // Open containers, innermost last: true for an object.
  const objects: boolean[] = [];
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(s, i);
      continue;
    }
    let put: string;
    if (c === 0x7b) { // {
      if (s.charCodeAt(i + 1) === 0x7d) {
        put = '{ }';
        out += s.slice(start, i) + put;
        start = ++i + 1;
        continue;
      }
      objects.push(true);
      put = '{' + newline(++level);
    } else if (c === 0x7d) { // }
      objects.pop();
      put = newline(--level) + '}';
    } else if (c === 0x5b) { // [
      if (s.charCodeAt(i + 1) === 0x5d) {
        put = '[ ]';
        out += s.slice(start, i) + put;
        start = ++i + 1;
        continue;
      }
      objects.push(false);
      put = '[ ';
    } else if (c === 0x5d) { // ]
      objects.pop();
      put = ' ]';
    } else if (c === 0x2c) { // ,
      put = objects[objects.length - 1] ? ',' + newline(level) : ', ';
    } else if (c === 0x3a) { // : (outside strings, only after a key)
      put = ': ';
    } else continue;
    out += i > start ? s.slice(start, i) + put : put;
    start = i + 1;
  }
  return start === 0 ? s : start < n ? out + s.slice(start) : out;
}

/** Index of the quote that closes the string opening at `open`. */
function closingQuote(s: string, open: number): number {
  let q = s.indexOf('"', open + 1);
  for (;;) {
    if (q < 0) return s.length; // unterminated (never written by toJson): the rest is copied
    // A quote preceded by an odd number of backslashes is escaped.
    let b = q - 1;
    while (s.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    q = s.indexOf('"', q + 1);
  }
}

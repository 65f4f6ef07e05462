// JSON text as the `json`, `json-pretty` and `raw` formatters write it (the reference's
// Jackson output: Java double forms, member order kept, non-ASCII left as is).
import { isObject, jsonString, toJson, type Value } from '../../engine/plugin-api.ts';
import { escapeHtmlAttr } from './escape-html.ts';

/**
 * Replaces every `</` with `<\/` so that JSON placed inside a `<script>` element cannot
 * close it; `\/` is a valid JSON escape for `/`, so the text still parses the same.
 */
export function escapeScriptClose(s: string): string {
  // replaceAll writes one flat string natively; a slice-and-append loop built a rope of two
  // pieces per `</`, which JSON of HTML-bearing data has thousands of, to flatten later.
  return s.indexOf('</') < 0 ? s : s.replaceAll('</', '<\\/');
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
 */
export function toPrettyJson(v: Value): string {
  // Pieces in an array joined once: one flat string, where appending built a rope of some
  // 100,000 leaves for a 1 MB object (~30% faster with the encoding a server does next,
  // bench/serializers-micro.ts).
  const out: string[] = [];
  pretty(v, '\n', out);
  return out.join('');
}

/** `jsonString` by JSON.stringify, which writes the same text unless it writes a `\u` escape. */
function quote(s: string): string {
  const q = JSON.stringify(s);
  return q.indexOf('\\u') < 0 ? q : jsonString(s);
}

const QUOTED_KEYS_MAX = 512;
const quotedKeys = new Map<string, string>();

/** `newline` is a line break followed by the indentation of the current object level. */
function pretty(v: Value, newline: string, out: string[]): void {
  if (Array.isArray(v)) {
    if (v.length === 0) {
      out.push('[ ]');
      return;
    }
    out.push('[ ');
    for (let i = 0; i < v.length; i++) {
      if (i) out.push(', ');
      pretty(v[i], newline, out);
    }
    out.push(' ]');
    return;
  }
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) {
      out.push('{ }');
      return;
    }
    const inner = newline + '  ';
    out.push('{');
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      let key = quotedKeys.get(k);
      if (key === undefined) {
        key = quote(k) + ': ';
        if (quotedKeys.size >= QUOTED_KEYS_MAX) quotedKeys.clear();
        if (k.length <= 64) quotedKeys.set(k, key);
      }
      out.push(i ? ',' + inner : inner, key);
      pretty(v[k], inner, out);
    }
    out.push(newline + '}');
    return;
  }
  out.push(typeof v === 'string' ? quote(v) : typeof v === 'number' && Number.isInteger(v) ? String(v) : toJson(v));
}

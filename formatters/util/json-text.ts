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
 */
export function toPrettyJson(v: Value): string {
  return pretty(v, '');
}

function pretty(v: Value, indent: string): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return '[ ]';
    let s = '[ ';
    for (let i = 0; i < v.length; i++) s += (i ? ', ' : '') + pretty(v[i], indent);
    return s + ' ]';
  }
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return '{ }';
    const inner = indent + '  ';
    let s = '{\n';
    for (let i = 0; i < keys.length; i++) {
      s += (i ? ',\n' : '') + inner + jsonString(keys[i]) + ': ' + pretty(v[keys[i]], inner);
    }
    return s + '\n' + indent + '}';
  }
  return toJson(v);
}

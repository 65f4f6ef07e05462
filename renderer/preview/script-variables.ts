import vm from 'node:vm';
import { codeFrame, Source, type Diagnostic, type Template } from '../../engine/index.ts';
import { BUILTIN_PARTIALS } from '../site/builtin-templates.ts';
import { compileCached } from '../site/load-site.ts';
import type { LoadedSite } from '../site/site-types.ts';
import type { Frame } from './diagnostic-frames.ts';

// Variables written into a <script> or <style> element. JSON-T escapes nothing by itself
// (LANGUAGE §1.8), and a tag that looks like a variable is one even in CSS or JavaScript
// (§1.5: `{color}`, `if(a){b}`), so `<script>var price = {item.price};</script>` renders
// `var price = ;` for an item without a price and the page's script stops with nothing said.
// `quire check` reads the template for such tags (TEMPLATE_SCRIPT_VARIABLE,
// TEMPLATE_STYLE_VARIABLE); the preview and `quire render-page` look at what a page made of
// them (TEMPLATE_SCRIPT_BROKEN). All are warnings: the template is valid, its output may not be.

/** The codes of this check (SITE_CODES in diagnostic-frames.ts says what each means). */
export type ScriptVariableCode = 'TEMPLATE_SCRIPT_VARIABLE' | 'TEMPLATE_STYLE_VARIABLE' | 'TEMPLATE_SCRIPT_BROKEN';

/** Where in a raw-text element a variable's value lands. */
type Place = 'script' | 'script-string' | 'json' | 'json-string' | 'style' | 'style-string';

/** A variable tag inside a <script> or <style> element of a template. */
export interface ScriptVariable {
  /** Offset of the tag's `{`. */
  start: number;
  /** The tag as written (`{item.price}`). */
  tag: string;
  /** The first variable's reference (`item.price`). */
  ref: string;
  /** The last formatter of the chain, or null. */
  last: string | null;
  place: Place;
  /** `script` or `style`: the element it is in. */
  element: 'script' | 'style';
  /** The literal text right before and after the tag in the same element (to find it in a page). */
  before: string;
  after: string;
}

// The few syntax-tree fields this walk reads (the renderer sees the engine only through
// engine/index.ts, which does not export the node types; as check-site.ts).
interface Node {
  kind: string;
  span: { start: number; end: number };
  text?: string;
  keyword?: string;
  name?: string;
  refs?: readonly { text: string }[];
  formatters?: readonly { name: string }[];
  body?: Node[];
  alternates?: { body: Node[] } | null;
  alt?: Node | null;
}

const LITERALS: Record<string, string> = { 'meta-left': '{', 'meta-right': '}', space: ' ', tab: '\t', newline: '\n' };

/** Stand-ins in the skeleton text: a variable's value, and any other instruction's output. */
const VALUE = '\uE000';
const OTHER = '\uE001';
/** A block's start or end: the text on either side may not meet in the page. */
const EDGE = '\uE002';

/**
 * The template as a browser would see its markup: text and literal instructions as written,
 * each variable one VALUE character, each other instruction that may print one OTHER
 * character, comments nothing; blocks in source order (every branch is markup of the page).
 */
function skeleton(body: readonly Node[], out: { text: string[]; vars: Node[]; at: number[] }, length: { n: number }): void {
  const put = (s: string) => {
    out.text.push(s);
    length.n += s.length;
  };
  for (const node of body) {
    switch (node.kind) {
      case 'text':
        put(node.text ?? '');
        break;
      case 'literal':
        put(LITERALS[node.keyword ?? ''] ?? '');
        break;
      case 'comment':
        break;
      case 'variable':
        out.vars.push(node);
        out.at.push(length.n);
        put(VALUE);
        break;
      case 'eval':
      case 'include':
      case 'inject':
        put(OTHER);
        break;
      case 'repeated':
      case 'section':
      case 'predicate':
      case 'if':
      case 'macro':
        put(EDGE);
        skeleton(node.body ?? [], out, length);
        if (node.alternates) {
          put(EDGE);
          skeleton(node.alternates.body, out, length);
        }
        for (let or = node.alt ?? null; or; or = or.alt ?? null) {
          put(EDGE);
          skeleton(or.body ?? [], out, length);
        }
        put(EDGE);
        break;
      default:
        // .var, .ctx print nothing.
        break;
    }
  }
}

/** JSON-ish script types: a value must be JSON there too. Other non-JavaScript types (`text/template` …) hold markup, not code. */
const JSON_TYPE = /^(application\/(ld\+)?json|importmap|speculationrules|.*[/+]json)$/i;
const JS_TYPE = /^((application|text)\/(x-)?(java|ecma)script|module|text\/jscript|text\/livescript)$/i;

function scriptKind(attributes: string): 'script' | 'json' | null {
  const type = /\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes);
  if (!type) return 'script';
  const value = (type[1] ?? type[2] ?? type[3] ?? '').trim();
  if (value === '' || JS_TYPE.test(value)) return 'script';
  if (/[\uE000-\uE002]/.test(value)) return null;
  return JSON_TYPE.test(value) ? 'json' : null;
}

/**
 * Whether each offset of `content` (a script's or a stylesheet's text) is inside a string
 * literal, a comment or code: a small scanner for quotes and comments, enough to tell
 * `var n = "{name}"` from `var n = {name}`. A value (VALUE) never opens or closes anything.
 */
function places(content: string, css: boolean): ('code' | 'string' | 'comment')[] {
  const out: ('code' | 'string' | 'comment')[] = new Array(content.length);
  let quote = '';
  let comment = '';
  for (let i = 0; i < content.length; i++) {
    const c = content[i]!;
    if (comment) {
      out[i] = 'comment';
      if (comment === '//' && c === '\n') comment = '';
      else if (comment === '/*' && c === '/' && content[i - 1] === '*' && i > 0) comment = '';
      continue;
    }
    if (quote) {
      out[i] = 'string';
      if (c === '\\') {
        if (i + 1 < content.length) out[++i] = 'string';
      } else if (c === quote || (c === '\n' && quote !== '`')) quote = '';
      continue;
    }
    out[i] = 'code';
    if (!css && c === '/' && content[i + 1] !== '/' && content[i + 1] !== '*' && /(^|[(,=:[!&|?{};+\-*%<>~^]|\breturn|\btypeof)\s*$/.test(content.slice(Math.max(0, i - 12), i))) {
      // A regular expression literal (`/"/.test(s)`): its quotes open no string.
      let inClass = false;
      for (i++; i < content.length && content[i] !== '\n'; i++) {
        out[i] = 'code';
        const r = content[i]!;
        if (r === '\\') out[++i] = 'code';
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
      }
      if (i < content.length) out[i] = 'code';
      continue;
    }
    if (c === '"' || c === "'" || (!css && c === '`')) quote = c;
    else if (c === '/' && content[i + 1] === '*') comment = '/*';
    else if (!css && c === '/' && content[i + 1] === '/' && content[i - 1] !== ':' && content[i - 1] !== '\\') comment = '//';
  }
  return out;
}

/** Every variable tag in a <script> or <style> element of the template, with where its value lands. */
export function scriptVariables(template: Template): ScriptVariable[] {
  const ast = template.ast as unknown as { body: Node[] } | null;
  if (!ast) return [];
  const out = { text: [] as string[], vars: [] as Node[], at: [] as number[] };
  skeleton(ast.body, out, { n: 0 });
  if (out.vars.length === 0) return [];
  const text = out.text.join('');
  const lower = text.toLowerCase();
  const found: ScriptVariable[] = [];
  // HTML comments are skipped; an open tag's `>` ends it (an attribute holding `>` is rare in
  // such tags). Attributes are read up to 2,000 characters: a `<script` never closed by a `>`
  // is then tried in bounded time, not to the end of the text at each one.
  const tags = /<!--[\s\S]*?(?:-->|$)|<(script|style)(?=[\s/>\uE000-\uE002])([^>]{0,2000})>/gi;
  let v = 0;
  for (let m = tags.exec(text); m; m = tags.exec(text)) {
    if (!m[1]) continue;
    const element = m[1].toLowerCase() as 'script' | 'style';
    const kind = element === 'style' ? 'style' : scriptKind(m[2] ?? '');
    const from = m.index + m[0].length;
    const close = lower.indexOf(`</${element}`, from);
    const to = close < 0 ? text.length : close;
    tags.lastIndex = to;
    if (kind === null) continue;
    while (v < out.at.length && out.at[v]! < from) v++;
    if (v >= out.at.length || out.at[v]! >= to) continue;
    const content = text.slice(from, to);
    const where = places(content, kind === 'style');
    for (; v < out.at.length && out.at[v]! < to; v++) {
      const offset = out.at[v]! - from;
      if (where[offset] === 'comment') continue;
      const node = out.vars[v]!;
      const formatters = node.formatters ?? [];
      // The literal text around the tag up to the next instruction (or the element's edge).
      const left = content.slice(0, offset);
      const right = content.slice(offset + 1);
      const before = left.slice(Math.max(left.lastIndexOf(VALUE), left.lastIndexOf(OTHER), left.lastIndexOf(EDGE)) + 1);
      const stop = /[\uE000-\uE002]/.exec(right);
      const after = right.slice(0, stop ? stop.index : right.length);
      found.push({
        start: node.span.start,
        tag: template.source.text.slice(node.span.start, node.span.end),
        ref: node.refs?.[0]?.text ?? '',
        last: formatters.length ? formatters[formatters.length - 1]!.name : null,
        place: (where[offset] === 'string' ? `${kind}-string` : kind) as Place,
        element,
        before,
        after,
      });
    }
  }
  return found;
}

/** Formatters whose output is a number: fine anywhere in code or CSS. */
const NUMBER = new Set(['count', 'round', 'mod']);
/** Formatters whose output holds no quote, backslash, line break or `<`: fine inside a string. */
const ENCODED = new Set(['url-encode', 'encode-uri', 'encode-uri-component', 'slugify', ...NUMBER]);
/** Formatters whose output is a CSS value or class name. */
const CSS = new Set([...ENCODED, 'color-weight', 'website-color', 'image-color']);
/** A partial's or macro's output is template markup the author wrote for the place. */
const OPAQUE = new Set(['apply']);

/**
 * Why a variable's value is not safe where it lands, with what to write instead; null when it
 * is (a `json` value in code, a loop index, an encoded text in a string, a partial's output).
 */
function unsafe(v: ScriptVariable, locals: ReadonlyMap<string, string | null>): { message: string; hint: string } | null {
  if (v.last !== null && OPAQUE.has(v.last)) return null;
  let last = v.last;
  if (last === null && v.ref.startsWith('@')) {
    const name = v.ref.split('.', 1)[0]!;
    if (name === '@index' || name === '@index0') return null;
    // A local is judged by the chain of its `.var`; one set by `.eval`, `.ctx`, `.inject` or
    // `apply`'s @args is the template's own value, not data: left alone.
    if (!locals.has(name)) return null;
    last = locals.get(name)!;
    if (last !== null && OPAQUE.has(last)) return null;
  }
  const shown = v.tag;
  const element = `<${v.element}>`;
  switch (v.place) {
    case 'script':
    case 'json': {
      if (last === 'json' || last === 'json-pretty' || (last !== null && NUMBER.has(last))) return null;
      if (last === 'raw') {
        return { message: `${shown} in a ${element}: raw leaves a '</script>' in the value as is, which ends the script there`, hint: `write {${v.ref}|json}: the same JSON with '</' escaped` };
      }
      const block = last === null && /\)\s*$/.test(v.before) && v.place === 'script';
      return {
        message: `${shown} in a ${element} is written into the ${v.place === 'json' ? 'JSON' : 'code'} unescaped: when it renders empty, or holds a quote, a line break or '</script>', the script breaks`,
        hint: block
          ? `if {${v.ref}} is the script's own block, write it as '{ ${v.ref} }' (a space after '{' makes it text); for the value, write {${v.ref}|json}`
          : `write {${v.ref}|json}: a JSON value (a quoted, escaped string for text); json of a missing value is empty too, so when it may be missing write {.section ${v.ref}}{@|json}{.or}null{.end} (0 and "" count as missing there)`,
      };
    }
    case 'script-string':
    case 'json-string': {
      if (last !== null && ENCODED.has(last)) return null;
      if (last === 'json' || last === 'json-pretty' || last === 'raw') {
        return { message: `${shown} inside a quoted string of a ${element}: ${last} writes its own quotes, so the string ends before the value`, hint: `remove the quotes around ${shown}` };
      }
      return {
        message: `${shown} inside a quoted string of a ${element} is not escaped: a quote, a backslash, a line break or '</script>' in the value ends the string or the script`,
        hint: `write {${v.ref}|json} in place of the whole quoted string (json quotes and escapes it), or encode the value (|encode-uri-component)`,
      };
    }
    case 'style':
    case 'style-string': {
      if (last !== null && CSS.has(last)) return null;
      return {
        message: `${shown} in a <style> is written into the CSS unescaped: when it renders empty the declaration is dropped, and a '}', ';' or '</style>' in the value breaks the rules after it`,
        hint: `pass it through a formatter whose output fits CSS (round, slugify, encode-uri-component, website-color, color-weight), or keep it inside {.section ${v.ref}}…{.end}`,
      };
    }
  }
}

/** The last formatter of each `.var @name …` of the template (null: none); a name bound twice keeps its safest chain. */
function localChains(template: Template): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const walk = (body: readonly Node[]) => {
    for (const node of body) {
      if (node.kind === 'bindvar' && node.name) {
        const f = node.formatters ?? [];
        const last = f.length ? f[f.length - 1]!.name : null;
        if (!out.has(node.name) || out.get(node.name) === null) out.set(node.name, last);
      }
      if (node.body) walk(node.body);
      if (node.alternates) walk(node.alternates.body);
      for (let or = node.alt ?? null; or; or = or.alt ?? null) walk(or.body ?? []);
    }
  };
  walk((template.ast as unknown as { body: Node[] } | null)?.body ?? []);
  return out;
}

function warningFrame(code: ScriptVariableCode, source: Source, file: string, start: number, message: string, hint: string | null): Frame {
  const { line, column } = source.position(start);
  const d = { kind: 'Warning', code, message, line, column, source: file } as unknown as Diagnostic;
  const text = codeFrame(d, source) + (hint === null ? '' : `\n  hint: ${hint}`);
  return { code, where: `${file}:${line}:${column}`, text, warning: true };
}

/** `quire check`: a frame for each variable of a <script> or <style> whose value is not made safe there. */
export function scriptVariableFrames(template: Template, file: string): Frame[] {
  const variables = scriptVariables(template);
  if (variables.length === 0) return [];
  const locals = localChains(template);
  const source = new Source(template.source.text, file);
  const frames: Frame[] = [];
  for (const v of variables) {
    const problem = unsafe(v, locals);
    if (problem === null) continue;
    const code = v.element === 'style' ? 'TEMPLATE_STYLE_VARIABLE' : 'TEMPLATE_SCRIPT_VARIABLE';
    frames.push(warningFrame(code, source, file, v.start, problem.message, problem.hint));
  }
  return frames;
}

/** A variable of a template's <script> or <style>, with the file to point at. */
export interface ScriptProbe extends ScriptVariable {
  file: string;
  source: Source;
}

/** Every script or style variable of the given templates (by file), to look for in rendered pages. */
export function scriptProbes(templates: Iterable<[string, Template]>): ScriptProbe[] {
  const probes: ScriptProbe[] = [];
  for (const [file, template] of templates) {
    const variables = scriptVariables(template);
    if (variables.length === 0) continue;
    const source = new Source(template.source.text, file);
    for (const v of variables) probes.push({ ...v, file, source });
  }
  return probes;
}

const siteProbes = new WeakMap<LoadedSite, ScriptProbe[]>();

/**
 * The script and style variables of a loaded site's templates and of the partials its author
 * wrote (the renderer's own are its tests' business), found once per load.
 */
export function siteScriptProbes(site: LoadedSite): ScriptProbe[] {
  let probes = siteProbes.get(site);
  if (probes === undefined) {
    const files: [string, Template][] = [];
    for (const compiled of site.templates.values()) files.push([compiled.file, compiled.template]);
    for (const [name, text] of Object.entries(site.partials)) {
      if (Object.hasOwn(BUILTIN_PARTIALS, name) && BUILTIN_PARTIALS[name] === text) continue;
      // The loader compiled the same text under the same name: a cache hit.
      const file = `partials/${name}.jsont`;
      files.push([file, compileCached(file, text).template]);
    }
    siteProbes.set(site, (probes = scriptProbes(files)));
  }
  return probes;
}

/** The text of each inline <script> (with its kind) and <style> of a page. */
function pageElements(html: string): { element: 'script' | 'style'; kind: 'script' | 'json' | null; module: boolean; text: string }[] {
  const out: { element: 'script' | 'style'; kind: 'script' | 'json' | null; module: boolean; text: string }[] = [];
  const lower = html.toLowerCase();
  const tags = /<!--[\s\S]*?(?:-->|$)|<(script|style)(?=[\s/>])([^>]{0,2000})>/gi;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    if (!m[1]) continue;
    const element = m[1].toLowerCase() as 'script' | 'style';
    const from = m.index + m[0].length;
    const close = lower.indexOf(`</${element}`, from);
    const to = close < 0 ? html.length : close;
    tags.lastIndex = to;
    const attributes = m[2] ?? '';
    if (element === 'script' && /\bsrc\s*=/i.test(attributes)) continue;
    const kind = element === 'style' ? null : scriptKind(attributes);
    out.push({ element, kind, module: /\btype\s*=\s*["']?module\b/i.test(attributes), text: html.slice(from, to) });
  }
  return out;
}

/** Why a script's text does not compile, or null; nothing runs (vm.Script only parses). */
function syntaxError(text: string, kind: 'script' | 'json', module: boolean): string | null {
  try {
    if (kind === 'json') JSON.parse(text);
    // A module's import/export are not script syntax; its other errors are rare enough to skip.
    else if (!module) new vm.Script(text);
    return null;
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

/** Scripts compiled again with a value replaced, per page. */
const MENDING_TRIES = 20;

/** A literal around a tag long enough to find it in a page by (`:` alone would match anywhere). */
const ANCHOR = 3;

/**
 * The preview and `quire render-page`: what a page made of its script and style variables,
 * each found by the literal text around its tag. A variable in code or CSS whose neighbours
 * meet with nothing between them rendered empty for this page's data; a script that does not
 * parse (vm.Script compiles, never runs), but does with the variable's value replaced by
 * `null` (by nothing inside a string), broke on that value. Once per tag and per script.
 */
export function renderedScriptFrames(html: string, probes: readonly ScriptProbe[]): Frame[] {
  if (probes.length === 0) return [];
  const elements = pageElements(html);
  const frames: Frame[] = [];
  const blamed = new Set<string>();
  let tries = 0;
  const parsed = new Map<string, string | null>();
  const parse = (text: string, kind: 'script' | 'json', module: boolean) => {
    let error = parsed.get(text);
    if (error === undefined) parsed.set(text, (error = syntaxError(text, kind, module)));
    return error;
  };
  for (const probe of probes) {
    const before = probe.before.trimStart();
    const after = probe.after.trimEnd();
    if (before.length + after.length < ANCHOR) continue;
    const inString = probe.place.endsWith('string');
    for (const el of elements) {
      if (el.element !== probe.element) continue;
      const at = el.text.indexOf(before);
      if (at < 0) continue;
      const valueAt = at + before.length;
      const end = after === '' ? el.text.length : el.text.indexOf(after, valueAt);
      if (end < 0) continue;
      const value = el.text.slice(valueAt, end);
      if (value === '' && !inString && before.trim() !== '' && (after !== '' || probe.element === 'style')) {
        const left = before.slice(before.lastIndexOf('\n') + 1).trimStart().slice(-40);
        const message = `${probe.tag} rendered empty in this page's <${probe.element}>, leaving '${left}${after.split('\n', 1)[0]!.slice(0, 20)}'`;
        const hint =
          probe.element === 'style'
            ? `give it a value in the page's data, or keep the declaration inside {.section ${probe.ref}}…{.end}`
            : `write {.section ${probe.ref}}{@|json}{.or}null{.end}, so the script gets null when the data has none (0 and "" count as none; or give it a value in the page's data)`;
        frames.push(warningFrame('TEMPLATE_SCRIPT_BROKEN', probe.source, probe.file, probe.start, message, hint));
        break;
      }
      if (probe.element !== 'script' || el.kind === null || blamed.has(el.text)) continue;
      const error = parse(el.text, el.kind, el.module);
      if (error === null) continue;
      // Each try compiles the whole script again: a few per page.
      if (tries++ >= MENDING_TRIES) continue;
      const mended = el.text.slice(0, valueAt) + (inString ? '' : 'null') + el.text.slice(end);
      if (parse(mended, el.kind, el.module) !== null) continue;
      blamed.add(el.text);
      const message = `this page's <script> does not parse (${error}) after ${probe.tag} rendered '${oneLine(value).slice(0, 60)}'`;
      frames.push(warningFrame('TEMPLATE_SCRIPT_BROKEN', probe.source, probe.file, probe.start, message, inString ? `write {${probe.ref}|json} in place of the quoted string: it quotes and escapes the value` : `write {${probe.ref}|json}`));
      break;
    }
  }
  return frames;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}

import fs from 'node:fs';
import path from 'node:path';
import { codeFrame, listPlugins, Source, type Diagnostic, type Template } from '../../engine/index.ts';
import { BUILTIN_PARTIALS } from '../site/builtin-templates.ts';
import { rendererEngine } from '../platform/renderer-engine.ts';
import { compileCached } from '../site/load-site.ts';
import { didYouMean, type SiteDiagnosticCode } from '../site/validate-site-files.ts';
import type { LoadedSite, SiteLoadErrorCode, SiteProblem } from '../site/site-types.ts';
import type { ScriptVariableCode } from './script-variables.ts';
import type { TEMPLATE_MISSING_CODE } from '../pages/template-fallbacks.ts';
import type { ARGS_IGNORED_CODE } from './ignored-arguments.ts';

// Authors read problems as code frames, in the terminal (render-page) and in the browser
// overlay (preview). Engine diagnostics and site-load problems come out the same way.

/**
 * Every code of a site-folder problem an author tool shows (`quire check`, the preview's
 * overlay and terminal, `render-page`, the start log) besides the engine's own, with what
 * it means: `docs/diagnostics.md` ("Site folder problems") lists the same (checked by a test),
 * and the type makes a new loader or schema code a compile error here until it is described.
 */
export const SITE_CODES = {
  SITE_NOT_FOUND: 'error: the site folder does not exist',
  SITE_READ_FAILED: 'error: a file of the folder cannot be read, or is not UTF-8 (at its first bad byte)',
  SITE_JSON_INVALID: 'error: `site.json`, `catalog.json` or a `content/*.json` file is not JSON: where to fix it (a missing comma after the value before it, an extra comma at the comma, else the first character that is not) and what to do, in words that never quote the file back',
  SITE_SCHEMA_INVALID: 'error: a data file has the wrong shape for the loader (a bad slug, kind, `homePage`, two home pages, an item or block that is not an object, a reserved partial name)',
  SITE_VALUE_INVALID: 'error (some warnings): a value of the wrong type or outside its allowed set, a missing id, a variant with no `priceCents`',
  SITE_DUPLICATE_PATH: 'error: two pages, items or products would answer the same URL (a slug used twice)',
  SITE_DUPLICATE_ID: 'error: an id given twice in `catalog.json`',
  SITE_LIMIT_EXCEEDED: 'error: a content limit (blocks per layout, items per collection, images per gallery …) or the JSON nesting depth is exceeded',
  SITE_KEY_UNKNOWN: 'warning: a key the schema does not know, with a "did you mean" (`price` -> `priceCents`)',
  SITE_KEY_DEPRECATED: 'warning: a key still read for now, with what replaces it',
  SITE_CONTENT: 'error: a block a page cannot show (unknown block type, a form or product not in the catalogue); warning: a page names a template `templates/` does not have, or a file of `templates/` is the template of no page (`blog.lst.jsont`), each with the nearest name',
  SITE_TEMPLATE_MISSING: "warning: `templates/page.jsont` is missing (deleted, renamed, saved as `Page.jsont` or `page.json`) while pages render with it, so they render with Quire's built-in page template; names the pages and the file of `templates/` closest to it",
  SITE_IMAGE_MISSING: 'warning (`quire check`): a `/assets/site/images/NAME` written in a data file, template or stylesheet that `images/` has no file for',
  TEMPLATE_SYNTAX: 'error: a template or partial has a syntax error; the frame shows the engine\'s own code (`EOF_IN_BLOCK` …) and words',
  TEMPLATE_SCRIPT_VARIABLE:
    'warning (`quire check`): a variable in a `<script>` written unescaped (`var price = {item.price};`, `"{name}"`, `{x|raw}`): write `{x|json}`; `{x|json}` outside quotes, a loop index, a `count`/`round`/`mod` number, an encoded text (`encode-uri-component`) in a string and an `apply` are not reported',
  TEMPLATE_STYLE_VARIABLE:
    'warning (`quire check`): a variable in a `<style>` without a formatter whose output fits CSS (`round`, `slugify`, `encode-uri-component`, `website-color`, `color-weight`, `image-color`)',
  TEMPLATE_ARGS_IGNORED:
    "warning (`quire check`): a predicate or formatter that takes no arguments (its reference says none) was given some (`{.sold-out? variant}`, `{title|html x}`); the engine ignores them, as the reference does, so the test or the text is the plugin's alone",
  TEMPLATE_SCRIPT_BROKEN:
    "warning (preview, `quire render-page`): for this page's data a `<script>` or `<style>` variable rendered empty (`var price = ;`, `color:;`), or its script no longer parses because of the value",
} as const satisfies Record<SiteLoadErrorCode | SiteDiagnosticCode | 'SITE_CONTENT' | typeof TEMPLATE_MISSING_CODE | 'SITE_IMAGE_MISSING' | ScriptVariableCode | typeof ARGS_IGNORED_CODE, string>;

/** One problem ready to show: a title line and a frame (plain text, not escaped). */
export interface Frame {
  code: string;
  where: string;
  text: string;
  /** A finding that does not stop the site (a deprecated key): shown, but `quire check` passes. */
  warning?: true;
}

function readSiteFile(dir: string, file: string): string | null {
  try {
    const text = fs.readFileSync(path.resolve(dir, file), 'utf8');
    // Read as the loader reads it (site/read-texts.ts): a byte-order mark is not a column of line 1.
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    return null;
  }
}

/**
 * The sources a batch of frames is drawn against, each read and split into lines once. A frame
 * per finding read its file and listed its lines again: 15,000 unknown keys in a 2.3 MB
 * catalog.json took `quire check` 89 s, and every preview page as long.
 */
export class FrameSources {
  private readonly files = new Map<string, Source | null>();
  private readonly named = new Map<string, Source | null>();

  constructor(
    private readonly dir: string,
    private readonly site: LoadedSite | null = null,
  ) {}

  /** A file of the site folder, by its path there. */
  file(file: string): Source | null {
    let source = this.files.get(file);
    if (source === undefined) {
      const text = readSiteFile(this.dir, file);
      source = text === null ? null : new Source(text, file);
      this.files.set(file, source);
    }
    return source;
  }

  /** A text already in hand (a template `quire check` was given), framed without reading it again. */
  add(source: Source): void {
    this.named.set(source.name, source);
  }

  /**
   * The text a diagnostic's `source` names: a template (by file or name), a partial, or a file
   * of the site; with no loaded site (a folder that failed to load), a file of the folder.
   */
  diagnostic(name: string): Source | null {
    const site = this.site;
    let source = this.named.get(name);
    if (source === undefined) {
      source = null;
      for (const template of site?.templates.values() ?? []) {
        if (template.file === name || template.name === name) {
          source = template.template.source;
          break;
        }
      }
      const bare = name.replace(/^partials\//, '').replace(/\.jsont$/, '');
      if (source === null && site !== null && Object.hasOwn(site.partials, bare)) source = new Source(site.partials[bare]!, name);
      source ??= this.file(name);
      this.named.set(name, source);
    }
    return source;
  }
}

/**
 * What to do about an `apply` / `.include` that found nothing. Partials are keyed by their file
 * name without `.jsont`, so `{.include post-meta.jsont}` misses partials/post-meta.jsont: the
 * engine's words ("could not be found") and `quire check`'s "(partials/post-meta.jsont.jsont)"
 * left an author looking at a file that exists.
 */
export function missingPartialHint(name: string, partials: Readonly<Record<string, string>>): string {
  const bare = name.replace(/\.jsont$/, '');
  if (bare !== name && Object.hasOwn(partials, bare)) return `partials are named without .jsont: write '${bare}'`;
  // The nearest partial for a slip (`post-meat`), the renderer's own (`sf-product-card`) included.
  const near = didYouMean(bare, Object.keys(partials), true);
  return `no partials/${bare}.jsont in the site folder and no {.macro ${name}} in this file${near ? `: did you mean '${near}'?` : ''}`;
}

/** The plugin's name in FORMATTER_ARGS_INVALID, PREDICATE_ARGS_INVALID and PREDICATE_NEEDS_ARGS (the reference's words). */
const ARGS_NAME = /^(?:Formatter '(.*)' arguments are invalid|Predicate (\S+) arguments invalid|Predicate '\.(.*)' requires arguments)/s;

/**
 * Instructions the parser refused that would have opened a block (`{.greaterThan? 1 2 3}`,
 * `{.equal?}`, `{.section}`): the block's `{.or}` and `{.end}` then follow errors of their own
 * (MISMATCHED_END, NOT_ALLOWED_AT_ROOT) whose hint said to remove a {.end} that was right.
 */
const REFUSED_OPENERS = new Set(['PREDICATE_ARGS_INVALID', 'PREDICATE_NEEDS_ARGS', 'WHITESPACE_EXPECTED']);

/**
 * Hints of the {.end}s and {.or}s left without their block by a refused opener before them in
 * the same file, found in one pass over a file's diagnostics (sorted by position) and kept per
 * list: a template of thousands of errors asks once, not once per error.
 */
const openerHintsOf = new WeakMap<readonly Diagnostic[], Map<Diagnostic, string>>();

function refusedOpenerHint(d: Diagnostic, siblings: readonly Diagnostic[]): string | null {
  if (d.code !== 'MISMATCHED_END' && d.code !== 'NOT_ALLOWED_AT_ROOT') return null;
  let hints = openerHintsOf.get(siblings);
  if (hints === undefined) {
    hints = new Map();
    const opener = new Map<string, Diagnostic>();
    const ordered = [...siblings].sort((x, y) => x.line - y.line || x.column - y.column);
    for (const other of ordered) {
      if (REFUSED_OPENERS.has(other.code)) opener.set(other.source, other);
      const open = opener.get(other.source);
      if (open !== undefined && (other.code === 'MISMATCHED_END' || other.code === 'NOT_ALLOWED_AT_ROOT')) {
        hints.set(other, `the instruction at line ${open.line}, column ${open.column} was refused (${open.code}), so it opened no block for this to close: fix that one and this error goes with it`);
      }
    }
    openerHintsOf.set(siblings, hints);
  }
  return hints.get(d) ?? null;
}

/** The partial name of an engine's APPLY_ / INCLUDE_PARTIAL_MISSING message (the reference's words). */
const MISSING_PARTIAL = /^Attempt to (?:apply|include) partial '(.*)' which could not be found\.$/s;

/** The name in the engine's FORMATTER_UNKNOWN / PREDICATE_UNKNOWN message (the reference's words). */
const UNKNOWN_NAME = /^(?:Formatter|Predicate) '(.*)' is unknown\.$/s;

const nameHints = new Map<string, string>();

/** The keywords of `{.keyword …}` (LANGUAGE §4.0), for the nearest one to a misspelling. */
const INSTRUCTIONS = ['alternates', 'ctx', 'end', 'eval', 'if', 'include', 'inject', 'macro', 'meta-left', 'meta-right', 'newline', 'or', 'repeated', 'section', 'space', 'tab', 'var'];

/**
 * What to do about a diagnostic, when the engine's words (kept as the reference has them) do
 * not say: the nearest formatter or predicate name, where a partial was looked for, how to
 * close a block. Null when there is nothing to add.
 */
function diagnosticHint(site: LoadedSite | null, d: Diagnostic): string | null {
  switch (d.code) {
    case 'APPLY_PARTIAL_MISSING':
    case 'INCLUDE_PARTIAL_MISSING': {
      const missing = site === null ? null : MISSING_PARTIAL.exec(d.message);
      return missing ? missingPartialHint(missing[1]!, site!.partials) : null;
    }
    case 'FORMATTER_UNKNOWN':
    case 'PREDICATE_UNKNOWN': {
      const name = UNKNOWN_NAME.exec(d.message)?.[1];
      if (name === undefined) return null;
      const key = `${d.code} ${name}`;
      let hint = nameHints.get(key);
      if (hint === undefined) {
        const formatter = d.code === 'FORMATTER_UNKNOWN';
        const { registry } = rendererEngine();
        const near = didYouMean(name, [...(formatter ? registry.formatters : registry.predicates).keys()], true);
        const list = formatter ? 'docs/reference/formatters.md' : 'docs/reference/predicates.md';
        hint = near ? `did you mean '${near}'? (every ${formatter ? 'formatter' : 'predicate'}: ${list})` : `every ${formatter ? 'formatter' : 'predicate'} is listed in ${list}`;
        // A template of many uses of one misspelt name draws a frame for each: search once.
        if (nameHints.size < 1000) nameHints.set(key, hint);
      }
      return hint;
    }
    case 'INVALID_INSTRUCTION': {
      // The reference's words name the keyword but not the nearest one (`.sectoin`).
      const keyword = /^Invalid instruction '\.(.*)'$/s.exec(d.message)?.[1];
      const near = keyword === undefined ? null : didYouMean(keyword, INSTRUCTIONS, true);
      return near ? `did you mean {.${near} …}? (every instruction: docs/language.md)` : 'every instruction is described in docs/language.md';
    }
    case 'WHITESPACE_EXPECTED':
      // "found ''": a keyword with nothing after it.
      return 'the instruction needs a space and what it works on: {.section NAME}, {.repeated section NAME}, {.var @name VALUE}';
    case 'LIMIT_SOURCE_LENGTH':
      // `{.include NAME}` alone prints nothing (it runs the partial for its variables): a part moved
      // by the old hint vanished from the page.
      return 'move parts of it into partials (partials/NAME.jsont) and print each where it was with {@|apply NAME} or {.include NAME output}';
    case 'FORMATTER_ARGS_INVALID':
    case 'PREDICATE_ARGS_INVALID':
    case 'PREDICATE_NEEDS_ARGS': {
      const name = ARGS_NAME.exec(d.message)?.slice(1).find((group) => group !== undefined);
      if (name === undefined) return null;
      const formatter = d.code === 'FORMATTER_ARGS_INVALID';
      const { formatters, predicates } = listPlugins();
      // The reference lists the engine's plugins; a renderer's own (image-component) is not there.
      const listed = (formatter ? formatters : predicates).includes(name);
      const where = listed ? `docs/reference/${formatter ? 'formatters' : 'predicates'}.md#${name.toLowerCase().replace(/[^a-z0-9_ -]/g, '').replace(/ /g, '-')}` : null;
      const takes = where ? `what ${name} takes, with an example: ${where}` : `${name} is given other arguments than it takes`;
      // A refused predicate opens no block: its {.or} and {.end} are reported too, at the root.
      return formatter ? takes : `${takes}; until it is fixed the block does not open, so its {.or} and {.end} are reported as well`;
    }
    case 'APPLY_PARTIAL_RECURSION_DEPTH':
      // The reference's words say the depth was exceeded, not why: a call that always runs.
      return 'a partial that applies or includes itself (or a partial that calls it back) on every render never ends: put the call inside a {.section} or {.if} that ends (quire check names the cycle)';
    case 'EOF_IN_BLOCK':
      return 'add {.end} where the block should close';
    case 'MISMATCHED_END':
      return 'this {.end} closes no open block: remove it, or open the block it was meant to close';
    default:
      return null;
  }
}

/**
 * The file a diagnostic's source is, for the author to open: the engine names a partial by its
 * partials-map key (`loop`), which is `partials/loop.jsont` of the folder unless the renderer
 * itself supplies it. Any other source is already a path of the folder (or a given file).
 */
function sourceFile(site: LoadedSite | null, name: string): string {
  if (site === null || name.includes('/') || !Object.hasOwn(site.partials, name) || Object.hasOwn(BUILTIN_PARTIALS, name)) return name;
  return `partials/${name}.jsont`;
}

export function diagnosticFrame(site: LoadedSite | null, d: Diagnostic, sources = new FrameSources(site?.dir ?? '.', site), siblings: readonly Diagnostic[] = []): Frame {
  const source = sources.diagnostic(d.source);
  const file = sourceFile(site, d.source);
  const shown = file === d.source ? d : { ...d, source: file };
  let frame = source === null ? `${d.kind} ${d.code}: ${d.message}\n  at ${file}:${d.line}:${d.column}` : codeFrame(shown, source);
  // An unclosed block is reported at the end of the file, a frame of its last (often empty)
  // lines: the line that opened the block is shown too, which is where the author looks.
  const opened = d.code === 'EOF_IN_BLOCK' ? / started at line (\d+) char (\d+)$/.exec(d.message) : null;
  if (opened && source !== null && Number(opened[1]) < d.line) {
    const at = { ...shown, line: Number(opened[1]), column: Number(opened[2]) };
    frame += `\n  the block opened at line ${at.line}:\n` + codeFrame(at, source, 0).split('\n').slice(2).join('\n');
  }
  const hint = refusedOpenerHint(d, siblings) ?? diagnosticHint(site, d);
  if (hint !== null) frame += `\n  hint: ${hint}`;
  const children = (d.children ?? []).map((child) => diagnosticFrame(site, child, sources).text);
  return { code: d.code, where: `${file}:${d.line}:${d.column}`, text: [frame, ...children].join('\n\n') };
}

/**
 * Frames of a template's own diagnostics, with the hints and child errors a site's get: the
 * text is framed as given (`quire check FILE` has read it already).
 */
export function templateFrames(template: Template, diagnostics: readonly Diagnostic[] = template.diagnostics): Frame[] {
  const sources = new FrameSources('.');
  sources.add(template.source);
  return diagnostics.map((d) => diagnosticFrame(null, d, sources, diagnostics));
}

/** Load problems of a file that does not parse: framed as syntax errors. */
const SYNTAX_CODES = new Set(['SITE_JSON_INVALID', 'TEMPLATE_SYNTAX']);

type Problem = Omit<SiteProblem, 'code'> & { code: string; severity?: 'error' | 'warning' };

/**
 * A site-load problem (bad JSON, bad content file, template syntax) framed against the
 * file it names, read from the folder: the engine's one frame printer, fed a diagnostic
 * of the problem's position. Frames of many problems share `sources` (`problemFrames`).
 */
export function problemFrame(dir: string, problem: Problem, sources = new FrameSources(dir)): Frame {
  const where = `${problem.file}:${problem.line}:${problem.column}`;
  const source = sources.file(problem.file);
  const warning = problem.severity === 'warning' ? { warning: true as const } : {};
  if (source === null) return { code: problem.code, where, text: `${problem.code}: ${problem.message}\n  at ${where}`, ...warning };
  const pseudo = {
    // A schema finding of a data file (site/validate-site-files.ts) says Warning or Error; a
    // load problem is a syntax error when the file does not parse, else an error (an id given
    // twice, a limit, a bad content file).
    kind: problem.severity === 'warning' ? 'Warning' : problem.severity === 'error' || !SYNTAX_CODES.has(problem.code) ? 'Error' : 'SyntaxError',
    code: problem.code,
    message: problem.message,
    line: problem.line,
    column: problem.column,
    source: problem.file,
  } as unknown as Diagnostic;
  return { code: problem.code, where, text: codeFrame(pseudo, source), ...warning };
}

/** `problemFrame` of each problem, every file read once. */
export function problemFrames(dir: string, problems: readonly Problem[]): Frame[] {
  const sources = new FrameSources(dir);
  const syntax = new SyntaxErrors(null, sources);
  return problems.map((problem) => syntax.frame(problem) ?? problemFrame(dir, problem, sources));
}

/**
 * The engine's own diagnostics of a site template or partial file. Partials go through the
 * site loader's `compileCached` (the renderer engine, with `image-component`), so the frame
 * is the loader's error and not an "unknown formatter" of the default engine; the loader
 * compiled the same text under the same name, so this is a cache hit.
 */
function fileDiagnostics(site: LoadedSite, file: string, sources: FrameSources): readonly Diagnostic[] {
  for (const template of site.templates.values()) if (template.file === file) return template.template.diagnostics;
  const source = sources.diagnostic(file);
  return source === null ? [] : compileCached(file, source.text).template.diagnostics;
}

/**
 * The problems a site was loaded with (syntax errors kept by `allowTemplateErrors`): each
 * template syntax error as the engine reports it, with its own wording and frame.
 */
export function siteProblemFrames(site: LoadedSite): Frame[] {
  const sources = new FrameSources(site.dir, site);
  const syntax = new SyntaxErrors(site, sources);
  return site.problems.map((problem) => syntax.frame(problem) ?? problemFrame(site.dir, problem, sources));
}

/**
 * A TEMPLATE_SYNTAX load problem framed as the engine diagnostic it stands for (its own code,
 * words and hint), whether the folder loaded or not: a folder refused for a bad JSON file
 * showed its template errors as `SyntaxError TEMPLATE_SYNTAX: EOF_IN_BLOCK: …`, without the
 * hint the same error had once the JSON was fixed. Each file's diagnostics are found once.
 */
class SyntaxErrors {
  private readonly byFile = new Map<string, Map<string, Diagnostic>>();

  constructor(
    private readonly site: LoadedSite | null,
    private readonly sources: FrameSources,
  ) {}

  frame(problem: Problem): Frame | null {
    if (problem.code !== 'TEMPLATE_SYNTAX') return null;
    let at = this.byFile.get(problem.file);
    if (at === undefined) {
      at = new Map();
      for (const c of this.diagnostics(problem.file)) if (!at.has(`${c.line}:${c.column}`)) at.set(`${c.line}:${c.column}`, c);
      this.byFile.set(problem.file, at);
    }
    const d = at.get(`${problem.line}:${problem.column}`);
    return d ? diagnosticFrame(this.site, d, this.sources, this.diagnostics(problem.file)) : null;
  }

  private diagnostics(file: string): readonly Diagnostic[] {
    if (this.site !== null) return fileDiagnostics(this.site, file, this.sources);
    // The loader compiled the same text under the same name: a cache hit.
    const source = this.sources.file(file);
    return source === null ? [] : compileCached(file, source.text).template.diagnostics;
  }
}

/**
 * A render's COMPILE_PARTIAL_SYNTAX whose every child is a syntax error of the partial already
 * shown as a kept problem: the overlay listed the partial's errors twice (4 problems on a page
 * where \`quire check\` and the terminal said 2). The kept frames name the partial's file.
 */
export function repeatsKeptErrors(d: Diagnostic, shown: ReadonlySet<string>): boolean {
  if (d.code !== 'COMPILE_PARTIAL_SYNTAX' || !d.children?.length) return false;
  return d.children.every((c) => shown.has(`${c.source}:${c.line}:${c.column}`) || shown.has(`partials/${c.source}.jsont:${c.line}:${c.column}`));
}

export function framesText(frames: readonly Frame[]): string {
  return frames.map((frame) => frame.text).join('\n\n');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Frames the overlay shows; it counts the rest and points to the tools that print them all.
 * 15,000 frames made every preview page ~5 MB larger.
 */
export const OVERLAY_FRAMES = 100;

/**
 * The preview's error overlay: fixed on top of the page, dismissable, readable without CSS of
 * the site. A limit's diagnostic (`LIMIT_*`) comes first: it says why the page stops where it
 * does, and the engine writes it after the errors it kept, so past the first 100 it was hidden.
 */
/**
 * What a list of frames holds, counted as the author reads it: `1 error, 2 warnings`. The overlay
 * titled them all "Problems" (`Problems in the site (3)` for one error and two warnings), so a
 * page that worked looked broken and the warnings read as errors to fix first.
 */
export function problemCount(frames: readonly Frame[]): string {
  let warnings = 0;
  for (const frame of frames) if (frame.warning) warnings++;
  const errors = frames.length - warnings;
  const parts: string[] = [];
  if (errors > 0) parts.push(`${errors} ${errors === 1 ? 'error' : 'errors'}`);
  if (warnings > 0) parts.push(`${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`);
  return parts.join(', ');
}

/** The overlay: `title` is its heading and accessible name, which says what it holds (problemCount). */
export function overlayHtml(title: string, frames: readonly Frame[], note?: string): string {
  const shown = [...frames.filter((frame) => frame.code.startsWith('LIMIT_')), ...frames.filter((frame) => !frame.code.startsWith('LIMIT_'))];
  let items = '';
  for (const frame of shown.slice(0, OVERLAY_FRAMES)) items += `<li><pre style="margin:0 0 12px;white-space:pre-wrap">${escapeHtml(frame.text)}</pre></li>`;
  const more = frames.length - OVERLAY_FRAMES;
  // `quire check` does not render pages: this page's own problems are `render-page`'s.
  if (more > 0) {
    items += `<li><p style="margin:0">${more} more not shown here: <code>quire render-page SITE_DIR /path</code> prints every one of this page, <code>quire check</code> every one of the folder's files.</p></li>`;
  }
  return (
    `<div id="quire-preview-overlay" role="alertdialog" aria-modal="true" aria-label="${escapeHtml(title)}" tabindex="-1" ` +
    `style="position:fixed;inset:0;z-index:2147483647;overflow:auto;background:rgba(24,24,27,.97);color:#fafafa;` +
    `font:13px/1.5 ui-monospace,Menlo,Consolas,monospace;padding:24px;outline:none">` +
    `<button type="button" style="float:right;font:inherit">Close</button>` +
    `<h2 style="margin:0 0 16px;color:#fca5a5;font-size:16px">${escapeHtml(title)}</h2>` +
    (note === undefined ? '' : `<p style="margin:0 0 16px">${escapeHtml(note)}</p>`) +
    `<ol style="margin:0;padding-left:20px">${items}</ol></div>` +
    `<script>${OVERLAY_SCRIPT}</script>`
  );
}

/**
 * The overlay as a modal dialog: it covers the page, so the page under it is made inert (and
 * what the site's scripts add later, such as a pop-up that would take focus), and focus goes to
 * the overlay when the page loads, so after a live reload a screen reader reads the problems and
 * the arrow keys scroll them; Escape or Close removes it and gives the page back. Before, focus
 * stayed on the page behind it: Tab walked links no one could see.
 */
const OVERLAY_SCRIPT =
  "(function(){var o=document.getElementById('quire-preview-overlay');if(!o)return;var held=[];" +
  "function hold(n){if(n!==o&&n.nodeType===1&&n.tagName!=='SCRIPT'&&!n.inert){n.inert=true;held.push(n);}}" +
  'Array.prototype.forEach.call(document.body.children,hold);' +
  'var watch=new MutationObserver(function(records){records.forEach(function(r){r.addedNodes.forEach(hold);});});' +
  'watch.observe(document.body,{childList:true});' +
  "function close(){watch.disconnect();document.removeEventListener('keydown',key,true);o.remove();held.forEach(function(n){n.inert=false;});}" +
  "function key(e){if(e.key==='Escape'){e.preventDefault();close();}}" +
  "document.addEventListener('keydown',key,true);o.querySelector('button').addEventListener('click',close);o.focus();})();";

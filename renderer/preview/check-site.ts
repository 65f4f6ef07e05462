import fs from 'node:fs/promises';
import path from 'node:path';
import { codeFrame, DEFAULT_LIMITS, Source, type Diagnostic, type Template } from '../../engine/index.ts';
import { renderBlock } from '../pages/blocks.ts';
import { indexImages, SITE_IMAGES_PREFIX } from '../pages/site-images.ts';
import { siteTemplateNames } from '../pages/route-resolver.ts';
import { TEMPLATE_MISSING_CODE, templateFallbacks } from '../pages/template-fallbacks.ts';
import { rendererEngine } from '../platform/renderer-engine.ts';
import { BUILTIN_PARTIALS, BUILTIN_TEMPLATES } from '../site/builtin-templates.ts';
import { jsonSpans, jsonSyntaxError, spanAt } from '../site/json-positions.ts';
import { loadSite, SiteLoadError } from '../site/load-site.ts';
import { NotUtf8Error, utf8Text } from '../site/read-texts.ts';
import { didYouMean, validateSiteFiles, validateSiteText } from '../site/validate-site-files.ts';
import type { Block, LoadedSite } from '../site/site-types.ts';
import { missingPartialHint, problemFrames, siteProblemFrames, templateFrames, type Frame } from './diagnostic-frames.ts';
import { evalOperandFrames } from './eval-operands.ts';
import { ignoredArgumentFrames } from './ignored-arguments.ts';
import { scriptVariableFrames } from './script-variables.ts';

// `quire check SITE_DIR|DIR|FILE...`: what an author (or CI) gates on. A site folder is read
// by the same loader `npm start` and the preview use (JSON, content files, the catalogue,
// template and partial syntax, with the renderer's engine so `image-component` is known),
// and every `apply` / `.include` must name a partial of the site or a macro of its file, and
// every `.eval` must parse (the engine reports that only when a render reaches it) and have
// its operands (eval-operands.ts); a
// variable written into a <script> or <style> unescaped is a warning (script-variables.ts).
// Paths that cannot be read are reported in one line each and make the exit code 2.

export interface CheckResult {
  /** 0: no problems (warnings alone pass); 1: problems found; 2: a path is missing or unreadable. */
  exitCode: 0 | 1 | 2;
  /** One line per path that could not be checked (`PATH: no such file or folder`). */
  pathErrors: string[];
  frames: Frame[];
  /** Templates and partials compiled, content and JSON files read. */
  checked: { templates: number; sites: number; dataFiles: number };
}

const TEMPLATE_EXT = /\.(jsont|html)$/;

/**
 * A folder is a site folder when it holds any of the files `loadSite` reads. `partials/`,
 * `styles.css`, `styles/` or `images/` alone make one too (a site of Quire's built-in templates
 * with its own `partials/head.jsont`, which `npm start` serves), unless the folder holds
 * templates of its own: a loose folder of templates beside their partials is checked as such.
 * Such a site was refused with "no templates … and no site files in this folder", exit 2.
 */
async function isSiteFolder(dir: string): Promise<boolean> {
  for (const name of ['site.json', 'catalog.json', 'content', 'templates']) {
    if (await fs.stat(path.join(dir, name)).catch(() => null)) return true;
  }
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.some((name) => ['partials', 'styles.css', 'styles', 'images'].includes(name)) && !names.some((name) => TEMPLATE_EXT.test(name));
}

/**
 * A file's text as the site loader and `quire render` read it: strict UTF-8 (the first bad
 * byte is an error, NotUtf8Error), a byte-order mark left out. Read leniently, a Latin-1
 * template passed with 0 problems, and a BOM moved every column of its first line by one.
 */
async function readUtf8(file: string): Promise<string> {
  const text = utf8Text(await fs.readFile(file));
  if (text instanceof NotUtf8Error) throw text;
  return text;
}

/**
 * A file of a loaded site as the loader read it, to place a finding in: a byte-order mark left
 * out (framed, it is not a column of line 1), else null. Read with it, every finding on the
 * first line of a one-line content file (a `"template"`, a block, a picture) was a column late.
 */
async function siteText(dir: string, file: string): Promise<string | null> {
  const text = await fs.readFile(path.join(dir, file), 'utf8').catch(() => null);
  return text !== null && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function pathError(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${file}: no such file or folder`;
  if (code === 'ENOTDIR') return `${file}: a part of the path is not a folder`;
  if (code === 'EACCES' || code === 'EPERM') return `${file}: permission denied`;
  if (error instanceof NotUtf8Error) return `${file}: ${error.message}`;
  return `${file}: cannot be read (${code ?? (error as Error).message})`;
}

// The few syntax-tree fields this walk reads (the renderer sees the engine only through
// engine/index.ts, which does not export the node types).
interface Inst {
  kind: string;
  name?: string;
  span: { start: number };
  formatters?: readonly { name: string; args: readonly string[]; span: { start: number } }[];
  body?: Inst[];
  alternates?: { body: Inst[] } | null;
  alt?: OrNode | null;
}
interface OrNode {
  body: Inst[];
  alt: OrNode | null;
}

/** `apply NAME` and `.include NAME` calls of a template, with the macros it defines. */
/** An `apply` or `.include` of a template, with the code its render reports when the name is missing. */
interface PartialCall {
  name: string;
  start: number;
  code: 'APPLY_PARTIAL_MISSING' | 'INCLUDE_PARTIAL_MISSING';
}

function partialCalls(body: readonly Inst[], calls: PartialCall[], macros: Set<string>): void {
  const walkOr = (alt: OrNode | null) => {
    for (let or = alt; or; or = or.alt) partialCalls(or.body, calls, macros);
  };
  for (const inst of body) {
    switch (inst.kind) {
      case 'variable':
      case 'bindvar':
        // At the instruction, where a render reports it (the engine's position), not at `apply`.
        for (const call of inst.formatters ?? []) if (call.name === 'apply' && call.args[0]) calls.push({ name: call.args[0], start: inst.span.start, code: 'APPLY_PARTIAL_MISSING' });
        break;
      case 'include':
        calls.push({ name: inst.name!, start: inst.span.start, code: 'INCLUDE_PARTIAL_MISSING' });
        break;
      case 'macro':
        macros.add(inst.name!);
        partialCalls(inst.body!, calls, macros);
        break;
      case 'section':
      case 'predicate':
      case 'if':
        partialCalls(inst.body!, calls, macros);
        walkOr(inst.alt ?? null);
        break;
      case 'repeated':
        partialCalls(inst.body!, calls, macros);
        if (inst.alternates) partialCalls(inst.alternates.body, calls, macros);
        walkOr(inst.alt ?? null);
        break;
      default:
        break;
    }
  }
}

/** Frames for every `apply` / `.include` that names neither a partial of the site nor a macro of the file. */
function missingPartialFrames(template: Template, file: string, partials: Readonly<Record<string, string>>): Frame[] {
  if (!template.ast) return [];
  const calls: PartialCall[] = [];
  const macros = new Set<string>();
  partialCalls((template.ast as unknown as { body: Inst[] }).body, calls, macros);
  const source = new Source(template.source.text, file);
  const frames: Frame[] = [];
  for (const call of calls) {
    if (macros.has(call.name) || Object.hasOwn(partials, call.name)) continue;
    const { line, column } = source.position(call.start);
    // The words, place and hint the preview's overlay shows when a page renders the call
    // (diagnostic-frames.ts): the author meets one message for one mistake, wherever it is seen.
    const verb = call.code === 'APPLY_PARTIAL_MISSING' ? 'apply' : 'include';
    const message = `Attempt to ${verb} partial '${call.name}' which could not be found.`;
    const d = { kind: 'RuntimeError', code: call.code, message, line, column, source: file } as unknown as Diagnostic;
    frames.push({ code: d.code, where: `${file}:${line}:${column}`, text: `${codeFrame(d, source)}\n  hint: ${missingPartialHint(call.name, partials)}` });
  }
  return frames;
}

/**
 * The partials a partial's file calls on every render: `apply` and `.include` at its top level
 * (not inside a block, which may not run, nor a macro), and not naming one of its macros.
 */
function unconditionalCalls(template: Template, partials: Readonly<Record<string, string>>): { name: string; start: number }[] {
  if (!template.ast) return [];
  const body = (template.ast as unknown as { body: Inst[] }).body;
  const macros = new Set(body.filter((inst) => inst.kind === 'macro').map((inst) => inst.name!));
  const calls: { name: string; start: number }[] = [];
  for (const inst of body) {
    const names: { name: string; start: number }[] = [];
    if (inst.kind === 'include') names.push({ name: inst.name!, start: inst.span.start });
    // A variable's formatters run even when its value is missing (LANGUAGE §0.4).
    if (inst.kind === 'variable' || inst.kind === 'bindvar') {
      for (const call of inst.formatters ?? []) if (call.name === 'apply' && call.args[0]) names.push({ name: call.args[0], start: inst.span.start });
    }
    for (const call of names) if (!macros.has(call.name) && Object.hasOwn(partials, call.name)) calls.push(call);
  }
  return calls;
}

/**
 * A partial that reaches itself through calls made on every render (`{.include loop}` in
 * partials/loop.jsont, or a → b → a): every page using it stops at the depth limit with
 * APPLY_PARTIAL_RECURSION_DEPTH, which no syntax check saw. Once per cycle, at the call in
 * the first of its files (by name) that starts it; recursion under a section (a tree of
 * categories) ends with the data and is not reported.
 */
function recursionFrames(site: LoadedSite, siteFiles: ReadonlyMap<string, Template>): Frame[] {
  const edges = new Map<string, { name: string; start: number }[]>();
  for (const name of Object.keys(site.partials).sort()) {
    const template = siteFiles.get(`partials/${name}.jsont`);
    if (template) edges.set(name, unconditionalCalls(template, site.partials));
  }
  const reported = new Set<string>();
  const frames: Frame[] = [];
  for (const start of edges.keys()) {
    if (reported.has(start)) continue;
    // Breadth-first from `start`, keeping how each partial was reached.
    const via = new Map<string, string>();
    const queue = [start];
    let closing: string | null = null;
    while (queue.length && closing === null) {
      const from = queue.shift()!;
      for (const call of edges.get(from) ?? []) {
        if (call.name === start) {
          closing = from;
          break;
        }
        if (!via.has(call.name)) {
          via.set(call.name, from);
          queue.push(call.name);
        }
      }
    }
    if (closing === null) continue;
    const cycle = [start];
    for (let at = closing; at !== start; at = via.get(at)!) cycle.splice(1, 0, at);
    for (const member of cycle) reported.add(member);
    const call = edges.get(start)!.find((c) => c.name === (cycle[1] ?? start))!;
    const file = `partials/${start}.jsont`;
    const source = siteFiles.get(file)!.source;
    const { line, column } = source.position(call.start);
    // The engine's words (what each page using it reports) at the engine's place, and the cycle in the hint.
    const message = `Recursion through partial ${cycle[1] ?? start} exceeded maximum depth of ${DEFAULT_LIMITS.maxPartialDepth}`;
    const hint = `partial '${start}' calls itself on every render (${[...cycle, start].join(' -> ')}): put the call inside a {.section} or {.if} that ends`;
    const d = { kind: 'RuntimeError', code: 'APPLY_PARTIAL_RECURSION_DEPTH', message, line, column, source: file } as unknown as Diagnostic;
    frames.push({ code: 'APPLY_PARTIAL_RECURSION_DEPTH', where: `${file}:${line}:${column}`, text: `${codeFrame(d, source)}\n  hint: ${hint}` });
  }
  return frames;
}

/** Frames are relative to the site folder; the terminal shows them relative to where the author typed. */
/** A data file given on its own: not JSON at its position, else its schema findings. */
function checkDataFile(given: string, text: string): Frame[] {
  const name = path.basename(given);
  const role = name === 'site.json' || name === 'catalog.json' ? name : `content/${name}`;
  let findings: { code: string; file: string; line: number; column: number; message: string; severity?: 'error' | 'warning' }[];
  try {
    JSON.parse(text);
    findings = validateSiteText(role, text).map((d) => ({ ...d, file: name }));
  } catch {
    const { line, column, message } = jsonSyntaxError(text);
    findings = [{ code: 'SITE_JSON_INVALID', file: name, line, column, message }];
  }
  return relocate(problemFrames(path.dirname(given), findings), path.dirname(given));
}

/** Frames named relative to a site folder, renamed relative to where the author typed the command (`prefix`: the folder as given). */
export function relocate(frames: Frame[], prefix: string): Frame[] {
  if (prefix === '' || prefix === '.') return frames;
  return frames.map((frame) => {
    const where = frame.where.startsWith('/') ? frame.where : path.join(prefix, frame.where);
    return { ...frame, where, text: frame.text.replace(`  at ${frame.where}`, `  at ${where}`) };
  });
}

/**
 * The content problems a page would report when it renders (renderer/pages/blocks.ts): a
 * block type the renderer does not know, a form or product block naming nothing in the
 * catalogue. Unknown types are asked of `renderBlock` itself, so this check never lags the
 * renderer. Framed at the first place the offending value is written in the file.
 */
/** A template a page names itself (`"template"`) that neither the folder nor the renderer has: the page renders with another, silently. */
export async function templateNameFrames(site: LoadedSite): Promise<Frame[]> {
  const frames: Frame[] = [];
  const known = (name: string) => site.templates.has(name) || Object.hasOwn(BUILTIN_TEMPLATES, name);
  for (const entry of site.entries) {
    if (entry.template === null || known(entry.template) || known(`${entry.template}.item`)) continue;
    const text = (await siteText(site.dir, entry.file)) ?? '';
    const source = new Source(text, entry.file);
    // At the top-level key: the first `"template"` of the text may be a title or a block's.
    const at = jsonSpans(text)?.members?.get('template')?.keyOffset ?? text.indexOf('"template"');
    const { line, column } = at < 0 ? { line: 1, column: 1 } : source.position(at);
    // The nearest template the folder or the renderer has, for a slip (`landng`).
    const near = didYouMean(entry.template, [...new Set([...site.templates.keys(), ...Object.keys(BUILTIN_TEMPLATES)])], true);
    const message = `template "${entry.template}" is not in templates/${near ? ` (did you mean "${near}"?)` : ''}: the page renders with the template its page type gets by default`;
    const d = { kind: 'Warning', code: 'SITE_CONTENT', message, line, column, source: entry.file } as unknown as Diagnostic;
    frames.push({ code: 'SITE_CONTENT', where: `${entry.file}:${line}:${column}`, text: codeFrame(d, source), warning: true });
  }
  return frames;
}

/**
 * A file of `templates/` that no page is rendered with: `page.jsont` renamed `pages.jsont`
 * (or a type's template deleted and another name saved), the pages then render with Quire's
 * built-in template of their type and nothing said why. A warning, at the file's first line,
 * with the nearest name a page would use.
 */
export async function unusedTemplateFrames(site: LoadedSite, named: ReadonlySet<string> = new Set()): Promise<Frame[]> {
  const used = siteTemplateNames(site);
  const frames: Frame[] = [];
  for (const [name, compiled] of site.templates) {
    // A file a missing page template's warning already offers (`Page.jsont`): one mistake, one warning.
    if (used.has(name) || named.has(compiled.file)) continue;
    const near = didYouMean(name, [...used], true);
    const instead = near ? ` (did you mean ${near}.jsont?${site.templates.has(near) ? '' : ` Without it, those pages render with Quire's built-in ${near} template`})` : '';
    const message = `no page is rendered with ${compiled.file}${instead}: a page uses the template of its type (page, cover, blog.list, products.item …) or the "template" its content file names`;
    const d = { kind: 'Warning', code: 'SITE_CONTENT', message, line: 1, column: 1, source: compiled.file } as unknown as Diagnostic;
    frames.push({ code: 'SITE_CONTENT', where: `${compiled.file}:1:1`, text: codeFrame(d, compiled.template.source), warning: true });
  }
  return frames;
}

/**
 * `templates/page.jsont` gone while pages render with it (pages/template-fallbacks.ts): a
 * warning at the missing file's path, naming the pages and a file close to it (`Page.jsont`).
 */
export async function missingTemplateFrames(site: LoadedSite): Promise<{ frames: Frame[]; named: Set<string> }> {
  const frames: Frame[] = [];
  const named = new Set<string>();
  for (const fallback of await templateFallbacks(site)) {
    if (fallback.near) named.add(fallback.near);
    const text = `Warning ${TEMPLATE_MISSING_CODE}: ${fallback.message}\n  at ${fallback.file}`;
    frames.push({ code: TEMPLATE_MISSING_CODE, where: fallback.file, text, warning: true });
  }
  return { frames, named };
}

/**
 * The warnings about which templates the site's pages render with, as `quire check`, the
 * preview (overlay and terminal) and render-page show them: a `"template"` that is not in
 * `templates/`, `page.jsont` missing, a file of `templates/` no page uses.
 */
export async function siteTemplateFrames(site: LoadedSite): Promise<Frame[]> {
  const missing = await missingTemplateFrames(site);
  return [...(await templateNameFrames(site)), ...missing.frames, ...(await unusedTemplateFrames(site, missing.named))];
}

/** A picture of the site folder as pages name it: `/assets/site/images/NAME` (pages/site-images.ts). */
const SITE_IMAGE_URL = new RegExp(`${SITE_IMAGES_PREFIX.replaceAll('/', '\\/')}([A-Za-z0-9._~%-]+)`, 'g');

/**
 * Every `/assets/site/images/NAME` written in the folder's data files, templates, partials and
 * stylesheets that `images/` cannot answer (no `NAME` and no `-<width>w` variant of it): the
 * page showed a broken picture and nothing said so. A name built by the template
 * (`…/images/{slug}.webp`) is not checked.
 */
async function missingImageFrames(site: LoadedSite): Promise<Frame[]> {
  const names = await fs.readdir(path.join(site.dir, 'images')).catch(() => [] as string[]);
  const stored = indexImages(path.join(site.dir, 'images'), names);
  const files = ['site.json', 'catalog.json', 'styles.css'];
  for (const folder of ['content', 'templates', 'partials', 'styles']) {
    const entries = await fs.readdir(path.join(site.dir, folder)).catch(() => [] as string[]);
    for (const name of entries.sort()) if (/\.(json|jsont|css)$/.test(name)) files.push(`${folder}/${name}`);
  }
  const frames: Frame[] = [];
  for (const file of files) {
    const text = await siteText(site.dir, file);
    if (text === null || !text.includes(SITE_IMAGES_PREFIX)) continue;
    let source: Source | null = null;
    for (const match of text.matchAll(SITE_IMAGE_URL)) {
      const name = decodeURIComponentSafe(match[1]!);
      const end = match.index + match[0].length;
      if (stored.has(name) || text[end] === '{') continue;
      source ??= new Source(text, file);
      const { line, column } = source.position(match.index);
      const message = `${match[0]}: no images/${name} (or a width variant such as images/${name.replace(/(\.[A-Za-z]+)?$/, '-500w$1')}) in the site folder; the page shows a broken picture`;
      const d = { kind: 'Warning', code: 'SITE_IMAGE_MISSING', message, line, column, source: file } as unknown as Diagnostic;
      frames.push({ code: 'SITE_IMAGE_MISSING', where: `${file}:${line}:${column}`, text: codeFrame(d, source), warning: true });
    }
  }
  return frames;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

async function blockFrames(site: LoadedSite): Promise<Frame[]> {
  const frames: Frame[] = [];
  const formIds = new Set((site.catalog?.forms ?? []).map((form) => form.id));
  const productIds = new Set((site.catalog?.products ?? []).map((product) => product.id));
  for (const entry of site.entries) {
    // Each block with its JSON pointer: a loaded site kept every block and item of the file (one
    // that is not an object refused the folder), so the n-th is the file's n-th.
    const blocks: { block: Block; pointer: string }[] = [
      ...entry.blocks.map((block, i) => ({ block, pointer: `/blocks/${i}` })),
      ...entry.items.flatMap((item, j) => item.blocks.map((block, i) => ({ block, pointer: `/items/${j}/blocks/${i}` }))),
    ];
    if (blocks.length === 0) continue;
    const text = (await siteText(site.dir, entry.file)) ?? '';
    const source = new Source(text, entry.file);
    const spans = jsonSpans(text);
    for (const { block, pointer } of blocks) {
      let message: string | null = null;
      let key = 'type';
      if (block.type === 'form' || block.type === 'newsletter') {
        const id = typeof block.formId === 'string' ? block.formId : '';
        if (!formIds.has(id)) [message, key] = [`${block.type} block: no form "${id}" in catalog.json`, 'formId'];
      } else if (block.type === 'product') {
        const id = typeof block.productId === 'string' ? block.productId : '';
        if (!productIds.has(id)) [message, key] = [`product block: no product "${id}" in catalog.json`, 'productId'];
      } else {
        const reports: string[] = [];
        renderBlock(block, { forms: new Map(), productBlock: () => '', accountHtml: '', contentSource: 'c', report: (m) => reports.push(m) });
        message = reports[0] ?? null;
      }
      if (message === null) continue;
      // At the block's own value (the block when the id is missing): the first `"nope"` of the
      // text was the place, a title or another page's block as often as this one.
      const at = spans ? spanAt(spans, `${pointer}/${key}`).offset : 0;
      const { line, column } = source.position(at);
      const d = { kind: 'RuntimeError', code: 'SITE_CONTENT', message, line, column, source: entry.file } as unknown as Diagnostic;
      frames.push({ code: 'SITE_CONTENT', where: `${entry.file}:${line}:${column}`, text: codeFrame(d, source) });
    }
  }
  return frames;
}

async function checkSite(dir: string): Promise<{ frames: Frame[]; templates: number }> {
  let site: LoadedSite;
  try {
    site = await loadSite(dir, { allowTemplateErrors: true });
  } catch (error) {
    if (!(error instanceof SiteLoadError)) throw error;
    // Every problem in one run: the schema findings (wrong types, unknown keys) of the data
    // files the loader had nothing to say about, which went unsaid until the problems that
    // refused the folder were fixed. A file the loader did report is left to its words: it
    // checks the same rules there, worded for the case (a misspelt "price").
    const frames = problemFrames(dir, error.problems);
    const reported = new Set(error.problems.map((problem) => problem.file));
    for (const frame of problemFrames(dir, (await validateSiteFiles(dir)).filter((d) => !reported.has(d.file)))) frames.push(frame);
    return { frames: relocate(frames, dir), templates: 0 };
  }
  const frames = siteProblemFrames(site);
  const siteFiles = new Map<string, Template>();
  for (const compiled of site.templates.values()) siteFiles.set(compiled.file, compiled.template);
  for (const name of Object.keys(site.partials)) {
    const file = `partials/${name}.jsont`;
    // The renderer's own partials are checked by its tests; the author's are read from disk.
    const text = await readUtf8(path.join(site.dir, file)).catch(() => null);
    if (text !== null) siteFiles.set(file, rendererEngine().compile(text, { name: file }));
  }
  // Frames are pushed one by one throughout: a spread of 150,000 overflows the call stack.
  for (const [file, template] of siteFiles) {
    for (const frame of templateFrames(template, template.expressionDiagnostics())) frames.push(frame);
    for (const frame of evalOperandFrames(template, file)) frames.push(frame);
    for (const frame of missingPartialFrames(template, file, site.partials)) frames.push(frame);
    for (const frame of scriptVariableFrames(template, file)) frames.push(frame);
    for (const frame of ignoredArgumentFrames(template, file)) frames.push(frame);
  }
  for (const frame of recursionFrames(site, siteFiles)) frames.push(frame);
  for (const frame of await blockFrames(site)) frames.push(frame);
  for (const frame of await siteTemplateFrames(site)) frames.push(frame);
  for (const frame of await missingImageFrames(site)) frames.push(frame);
  // site.json, catalog.json and content files against the published schemas (unknown keys
  // with a "did you mean", wrong types): site/validate-site-files.ts.
  for (const frame of problemFrames(dir, await validateSiteFiles(dir))) frames.push(frame);
  return { frames: relocate(frames, dir), templates: siteFiles.size };
}

function checkTemplate(file: string, text: string, partials: Readonly<Record<string, string>> | null): Frame[] {
  const template = rendererEngine().compile(text, { name: file });
  // Framed as a site's templates are, with the same hints (`did you mean 'html'?`).
  const frames = templateFrames(template, [...template.diagnostics, ...template.expressionDiagnostics()]);
  frames.push(...evalOperandFrames(template, file));
  if (partials) frames.push(...missingPartialFrames(template, file, partials));
  frames.push(...scriptVariableFrames(template, file));
  frames.push(...ignoredArgumentFrames(template, file));
  return frames;
}

/** The partials a loose folder of templates can apply: the renderer's own and its sibling `partials/` (a site's layout). */
async function siblingPartials(dir: string): Promise<Record<string, string> | null> {
  const partialsDir = path.basename(path.resolve(dir)) === 'partials' ? dir : path.join(dir, '..', 'partials');
  const names = await fs.readdir(partialsDir).catch(() => null);
  if (!names) return null;
  const out: Record<string, string> = { ...BUILTIN_PARTIALS };
  for (const name of names) {
    if (!name.endsWith('.jsont')) continue;
    const text = await readUtf8(path.join(partialsDir, name)).catch(() => null);
    if (text !== null) out[name.slice(0, -'.jsont'.length)] = text;
  }
  return out;
}

export async function checkPaths(paths: readonly string[]): Promise<CheckResult> {
  const pathErrors: string[] = [];
  const frames: Frame[] = [];
  const checked = { templates: 0, sites: 0, dataFiles: 0 };
  for (const given of paths) {
    const stat = await fs.stat(given).catch((error: unknown) => error as Error);
    if (stat instanceof Error) {
      pathErrors.push(pathError(given, stat));
      continue;
    }
    if (stat.isDirectory()) {
      if (await isSiteFolder(given)) {
        const site = await checkSite(given);
        for (const frame of site.frames) frames.push(frame);
        checked.templates += site.templates;
        checked.sites++;
        continue;
      }
      let names: string[];
      try {
        names = (await fs.readdir(given)).filter((name) => TEMPLATE_EXT.test(name)).sort();
      } catch (error) {
        pathErrors.push(pathError(given, error));
        continue;
      }
      if (names.length === 0) {
        pathErrors.push(`${given}: no templates (*.jsont, *.html) and no site files in this folder`);
        continue;
      }
      const partials = await siblingPartials(given);
      for (const name of names) {
        const file = path.join(given, name);
        try {
          for (const frame of checkTemplate(file, await readUtf8(file), partials)) frames.push(frame);
          checked.templates++;
        } catch (error) {
          pathErrors.push(pathError(file, error));
        }
      }
      continue;
    }
    if (given.endsWith('.json')) {
      // A data file on its own: its JSON, then its schema (site.json, catalog.json, else a content file).
      try {
        for (const frame of checkDataFile(given, await readUtf8(given))) frames.push(frame);
        checked.dataFiles++;
      } catch (error) {
        pathErrors.push(pathError(given, error));
      }
      continue;
    }
    if (!TEMPLATE_EXT.test(given)) {
      // A stylesheet or a picture compiled as a template passed as one.
      pathErrors.push(`${given}: not a template (*.jsont, *.html) or a site data file (*.json)`);
      continue;
    }
    try {
      for (const frame of checkTemplate(given, await readUtf8(given), null)) frames.push(frame);
      checked.templates++;
    } catch (error) {
      pathErrors.push(pathError(given, error));
    }
  }
  const problems = frames.filter((frame) => !frame.warning).length;
  return { exitCode: pathErrors.length ? 2 : problems ? 1 : 0, pathErrors, frames, checked };
}

/** One problem of `quire check --json`. */
export interface CheckProblem {
  code: string;
  severity: 'error' | 'warning';
  /** As the author gave the path: relative to where `quire check` ran, or absolute. */
  file: string;
  line: number;
  column: number;
  message: string;
  /** What to do, when the frame says (`did you mean 'html'?`). */
  hint?: string;
  /** The code frame the terminal prints. */
  frame: string;
}

/**
 * `quire check --json`: the result as one object for CI and editors, its shape fixed by
 * `version` (fields are only ever added). Built from the frames the terminal prints, so both
 * list the same problems in the same order.
 */
export function checkReport(result: CheckResult): { version: 1; exitCode: 0 | 1 | 2; checked: CheckResult['checked']; pathErrors: string[]; problems: CheckProblem[] } {
  const problems = result.frames.map((frame): CheckProblem => {
    const at = /^(.*):(\d+):(\d+)$/.exec(frame.where);
    const first = frame.text.split('\n', 1)[0]!;
    const words = first.indexOf(`${frame.code}: `);
    const hint = /\n {2}hint: (.*)$/.exec(frame.text.split('\n\n', 1)[0]!)?.[1];
    return {
      code: frame.code,
      severity: frame.warning ? 'warning' : 'error',
      file: at ? at[1]! : frame.where,
      line: at ? Number(at[2]) : 1,
      column: at ? Number(at[3]) : 1,
      message: words < 0 ? first : first.slice(words + frame.code.length + 2),
      ...(hint === undefined ? {} : { hint }),
      frame: frame.text,
    };
  });
  return { version: 1, exitCode: result.exitCode, checked: result.checked, pathErrors: result.pathErrors, problems };
}

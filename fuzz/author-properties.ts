// Properties of the template-author tools (renderer/preview, renderer/pages/template-fallbacks):
// whatever an author's folder holds, `quire check`, its lints, the code frames and
// `quire render-page` answer with problems, each with a stable code and a place inside the
// file it names; they never throw. Work is bounded by the generators' sizes (parts, nesting,
// line length), never by a clock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { CODES } from '../engine/index.ts';
import { templateFallbacks } from '../renderer/pages/template-fallbacks.ts';
import { rendererEngine } from '../renderer/platform/renderer-engine.ts';
import { checkPaths, checkReport, type CheckResult } from '../renderer/preview/check-site.ts';
import { main as cli } from '../renderer/preview/cli.ts';
import { SITE_CODES, templateFrames, type Frame } from '../renderer/preview/diagnostic-frames.ts';
import { evalOperandFrames } from '../renderer/preview/eval-operands.ts';
import { ignoredArgumentFrames } from '../renderer/preview/ignored-arguments.ts';
import { renderPage } from '../renderer/preview/render-page.ts';
import { scriptVariableFrames } from '../renderer/preview/script-variables.ts';
import { loadSite, SiteLoadError } from '../renderer/site/load-site.ts';
import { didYouMean } from '../renderer/site/validate-site-files.ts';
import { hostileTemplate, siteFolder, type SiteFolder } from './author-arbitraries.ts';

/** Every code an author tool may show: the engine's and the site folder's (SITE_CODES). */
const KNOWN_CODES = new Set([...Object.keys(CODES), ...Object.keys(SITE_CODES)]);
/** The window of a long source line a code frame shows (engine/diagnostics.ts FRAME_WIDTH, not exported). */
const FRAME_WIDTH = 120;
/** Codes of a whole file (a missing template), shown at the file's path alone. */
const FILE_LEVEL = new Set(['SITE_TEMPLATE_MISSING']);

/** A file's text as the tools read it: UTF-8, a byte-order mark left out. */
function readText(file: string): string | null {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    return null;
  }
}

/**
 * A frame's code is catalogued, its first line names the code, and its place is a line and
 * column inside the file it names (only `\n` breaks lines; a column may be one past the last
 * character, where an unclosed block ends). `textOf` reads the file a frame names.
 */
export function checkFrame(frame: Frame, textOf: (file: string) => string | null): void {
  if (!KNOWN_CODES.has(frame.code)) throw new Error(`unknown code ${frame.code} (${frame.where})`);
  const first = frame.text.split('\n', 1)[0]!;
  // Work bounded by counting: a source line is shown as a window of FRAME_WIDTH characters,
  // however long the line (a 20,000-character minified template, a one-line catalogue).
  for (const shown of frame.text.split('\n')) {
    if (/^[> ] +\d+ \| /.test(shown) && shown.length > FRAME_WIDTH + 2 + 16) throw new Error(`${frame.code}: a frame line of ${shown.length} characters`);
  }
  if (!first.includes(frame.code)) throw new Error(`frame of ${frame.code} does not name it: ${JSON.stringify(first.slice(0, 200))}`);
  const at = /^(.*):(\d+):(\d+)$/.exec(frame.where);
  if (!at) {
    if (FILE_LEVEL.has(frame.code)) return;
    throw new Error(`${frame.code} without a line and column: ${JSON.stringify(frame.where)}`);
  }
  const [, file, lineText, columnText] = at;
  const line = Number(lineText);
  const column = Number(columnText);
  const text = textOf(file!);
  if (text === null) throw new Error(`${frame.code} at ${frame.where}: a file that cannot be read`);
  const lines = text.split('\n');
  if (!(line >= 1 && line <= lines.length)) throw new Error(`${frame.code} at ${frame.where}: line ${line} outside a file of ${lines.length} lines`);
  const width = lines[line - 1]!.length;
  if (!(column >= 1 && column <= width + 1)) throw new Error(`${frame.code} at ${frame.where}: column ${column} outside a line of ${width} characters`);
  // Where the finding's own words say what is written there, the place points at it.
  const expected = expectedAt(frame.code, first);
  const here = lines[line - 1]!.slice(column - 1);
  if (expected !== null && !(typeof expected === 'string' ? here.startsWith(expected) : expected.test(here))) {
    throw new Error(`${frame.code} at ${frame.where} points at ${JSON.stringify(here.slice(0, 40))}, not ${JSON.stringify(expected)}`);
  }
}

/** The text a frame's place must start with, read from its message, or null when it does not say. */
function expectedAt(code: string, first: string): string | RegExp | null {
  if (code === 'SITE_IMAGE_MISSING') return '/assets/site/images/';
  if (code === 'SITE_CONTENT' && /: template ".*" is not in templates\//.test(first)) return /^"template"\s*:/;
  const block = /SITE_CONTENT: unknown block type (".*")$/.exec(first);
  if (block) return block[1]!;
  if (code === 'TEMPLATE_ARGS_IGNORED') return /so '\s*(\S)/.exec(first)?.[1] ?? null;
  return null;
}

const TEMPLATE_FILE = 'templates/fuzz.jsont';

/**
 * 1. A template's lints (`quire check FILE` runs these on a given file): the engine's
 * diagnostics framed with their hints, `.eval`s short of an operand, script and style
 * variables and ignored arguments, each at a place inside the text.
 */
const templateLints = fc.property(hostileTemplate, (text) => {
  const template = rendererEngine().compile(text, { name: TEMPLATE_FILE });
  const frames = [
    ...templateFrames(template, [...template.diagnostics, ...template.expressionDiagnostics()]),
    ...evalOperandFrames(template, TEMPLATE_FILE),
    ...scriptVariableFrames(template, TEMPLATE_FILE),
    ...ignoredArgumentFrames(template, TEMPLATE_FILE),
  ];
  for (const frame of frames) checkFrame(frame, (file) => (file === TEMPLATE_FILE ? text : null));
  const errors = template.diagnostics.filter((d) => d.severity !== 'warning');
  if (errors.length && !frames.some((frame) => !frame.warning)) throw new Error(`${errors.length} error(s) of the engine framed as none`);
});

/** 2. "Did you mean": never throws, offers one of the names given (never the word itself), for any word. */
const suggestions = fc.property(
  fc.oneof(fc.string({ maxLength: 40, unit: 'binary' }), fc.constantFrom('page', 'Page', 'pgae', 'price', '', 'x'.repeat(5000))),
  fc.array(fc.oneof(fc.string({ maxLength: 20, unit: 'binary' }), fc.constantFrom('page', 'priceCents', 'blog.list', '$schema')), { maxLength: 8 }),
  fc.boolean(),
  (word, names, closed) => {
    const near = didYouMean(word, names, closed);
    if (near !== null && (!names.includes(near) || near === word || near === '$schema')) throw new Error(`offered ${JSON.stringify(near)}`);
  },
);

// ---- site folders in a temporary folder ----

const scratchRoot = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fuzz-site-'));

function writeFolder(dir: string, folder: SiteFolder): void {
  for (const [name, body] of Object.entries(folder.files)) {
    const file = path.join(dir, name);
    if (name.endsWith('/')) {
      fs.mkdirSync(file, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, body);
  }
}

/** Runs `body` on the folder written to a fresh temporary folder, removed afterwards. */
async function withFolder<T>(folder: SiteFolder, body: (dir: string) => Promise<T>): Promise<T> {
  const dir = scratchRoot();
  try {
    writeFolder(dir, folder);
    return await body(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The data files of a folder that are not JSON as the loader reads them (BOM left out, strict UTF-8). */
function brokenDataFiles(folder: SiteFolder): string[] {
  const out: string[] = [];
  for (const [name, body] of Object.entries(folder.files)) {
    // The files the loader reads as data (a `page.json` elsewhere is nothing to it).
    if (!/^(site\.json|catalog\.json|content\/[^/]*\.json)$/.test(name)) continue;
    if (typeof body !== 'string') {
      out.push(name);
      continue;
    }
    try {
      JSON.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body);
    } catch {
      out.push(name);
    }
  }
  return out;
}

function checkResult(result: CheckResult, dir: string, folder: SiteFolder): void {
  if (result.pathErrors.length) throw new Error(`a site folder gave path errors: ${result.pathErrors.join('; ')}`);
  for (const frame of result.frames) checkFrame(frame, (file) => readText(path.isAbsolute(file) ? file : path.join(dir, file)));
  const problems = result.frames.filter((frame) => !frame.warning);
  if (result.exitCode !== (problems.length ? 1 : 0)) throw new Error(`exit ${result.exitCode} with ${problems.length} problem(s)`);
  // A data file that is not JSON (or not UTF-8) is always named by a problem at that file.
  for (const name of brokenDataFiles(folder)) {
    const file = path.join(dir, name);
    if (!problems.some((frame) => frame.where === file || frame.where.startsWith(`${file}:`))) {
      throw new Error(`${name} is not JSON, and no problem names it: ${result.frames.map((f) => `${f.code} ${f.where}`).join('; ')}`);
    }
  }
  const report = checkReport(result);
  for (const problem of report.problems) {
    if (!KNOWN_CODES.has(problem.code) || !(problem.line >= 1 && problem.column >= 1) || problem.message === '') throw new Error(`--json problem ${JSON.stringify(problem).slice(0, 300)}`);
  }
}

/**
 * 3. `quire check SITE_DIR` (and its CLI, `--json`) on a random site folder: templates missing
 * or renamed (`Page.jsont`), data files that are not JSON or of the wrong shape, unknown kinds,
 * BOMs, empty files. Never a throw; each problem a catalogued code at a place in its file; a
 * broken data file always named; the exit code the problems'.
 */
const checkSiteFolder = fc.asyncProperty(siteFolder, (folder) =>
  withFolder(folder, async (dir) => {
    checkResult(await checkPaths([dir]), dir, folder);
    const out: string[] = [];
    const err: string[] = [];
    const code = await cli(['check', '--json', dir], { out: (s) => out.push(s), err: (s) => err.push(s) });
    if (err.join('') !== '') throw new Error(`check --json wrote to stderr: ${err.join('').slice(0, 300)}`);
    const report = JSON.parse(out.join('')) as { exitCode: number };
    if (report.exitCode !== code || code === 2) throw new Error(`check --json exit ${code}, report ${report.exitCode}`);
    // `quire check FILE...`: each data file and template on its own (a data file's schema by its
    // name, a template against its sibling partials/); a path error only for bytes that are not UTF-8.
    const given = Object.keys(folder.files).filter((name) => /\.(json|jsont|html)$/.test(name)).map((name) => path.join(dir, name));
    if (given.length) {
      const alone = await checkPaths(given);
      const unreadable = new Set(Object.entries(folder.files).filter(([, body]) => typeof body !== 'string').map(([name]) => path.join(dir, name)));
      for (const line of alone.pathErrors) if (![...unreadable].some((file) => line.startsWith(`${file}: not UTF-8`))) throw new Error(`path error for a readable file: ${line}`);
      for (const frame of alone.frames) checkFrame(frame, (file) => readText(path.isAbsolute(file) ? file : path.join(dir, file)));
    }
    // The template fallbacks `npm start` notes: the missing file and the near one are files of templates/.
    const site = await loadSite(dir, { allowTemplateErrors: true }).catch((error: unknown) => {
      if (error instanceof SiteLoadError) return null;
      throw error;
    });
    for (const fallback of site ? await templateFallbacks(site) : []) {
      if (fallback.file !== 'templates/page.jsont' || fallback.pages.length === 0) throw new Error(`fallback ${JSON.stringify(fallback)}`);
      if (fallback.near !== null && !fs.existsSync(path.join(dir, fallback.near))) throw new Error(`fallback offers ${fallback.near}, which is not there`);
    }
  }),
);

/**
 * 4. `quire render-page SITE_DIR /path` on a random site folder: a status and frames (each a
 * catalogued code at a place in its file, or a page path for a content problem), never a
 * throw; a site that does not load answers exit 1 with its problems.
 */
const renderSitePage = fc.asyncProperty(siteFolder, fc.constantFrom('/', '/about', '/shop', '/nope', '/about?x=%ZZ'), (folder, url) =>
  withFolder(folder, async (dir) => {
    const result = await renderPage(dir, url, { now: () => Date.UTC(2024, 0, 15) });
    if (result.status === null && (result.exitCode !== 1 || result.frames.length === 0)) throw new Error('a site that did not load, without its problems');
    for (const frame of result.frames) {
      if (frame.code === 'SITE_CONTENT' && frame.where === url) continue;
      checkFrame(frame, (file) => readText(path.isAbsolute(file) ? file : path.join(dir, file)));
    }
  }),
);

export interface AuthorProperty {
  name: string;
  testRuns: number;
  defaultRuns?: number;
  property: fc.IProperty<unknown> | fc.IAsyncProperty<unknown>;
}

const entry = <T>(name: string, testRuns: number, property: fc.IProperty<T> | fc.IAsyncProperty<T>, defaultRuns?: number): AuthorProperty => ({
  name,
  testRuns,
  ...(defaultRuns === undefined ? {} : { defaultRuns }),
  property: property as unknown as fc.IProperty<unknown> | fc.IAsyncProperty<unknown>,
});

export const AUTHOR_PROPERTIES: readonly AuthorProperty[] = [
  entry('author tools: template lints frame every problem inside the file', 300, templateLints),
  entry('author tools: did-you-mean offers only a given name', 500, suggestions),
  // A folder written and checked per run (~20 ms); a store opened and a server built per render-page run (~1.5 s).
  entry('author tools: quire check on a random site folder', 60, checkSiteFolder, 2000),
  entry('author tools: quire render-page on a random site folder', 4, renderSitePage, 30),
];

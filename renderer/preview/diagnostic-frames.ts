import fs from 'node:fs';
import path from 'node:path';
import { codeFrame, Source, type Diagnostic } from '../../engine/index.ts';
import { compileCached } from '../site/load-site.ts';
import type { LoadedSite, SiteProblem } from '../site/site-types.ts';

// Authors read problems as code frames, in the terminal (render-page) and in the browser
// overlay (preview). Engine diagnostics and site-load problems come out the same way.

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
    return fs.readFileSync(path.resolve(dir, file), 'utf8');
  } catch {
    return null;
  }
}

/** The text a diagnostic's `source` names: a template (by file or name) or a partial. */
function sourceText(site: LoadedSite | null, name: string): string | null {
  if (!site) return null;
  for (const template of site.templates.values()) {
    if (template.file === name || template.name === name) return template.template.source.text;
  }
  const bare = name.replace(/^partials\//, '').replace(/\.jsont$/, '');
  if (Object.hasOwn(site.partials, bare)) return site.partials[bare]!;
  return readSiteFile(site.dir, name);
}

export function diagnosticFrame(site: LoadedSite | null, d: Diagnostic): Frame {
  const text = sourceText(site, d.source);
  const frame = text === null
    ? `${d.kind} ${d.code}: ${d.message}\n  at ${d.source}:${d.line}:${d.column}`
    : codeFrame(d, new Source(text, d.source));
  const children = (d.children ?? []).map((child) => diagnosticFrame(site, child).text);
  return { code: d.code, where: `${d.source}:${d.line}:${d.column}`, text: [frame, ...children].join('\n\n') };
}

/**
 * A site-load problem (bad JSON, bad content file, template syntax) framed against the
 * file it names, read from the folder: the engine's one frame printer, fed a diagnostic
 * of the problem's position.
 */
export function problemFrame(dir: string, problem: Omit<SiteProblem, 'code'> & { code: string; severity?: 'error' | 'warning' }): Frame {
  const where = `${problem.file}:${problem.line}:${problem.column}`;
  const text = readSiteFile(dir, problem.file);
  const warning = problem.severity === 'warning' ? { warning: true as const } : {};
  if (text === null) return { code: problem.code, where, text: `${problem.code}: ${problem.message}\n  at ${where}`, ...warning };
  const pseudo = {
    // A schema finding of a data file (site/validate-site-files.ts) says Warning or Error; a load problem is a syntax error.
    kind: problem.severity === 'warning' ? 'Warning' : problem.severity === 'error' ? 'Error' : 'SyntaxError',
    code: problem.code,
    message: problem.message,
    line: problem.line,
    column: problem.column,
    source: problem.file,
  } as unknown as Diagnostic;
  return { code: problem.code, where, text: codeFrame(pseudo, new Source(text, problem.file)), ...warning };
}

/**
 * The engine's own diagnostics of a site template or partial file. Partials go through the
 * site loader's `compileCached` (the renderer engine, with `image-component`), so the frame
 * is the loader's error and not an "unknown formatter" of the default engine; the loader
 * compiled the same text under the same name, so this is a cache hit.
 */
function fileDiagnostics(site: LoadedSite, file: string): readonly Diagnostic[] {
  for (const template of site.templates.values()) if (template.file === file) return template.template.diagnostics;
  const text = sourceText(site, file);
  return text === null ? [] : compileCached(file, text).template.diagnostics;
}

/**
 * The problems a site was loaded with (syntax errors kept by `allowTemplateErrors`): each
 * template syntax error as the engine reports it, with its own wording and frame.
 */
export function siteProblemFrames(site: LoadedSite): Frame[] {
  return site.problems.map((problem) => {
    if (problem.code === 'TEMPLATE_SYNTAX') {
      const d = fileDiagnostics(site, problem.file).find((c) => c.line === problem.line && c.column === problem.column);
      if (d) return diagnosticFrame(site, d);
    }
    return problemFrame(site.dir, problem);
  });
}

export function framesText(frames: readonly Frame[]): string {
  return frames.map((frame) => frame.text).join('\n\n');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The preview's error overlay: fixed on top of the page, dismissable, readable without CSS of the site. */
export function overlayHtml(title: string, frames: readonly Frame[]): string {
  const items = frames
    .map((frame) => `<li><pre style="margin:0 0 12px;white-space:pre-wrap">${escapeHtml(frame.text)}</pre></li>`)
    .join('');
  return (
    `<div id="quire-preview-overlay" role="alertdialog" aria-label="${escapeHtml(title)}" ` +
    `style="position:fixed;inset:0;z-index:2147483647;overflow:auto;background:rgba(24,24,27,.94);color:#fafafa;` +
    `font:13px/1.5 ui-monospace,Menlo,Consolas,monospace;padding:24px">` +
    `<button type="button" onclick="this.parentNode.remove()" style="float:right;font:inherit">Close</button>` +
    `<h2 style="margin:0 0 16px;color:#fca5a5;font-size:16px">${escapeHtml(title)} (${frames.length})</h2>` +
    `<ol style="margin:0;padding-left:20px">${items}</ol></div>`
  );
}

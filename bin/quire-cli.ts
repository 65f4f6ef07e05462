// The `quire` command line for template authors. `quire` alone (or --help) lists the commands.
//   quire render TEMPLATE DATA.json [--partials DIR] [--strict] [--locale L] [--now MS]
//   quire check, new, preview, render-page: renderer/preview/cli.ts, loaded only for those
//   commands so `render` starts without the server.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { codeFrame, type Diagnostic, parseJson, Source } from '../engine/index.ts';
import { rendererEngine } from '../renderer/platform/renderer-engine.ts';

/** Every command with its one-line description: what `quire` and `quire --help` print. */
export const COMMANDS: readonly (readonly [usage: string, description: string])[] = [
  ['quire new DIR', 'write a starter site (templates, styles, catalogue, a page, a blog, a form) into an empty folder'],
  ['quire check SITE_DIR|DIR|FILE...', 'check site folders, template folders or files; exit 1 on problems, 2 on unreadable paths'],
  ['quire preview SITE_DIR [--port P] [--host H]', 'serve a site folder with live reload and an error overlay'],
  ['quire render-page SITE_DIR /path', 'print one page as the server renders it; exit 1 on template or content problems'],
  ['quire render TEMPLATE DATA.json [--partials DIR] [--strict] [--locale L] [--now MS]', 'render one template; exit 1 on template errors'],
];

const USAGE = `usage:\n${COMMANDS.map(([usage, description]) => `  ${usage}\n      ${description}`).join('\n')}`;

interface Io {
  out(s: string): void;
  err(s: string): void;
}

const stdio: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

/** Partial files of a folder by file name and by name without extension. Throws on an unreadable folder. */
function readPartials(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (!statSync(p).isFile()) continue;
    const text = readFileSync(p, 'utf8');
    out[name] = text;
    const bare = name.replace(/\.[^.]+$/, '');
    if (!(bare in out)) out[bare] = text;
  }
  return out;
}

/** One line for a path that cannot be read (no stack trace): what `quire` prints before exit 2. */
function unreadable(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT' ? 'no such file or folder'
    : code === 'EISDIR' ? 'is a folder, not a file'
    : code === 'ENOTDIR' ? 'not a folder'
    : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
    : `cannot be read (${code ?? (error as Error).message})`;
  return `quire: ${file}: ${why}\n`;
}

function frames(diags: readonly Diagnostic[], sources: Map<string, Source>): string {
  return diags
    .map((d) => {
      const src = sources.get(d.source);
      return src ? codeFrame(d, src) : `${d.kind} ${d.code}: ${d.message}\n  at ${d.source}:${d.line}:${d.column}`;
    })
    .join('\n\n');
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const v = args[at + 1];
  args.splice(at, 2);
  return v;
}

export async function main(argv: string[], io: Io = stdio): Promise<number> {
  const [command, ...rest] = argv;
  const args = [...rest];
  switch (command) {
    case 'render': {
      const partialsDir = option(args, '--partials');
      const locale = option(args, '--locale');
      const now = option(args, '--now');
      const strict = args.includes('--strict');
      const files = args.filter((a) => !a.startsWith('--'));
      if (files.length !== 2) {
        io.err(USAGE + '\n');
        return 2;
      }
      const [templateFile, dataFile] = files as [string, string];
      let text: string;
      let dataText: string;
      let partials: Record<string, string> | undefined;
      try {
        text = readFileSync(templateFile, 'utf8');
      } catch (e) {
        io.err(unreadable(templateFile, e));
        return 2;
      }
      try {
        dataText = readFileSync(dataFile, 'utf8');
      } catch (e) {
        io.err(unreadable(dataFile, e));
        return 2;
      }
      try {
        partials = partialsDir ? readPartials(partialsDir) : undefined;
      } catch (e) {
        io.err(unreadable(partialsDir!, e));
        return 2;
      }
      let data: unknown;
      try {
        data = parseJson(dataText);
      } catch (e) {
        io.err(`quire: ${dataFile}: ${(e as Error).message}\n`);
        return 2;
      }
      const mode = strict ? 'strict' : 'safe';
      // The renderer's engine, so a site template (image-component) renders as it does on the site.
      const template = rendererEngine().compile(text, { mode, name: templateFile });
      const result = template.render(data, { mode, partials, locale, now: now ? Number(now) : undefined });
      io.out(result.html);
      const sources = new Map([[templateFile, template.source]]);
      for (const [name, src] of Object.entries(partials ?? {})) sources.set(name, new Source(src, name));
      const errors = result.errors.length ? result.errors : template.diagnostics;
      if (errors.length) io.err(frames(errors, sources) + '\n');
      // Safe mode still prints what it could; the exit code says the template has errors.
      return errors.length ? 1 : 0;
    }
    case 'check':
    case 'new':
    case 'preview':
    case 'render-page': {
      const { main: rendererMain } = await import('../renderer/preview/cli.ts');
      return rendererMain(argv, io);
    }
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      // Asked for: the list goes to stdout and is no failure.
      io.out(USAGE + '\n');
      return 0;
    default:
      io.err(`quire: unknown command ${command}\n${USAGE}\n`);
      return 2;
  }
}


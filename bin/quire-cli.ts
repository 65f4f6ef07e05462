// The `quire` command line for template authors. `quire` alone (or --help) lists the commands.
//   quire render TEMPLATE DATA.json [--partials DIR] [--strict] [--locale L] [--now MS]
//   quire check, new, preview, render-page: renderer/preview/cli.ts, loaded only for those
//   commands so `render` starts without the server.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { codeFrame, type Diagnostic, JsonSyntaxError, parseJson, Source } from '../engine/index.ts';
import { rendererEngine } from '../renderer/platform/renderer-engine.ts';
import { NotUtf8Error, utf8Text } from '../renderer/site/read-texts.ts';

import { COMMANDS, USAGE, usageOf } from '../renderer/preview/commands.ts';

export { COMMANDS };

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

/** A file's UTF-8 text (a byte-order mark left out); bytes that are not UTF-8 throw with their position. */
function readUtf8(file: string): string {
  const text = utf8Text(readFileSync(file));
  if (text instanceof NotUtf8Error) throw text;
  return text;
}

/** One line for a path that cannot be read (no stack trace): what `quire` prints before exit 2. */
function unreadable(file: string, error: unknown): string {
  if (error instanceof NotUtf8Error) return `quire: ${file}: ${error.message}\n`;
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT' ? 'no such file or folder'
    : code === 'EISDIR' ? 'is a folder, not a file'
    : code === 'ENOTDIR' ? 'not a folder'
    : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
    : `cannot be read (${code ?? (error as Error).message})`;
  return `quire: ${file}: ${why}\n`;
}

/** Each diagnostic framed, followed by its children (a broken partial's own errors). */
function frames(diags: readonly Diagnostic[], sources: Map<string, Source>): string {
  return diags
    .map((d) => {
      const src = sources.get(d.source);
      const own = src ? codeFrame(d, src) : `${d.kind} ${d.code}: ${d.message}\n  at ${d.source}:${d.line}:${d.column}`;
      return d.children && d.children.length > 0 ? `${own}\n\n${frames(d.children, sources)}` : own;
    })
    .join('\n\n');
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  // Given last, without its value: '' (refused by the caller), never taken as absent.
  const v = args[at + 1] ?? '';
  args.splice(at, 2);
  return v;
}

/** What is wrong with `quire render`'s options (the values taken out of `rest` already), or null. */
function renderOptionProblem(rest: readonly string[], values: { partialsDir?: string; locale?: string; now?: string }): string | null {
  const unknown = rest.find((a) => a.startsWith('--') && a !== '--strict');
  if (unknown !== undefined) return `unknown option ${unknown}`;
  for (const [name, value] of [['--partials', values.partialsDir], ['--locale', values.locale], ['--now', values.now]] as const) {
    if (value === '' || (value !== undefined && value.startsWith('--'))) return `${name} needs a value`;
  }
  if (values.now !== undefined && !/^-?\d+$/.test(values.now)) return `--now takes milliseconds since 1970 (an integer), not "${values.now}"`;
  if (values.locale !== undefined) {
    try {
      Intl.getCanonicalLocales(values.locale);
    } catch {
      return `--locale takes a language tag such as en-US, not "${values.locale}"`;
    }
  }
  return null;
}

export async function main(argv: string[], io: Io = stdio): Promise<number> {
  const [command, ...rest] = argv;
  const args = [...rest];
  // `quire preview --help` is a question, not a mistake: it was "unknown option --help" (exit 2),
  // and `quire check -h` looked for a file named -h.
  const asked = COMMANDS.some(([usage]) => usage.split(' ')[1] === command);
  if (asked && (rest.includes('--help') || rest.includes('-h'))) {
    io.out(usageOf(command) + '\n');
    return 0;
  }
  switch (command) {
    case 'render': {
      const partialsDir = option(args, '--partials');
      const locale = option(args, '--locale');
      const now = option(args, '--now');
      const strict = args.includes('--strict');
      const files = args.filter((a) => !a.startsWith('--'));
      // A mistyped option (`--stritc`) or one without its value rendered as if it were not given.
      const wrong = renderOptionProblem(args, { partialsDir, locale, now });
      if (wrong !== null) {
        io.err(`quire: ${wrong}\n${usageOf('render')}\n`);
        return 2;
      }
      if (files.length !== 2) {
        io.err(`quire: render needs a template file and a JSON data file${files.length > 2 ? `, not ${files.length} files` : ''}\n${usageOf('render')}\n`);
        return 2;
      }
      const [templateFile, dataFile] = files as [string, string];
      let text: string;
      let dataText: string;
      let partials: Record<string, string> | undefined;
      try {
        text = readUtf8(templateFile);
      } catch (e) {
        io.err(unreadable(templateFile, e));
        return 2;
      }
      try {
        dataText = readUtf8(dataFile);
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
        // Where, as a line and column: an offset into a long file is no help.
        const at = e instanceof JsonSyntaxError ? new Source(dataText, dataFile).position(Math.min(e.offset, dataText.length)) : null;
        io.err(`quire: ${dataFile}${at ? `:${at.line}:${at.column}` : ''}: ${(e as Error).message}\n`);
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


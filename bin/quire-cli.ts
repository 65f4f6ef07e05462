// The `quire` command line for template authors.
//   quire render TEMPLATE DATA.json [--partials DIR] [--strict] [--locale L] [--now MS]
//   quire check FILE…
//   quire preview SITE_DIR [--port P], quire render-page SITE_DIR /path: renderer/preview/cli.ts,
//   loaded only for those commands so the template commands start without the server.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { codeFrame, compile, type Diagnostic, parseJson, Source } from '../engine/index.ts';

const USAGE = `usage:
  quire render TEMPLATE DATA.json [--partials DIR] [--strict] [--locale L] [--now MS]
  quire check FILE...
  quire preview SITE_DIR [--port P]
  quire render-page SITE_DIR /path`;

interface Io {
  out(s: string): void;
  err(s: string): void;
}

const stdio: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

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
      const [templateFile, dataFile] = files;
      let data: unknown;
      try {
        data = parseJson(readFileSync(dataFile, 'utf8'));
      } catch (e) {
        io.err(`quire: ${dataFile}: ${(e as Error).message}\n`);
        return 2;
      }
      const text = readFileSync(templateFile, 'utf8');
      const partials = partialsDir ? readPartials(partialsDir) : undefined;
      const mode = strict ? 'strict' : 'safe';
      const template = compile(text, { mode, name: templateFile });
      const result = template.render(data, { mode, partials, locale, now: now ? Number(now) : undefined });
      io.out(result.html);
      const sources = new Map([[templateFile, template.source]]);
      for (const [name, src] of Object.entries(partials ?? {})) sources.set(name, new Source(src, name));
      if (result.errors.length) io.err(frames(result.errors, sources) + '\n');
      return strict && result.errors.length ? 1 : 0;
    }
    case 'check': {
      if (args.length === 0) {
        io.err(USAGE + '\n');
        return 2;
      }
      let failed = 0;
      for (const file of args) {
        if (!existsSync(file)) {
          io.err(`quire: ${file}: no such file\n`);
          failed++;
          continue;
        }
        const t = compile(readFileSync(file, 'utf8'), { mode: 'safe', name: file });
        if (t.diagnostics.length) {
          failed++;
          io.err(frames(t.diagnostics, new Map([[file, t.source]])) + '\n\n');
        }
      }
      io.out(`${args.length - failed} of ${args.length} templates have no syntax errors\n`);
      return failed ? 1 : 0;
    }
    case 'preview':
    case 'render-page': {
      const { main: rendererMain } = await import('../renderer/preview/cli.ts');
      return rendererMain(argv, io);
    }
    default:
      io.err(USAGE + '\n');
      return command === '--help' || command === '-h' ? 0 : 2;
  }
}


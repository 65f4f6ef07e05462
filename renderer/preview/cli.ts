// The renderer half of the `quire` command line (bin/quire-cli.ts dispatches here):
//   quire check SITE_DIR|DIR|FILE...
//   quire new DIR
//   quire preview SITE_DIR [--port P] [--host H]
//   quire render-page SITE_DIR /path
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkPaths, checkReport, relocate } from './check-site.ts';
import { usageOf } from './commands.ts';
import { framesText } from './diagnostic-frames.ts';
import { writeStarterSite } from './new-site.ts';
import { adminNote, startPreview, type Preview, type ReloadOutcome, type ShownProblem } from './preview-server.ts';
import { quireCommand, shellWord, startCommand } from './start-command.ts';
import { renderPage } from './render-page.ts';
import { PAGE_TYPE } from '../pages/page-type-numbers.ts';

export interface Io {
  out(s: string): void;
  err(s: string): void;
}

/**
 * A misused command's answer: what is wrong, then that command's usage. It was the bare list
 * of four commands (without `render` or what each does), and `quire new` with no folder said
 * nothing about what was missing.
 */
function misuse(command: string, wrong: string): string {
  return `quire: ${wrong}\n${usageOf(command)}\n`;
}

interface Parsed {
  positional: string[];
  flags: Map<string, string>;
  error: string | null;
}

function parse(args: readonly string[], known: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (!known.includes(name)) return { positional, flags, error: `unknown option ${name}` };
    const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined) return { positional, flags, error: `${name} needs a value` };
    flags.set(name, value);
  }
  return { positional, flags, error: null };
}

function siteDirProblem(dir: string): string | null {
  if (!existsSync(dir)) return `${dir}: no such folder`;
  if (!statSync(dir).isDirectory()) return `${dir}: not a folder`;
  return null;
}

/**
 * What to type after `quire new DIR`, each line copy-pastable from the folder `quire new` ran in:
 * the bare `quire preview` was no command outside npm, and nothing said how to serve the shop
 * (`npm start` runs in Quire's folder; start-options.ts reads a relative SITE_DIR from where
 * it was typed).
 */
export function nextSteps(dir: string, cwd: string = process.cwd()): string {
  const site = shellWord(dir);
  const steps: [string, string][] = [
    [`${quireCommand(cwd)} preview ${site}`, 'edit and watch (live reload, problems on the page)'],
    [`${quireCommand(cwd)} check ${site}`, 'the gate before serving (exit 0 when clean)'],
    [startCommand(dir, cwd), 'serve the shop; its first start prints the /admin sign-in'],
  ];
  const width = Math.max(...steps.map(([command]) => command.length));
  return steps.map(([command, what], i) => `${i === 0 ? 'next: ' : '      '}${command.padEnd(width)}  # ${what}`).join('\n');
}

/** The site content sync's line, worded as `npm start` logs it (renderer/main.ts). */
const syncLine = (summary: string): string => `quire: site content (catalog.json): ${summary}\n`;

/** Problems the preview lists in the terminal; the rest are counted (the overlay and `quire check` show every one). */
export const TERMINAL_PROBLEMS = 10;

/**
 * One line per problem, `file:line:column CODE: message`, so an author watching the terminal
 * knows which file to open without switching to the browser.
 */
function problemLines(problems: readonly ShownProblem[], dir: string): string {
  let text = '';
  for (const problem of problems.slice(0, TERMINAL_PROBLEMS)) {
    // A kept template syntax error's message already starts with the engine's code.
    const words = problem.message.startsWith(`${problem.code}: `) || problem.code === 'TEMPLATE_SYNTAX' ? problem.message : `${problem.code}: ${problem.message}`;
    // Named as `quire check` names it: relative to where the author typed, via the folder as given.
    const file = dir === '' || dir === '.' || problem.file.startsWith('/') ? problem.file : path.join(dir, problem.file);
    text += `  ${file}:${problem.line}:${problem.column} ${problem.severity === 'warning' ? 'warning ' : ''}${words}\n`;
  }
  const more = problems.length - TERMINAL_PROBLEMS;
  if (more > 0) text += `  … and ${more} more (quire check ${dir} lists every one)\n`;
  return text;
}

/**
 * What `quire check` would print for the folder, in its format (frames named as the author
 * typed the folder, then a count); '' when it finds nothing, so a clean start stays one line.
 * The preview shows it at start and after each reload: an author who runs only the preview
 * saw missing partials, bad `.eval`s and the script/style lint only on a page that rendered them.
 */
async function checkLines(dir: string): Promise<string> {
  const result = await checkPaths([dir]).catch((failure: unknown) => ({ frames: [], pathErrors: [`check failed: ${(failure as Error).message}`] }));
  let text = result.pathErrors.map((line) => `quire: ${line}\n`).join('');
  if (result.frames.length === 0) return text;
  const warnings = result.frames.filter((frame) => frame.warning).length;
  text += framesText(result.frames) + '\n\n';
  return text + `quire: check found ${result.frames.length - warnings} problem(s)${warnings ? `, ${warnings} warning(s)` : ''} (the server keeps running)\n`;
}

/** What the terminal says after a reload: what changed, and where the problems are. */
function reloadLines(outcome: ReloadOutcome, dir: string): string {
  if (!outcome.ok) {
    return `quire: the site has ${outcome.problems.length} problem(s); the last good version is still served, with them on every page:\n${problemLines(outcome.problems, dir)}`;
  }
  const changed = `quire: reloaded (${outcome.files.filter(Boolean).join(', ') || 'site'})`;
  // The kept problems are among what `quire check` prints after this line.
  return `${changed}\n`;
}

/** Resolves when the process is asked to stop; the preview then closes cleanly. */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => resolve(signal);
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

/** A page type as the summary shows it: the number the platform data carries, with its name (`2 (page)`); a bare 2 told an author nothing. */
function pageTypeName(type: number | null | undefined): string {
  if (type === null || type === undefined) return '?';
  const name = Object.entries(PAGE_TYPE).find(([, number]) => number === type)?.[0];
  return name === undefined ? String(type) : `${type} (${name})`;
}

export async function main(argv: readonly string[], io: Io, waitForStop: () => Promise<unknown> = untilSignal): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'check': {
      // `--json`: one object on stdout (checkReport), the exit code unchanged.
      const json = rest.includes('--json');
      const { positional, error } = parse(rest.filter((arg) => arg !== '--json'), []);
      if (error || positional.length === 0) {
        io.err(misuse('check', error ?? 'check needs a site folder, a folder of templates or a file'));
        return 2;
      }
      let result: Awaited<ReturnType<typeof checkPaths>>;
      try {
        result = await checkPaths(positional);
      } catch (failure) {
        // Whatever a folder holds, the gate answers in one line, never a stack trace.
        io.err(`quire: check failed: ${(failure as Error).message}\n`);
        return 2;
      }
      if (json) {
        io.out(JSON.stringify(checkReport(result)) + '\n');
        return result.exitCode;
      }
      for (const line of result.pathErrors) io.err(`quire: ${line}\n`);
      if (result.frames.length) io.err(framesText(result.frames) + '\n\n');
      const what = `${result.checked.templates} template(s) and partial(s)${result.checked.sites ? ` in ${result.checked.sites} site folder(s)` : ''}${result.checked.dataFiles ? ` and ${result.checked.dataFiles} data file(s)` : ''}`;
      const warnings = result.frames.filter((frame) => frame.warning).length;
      const problems = `${result.frames.length - warnings} problem(s)${warnings ? `, ${warnings} warning(s)` : ''}`;
      io.out(`quire: checked ${what}; ${problems}${result.pathErrors.length ? `; ${result.pathErrors.length} path(s) could not be read` : ''}\n`);
      return result.exitCode;
    }
    case 'new': {
      const { positional, error } = parse(rest, []);
      if (error || positional.length !== 1) {
        io.err(misuse('new', error ?? (positional.length === 0 ? 'new needs the folder to write the starter site into' : `new takes one folder, not ${positional.length}`)));
        return 2;
      }
      const dir = positional[0]!;
      const outcome = writeStarterSite(dir);
      if (!outcome.ok) {
        io.err(`quire: ${outcome.error}\n`);
        return 2;
      }
      io.out(`quire: wrote a starter site to ${dir} (${outcome.files.length} files)\n${nextSteps(dir)}\n`);
      return 0;
    }
    case 'render-page': {
      const { positional, error } = parse(rest, []);
      if (error || positional.length !== 2) {
        io.err(misuse('render-page', error ?? 'render-page needs a site folder and a page path (such as /)'));
        return 2;
      }
      const [dir, path] = positional as [string, string];
      // The usage says `/path`: `nope` was read as `/nope`, a 404 page and exit 0, so a script
      // that passed a slug or a file name by mistake was told all was well.
      if (!path.startsWith('/')) {
        io.err(misuse('render-page', `the page path must start with / (such as /${path.replace(/^\.?\/*/, '')}), not "${path}"`));
        return 2;
      }
      const bad = siteDirProblem(dir);
      if (bad) {
        io.err(`quire: ${bad}\n`);
        return 2;
      }
      const result = await renderPage(dir, path);
      io.out(result.html);
      const summary =
        result.status === null
          ? 'the site folder could not be loaded'
          : `${path}: ${result.status}, page type ${pageTypeName(result.pageType)}, template ${result.templateName ?? '?'}`;
      const warnings = result.frames.filter((frame) => frame.warning).length;
      const counted = `${result.frames.length - warnings} problem(s)${warnings ? `, ${warnings} warning(s)` : ''}`;
      // Named from where the command was typed, as `quire check` names them, so a terminal or an
      // editor opens the file (`templates/page.jsont` was the site folder's own path).
      const frames = relocate(result.frames, dir);
      io.err(`${frames.length ? framesText(frames) + '\n\n' : ''}quire: ${summary}; ${counted}\n`);
      return result.exitCode;
    }
    case 'preview': {
      const { positional, flags, error } = parse(rest, ['--port', '--host']);
      const portText = flags.get('--port') ?? process.env.PORT ?? '3000';
      const port = /^\d+$/.test(portText) ? Number(portText) : NaN;
      // Say which value is wrong: the bare usage left `--port abc` (or a stray PORT) a riddle.
      const badPort = port >= 0 && port <= 65535 ? null : `${flags.has('--port') ? '--port' : 'PORT'} takes a port number from 0 to 65535, not "${portText}"`;
      const wrong = error ?? badPort;
      if (wrong || positional.length !== 1) {
        io.err(misuse('preview', wrong ?? (positional.length === 0 ? 'preview needs a site folder' : `preview takes one site folder, not ${positional.length}`)));
        return 2;
      }
      const dir = positional[0]!;
      const bad = siteDirProblem(dir);
      if (bad) {
        io.err(`quire: ${bad}\n`);
        return 2;
      }
      let preview: Preview;
      // Whether the terminal's last word on the folder was a problem: the reload that fixes the
      // last one says so, where it said only "reloaded" and the author looked for what was left.
      let troubled = false;
      const report = (text: string) => {
        if (text) io.err(text);
        else if (troubled) io.err('quire: no problems left\n');
        troubled = text.includes('problem(s)') && !text.includes('check found 0 problem(s)');
      };
      try {
        preview = await startPreview({
          dir,
          port,
          host: flags.get('--host') ?? '127.0.0.1',
          onReload: (outcome) => {
            io.err(reloadLines(outcome, dir));
            if (outcome.sync !== null) io.err(syncLine(outcome.sync));
            if (outcome.ok) void checkLines(dir).then(report);
            else troubled = true;
          },
        });
      } catch (failure) {
        const host = flags.get('--host') ?? '127.0.0.1';
        // The one start failure an author meets often (a second preview, a dev server): say what to do.
        const why =
          (failure as NodeJS.ErrnoException).code === 'EADDRINUSE'
            ? `port ${port} on ${host} is in use (another preview or server?); stop it, or choose another port with --port P`
            : (failure as Error).message;
        io.err(`quire: cannot start the preview: ${why}\n`);
        return 1;
      }
      io.out(`quire: previewing ${dir} at ${preview.url} (live reload on; Ctrl-C stops)\n`);
      if (await preview.adminUnavailable()) io.out(`quire: ${adminNote(dir)}\n`);
      if (preview.startSync !== null) io.err(syncLine(preview.startSync));
      const { blocking } = preview.problems();
      if (preview.site() === null) {
        io.err(`quire: the site folder could not be loaded; pages show the problems until they are fixed:\n${problemLines(blocking, dir)}`);
        troubled = true;
      } else if (blocking.length > 0) {
        io.err(`quire: the site has ${blocking.length} problem(s), shown on every page:\n${problemLines(blocking, dir)}`);
        troubled = true;
      } else {
        // The kept problems (syntax errors, data findings) are part of what `quire check` prints.
        report(await checkLines(dir));
      }
      await waitForStop();
      await preview.close();
      return 0;
    }
    default:
      io.err(usageOf(undefined) + '\n');
      return 2;
  }
}

// The command-line ends every bench shares: a mistyped option is the user's error (its
// message and exit 2, not a stack), results go to the file and stdout, `--check` exits 1
// naming the missed targets, and a module runs its main only when started as a script (the
// tests import the same modules).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The parsed options, or the parser's message on stderr and exit 2. */
export function optionsOrExit<O>(parse: () => O): O {
  try {
    return parse();
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message}\n`);
    process.exit(2);
  }
}

/**
 * Another bench's section in the same file (`<!-- bench:NAME begin -->` … `end -->`, e.g.
 * bench:cold's "Cold start" in RESULTS.md): carried over when the file is written anew. It
 * starts at the begin marker nearest before its end marker: a stray copy of the begin marker
 * earlier in the file once carried the report's history into the section, which the next
 * `bench:cold` then replaced.
 */
const KEPT_SECTION = /<!-- (bench:[\w-]+) begin -->(?:(?!<!-- \1 begin -->)[\s\S])*?<!-- \1 end -->/g;

/**
 * `text` with its section NAME (see `KEPT_SECTION`) replaced by `section`, which carries both
 * markers; appended when there is none.
 */
export function withSection(text: string, name: string, section: string): string {
  const end = text.indexOf(`<!-- ${name} end -->`);
  const at = end >= 0 ? text.lastIndexOf(`<!-- ${name} begin -->`, end) : -1;
  if (at < 0) return `${text.trimEnd()}\n\n${section}\n`;
  return text.slice(0, at) + section + text.slice(end + `<!-- ${name} end -->`.length);
}

function withKeptSections(markdown: string, out: string): string {
  const old = existsSync(out) ? readFileSync(out, 'utf8') : '';
  const kept = [...old.matchAll(KEPT_SECTION)].filter((m) => !markdown.includes(`<!-- ${m[1]} begin -->`)).map((m) => m[0]);
  return kept.length ? `${markdown.trimEnd()}\n\n${kept.join('\n\n')}\n` : markdown;
}

/** Writes the results to `out` (when set) and stdout; with `check`, exits 1 when a target was missed. */
export function publish(markdown: string, out: string | null, check: boolean, missed: readonly string[]): void {
  if (out) writeFileSync(out, withKeptSections(markdown, out));
  process.stdout.write(markdown);
  if (check && missed.length) {
    process.stderr.write(`bench --check: ${missed.length} target(s) missed: ${missed.join('; ')}\n`);
    process.exit(1);
  }
}

/** Runs `main` when the module at `moduleUrl` is the script node started; a failure prints `name: stack` and exits 2. */
export function runIfMain(moduleUrl: string, name: string, main: () => Promise<void>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  main().catch((e: unknown) => {
    process.stderr.write(`${name}: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(2);
  });
}

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

function withKeptSections(markdown: string, old: string): string {
  const kept = [...old.matchAll(KEPT_SECTION)].filter((m) => !markdown.includes(`<!-- ${m[1]} begin -->`)).map((m) => m[0]);
  return kept.length ? `${markdown.trimEnd()}\n\n${kept.join('\n\n')}\n` : markdown;
}

const HISTORY_HEADING = /^## The run before\b/m;

/**
 * The new report with the previous one below it as history: its head (everything before its
 * own first "## The run before") under a heading naming its date, machine and commit, its
 * headings a level down, then its history as it was. Each run is read against the runs before
 * it (the closing notes quote their ratios), and two runs once wrote over the file and lost
 * every earlier run. A section of the old head the new report repeats word for word (the
 * workloads' descriptions) is left out.
 */
export function withHistory(markdown: string, old: string): string {
  // A stray marker left outside its section would carry the history into it on the next run.
  const body = old.replace(KEPT_SECTION, '').replace(/^<!-- bench:[\w-]+ (?:begin|end) -->\n?/gm, '').replace(/^# [^\n]*\n/, '').trim();
  if (body === '') return markdown;
  const h = body.search(HISTORY_HEADING);
  const head = h < 0 ? body : body.slice(0, h);
  const history = h < 0 ? '' : body.slice(h).trim();
  const sections = head.split(/^(?=## )/m).filter((s) => !(s.startsWith('## ') && markdown.includes(s.trim())));
  const demoted = sections.join('').replace(/^(#{2,5}) /gm, '#$1 ').trim();
  const parts = [markdown.trimEnd(), `## The run before${runLabel(head)}`, demoted, history].filter((p) => p !== '');
  return `${parts.join('\n\n')}\n`;
}

/** ` (22:02, 2026-12-02, AMD EPYC, commit 4db1c78)` from a report's date, machine and commit lines; what it finds. */
function runLabel(head: string): string {
  const date = /date: (\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(head);
  const machine = /machine: ([^,;\n×]+?)\s*(?:×|,|;|\n)/.exec(head);
  const commit = /commit:? ([0-9a-f]{7,40})\b/.exec(head);
  const bits = [date ? `${date[2]}, ${date[1]}` : '', machine ? machine[1] : '', commit ? `commit ${commit[1]}` : ''].filter((b) => b !== '');
  return bits.length ? ` (${bits.join(', ')})` : '';
}

/** Writes `markdown` to `out` with the file's history and other benches' sections carried over. */
export function writeResults(markdown: string, out: string): void {
  const old = existsSync(out) ? readFileSync(out, 'utf8') : '';
  writeFileSync(out, withKeptSections(withHistory(markdown, old), old));
}

/** Writes the results to `out` (when set) and stdout; with `check`, exits 1 when a target was missed. */
export function publish(markdown: string, out: string | null, check: boolean, missed: readonly string[]): void {
  if (out) writeResults(markdown, out);
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

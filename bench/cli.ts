// The command-line ends every bench shares: a mistyped option is the user's error (its
// message and exit 2, not a stack), results go to the file and stdout, `--check` exits 1
// naming the missed targets, and a module runs its main only when started as a script (the
// tests import the same modules).
import { writeFileSync } from 'node:fs';
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

/** Writes the results to `out` (when set) and stdout; with `check`, exits 1 when a target was missed. */
export function publish(markdown: string, out: string | null, check: boolean, missed: readonly string[]): void {
  if (out) writeFileSync(out, markdown);
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

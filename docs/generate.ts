// `npm run docs`: writes docs/reference/formatters.md and docs/reference/predicates.md from
// the plugin documentation data (formatters/docs/*.json, predicates/docs/*.json), and
// docs/api-errors.md from the API error catalogue (renderer/api/error-codes.ts).
// `npm run docs -- --check` writes nothing and exits 1 when a committed file is stale.
import fs from 'node:fs';
import path from 'node:path';
import { API_ERRORS_FILE, apiErrorsMarkdown } from './api-error-docs.ts';
import { referenceMarkdown, ROOT, type PluginKind } from './plugin-docs.ts';

export const REFERENCE_FILES: Record<PluginKind, string> = {
  formatters: path.join(ROOT, 'docs/reference/formatters.md'),
  predicates: path.join(ROOT, 'docs/reference/predicates.md'),
};

export function generate(check: boolean): string[] {
  const stale: string[] = [];
  const outputs: [string, () => string][] = [
    ...(Object.entries(REFERENCE_FILES) as [PluginKind, string][]).map(([kind, file]): [string, () => string] => [file, () => referenceMarkdown(kind)]),
    [API_ERRORS_FILE, apiErrorsMarkdown],
  ];
  for (const [file, write] of outputs) {
    const text = write();
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    if (current === text) continue;
    stale.push(path.relative(ROOT, file));
    if (!check) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    }
  }
  return stale;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, 'docs/generate.ts')) {
  const check = process.argv.includes('--check');
  const changed = generate(check);
  if (check && changed.length) {
    process.stderr.write(`docs: ${changed.join(', ')} out of date; run npm run docs\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(changed.length ? `docs: wrote ${changed.join(', ')}\n` : 'docs: up to date\n');
  }
}

// The `quire` commands and their usage lines, in one place for `quire`/`quire --help`
// (bin/quire-cli.ts), `quire COMMAND --help`, and the usage a mistyped command prints
// (renderer/preview/cli.ts). Nothing heavy is imported here: `quire render` loads it too.

/** Every command with its one-line description: what `quire` and `quire --help` print. */
export const COMMANDS: readonly (readonly [usage: string, description: string])[] = [
  ['quire new DIR', 'write a starter site (templates, styles, catalogue, a page, a blog, a form) into an empty folder'],
  ['quire check SITE_DIR|DIR|FILE... [--json]', 'check site folders, template folders or files; exit 1 on problems, 2 on unreadable paths; --json prints one object'],
  ['quire preview SITE_DIR [--port P] [--host H]', 'serve a site folder with live reload and an error overlay'],
  ['quire render-page SITE_DIR /path', 'print one page as the server renders it; exit 1 on template or content problems'],
  ['quire render TEMPLATE DATA.json [--partials DIR] [--strict] [--locale L] [--now MS]', 'render one template; exit 1 on template errors'],
];

/** All commands, as `quire` alone prints them. */
export const USAGE = `usage:\n${COMMANDS.map(([usage, description]) => `  ${usage}\n      ${description}`).join('\n')}`;

/** One command's usage, as `quire COMMAND --help` prints it and a misuse of it ends with; every command's for an unknown one. */
export function usageOf(command: string | undefined): string {
  const entry = COMMANDS.find(([usage]) => usage.split(' ')[1] === command);
  return entry ? `usage:\n  ${entry[0]}\n      ${entry[1]}` : USAGE;
}

import path from 'node:path';
import { fileURLToPath } from 'node:url';

// How to serve a site folder with `npm start` (and run `quire` itself), worded once for
// `quire new`'s next steps and the preview's /admin page, so both print the same
// copy-pastable command.

/** The Quire package folder, where `npm start` runs. */
export const QUIRE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A word as a POSIX shell reads it back: plain when it can be, else single-quoted. */
export const shellWord = (word: string): string => (/^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/** Whether `cwd` is Quire's folder or one inside it, where `npx quire` finds Quire's own bin. */
const insideQuire = (cwd: string): boolean => {
  const relative = path.relative(QUIRE_ROOT, path.resolve(cwd));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/**
 * `npx quire`, typed from `cwd`: outside Quire's folder npx finds no local `quire` and offers
 * to download whatever the registry has under that name, so it is `npx --prefix QUIRE quire`
 * there (the command still runs in `cwd`, so a relative site folder means the same).
 */
export function quireCommand(cwd: string = process.cwd()): string {
  return insideQuire(cwd) ? 'npx quire' : `npx --prefix ${shellWord(QUIRE_ROOT)} quire`;
}

/**
 * `SITE_DIR=DIR npm start`, typed from `cwd`: `npm start` runs in Quire's folder, so from
 * anywhere else it is `npm --prefix QUIRE start` (start-options.ts reads a relative SITE_DIR
 * from where it was typed).
 */
export function startCommand(dir: string, cwd: string = process.cwd()): string {
  const start = path.resolve(cwd) === QUIRE_ROOT ? 'npm start' : `npm --prefix ${shellWord(QUIRE_ROOT)} start`;
  return `SITE_DIR=${shellWord(dir)} ${start}`;
}

import path from 'node:path';
import { fileURLToPath } from 'node:url';

// How to serve a site folder with `npm start`, worded once for `quire new`'s next steps and
// the preview's /admin page, so both print the same copy-pastable command.

/** The Quire package folder, where `npm start` runs. */
export const QUIRE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A word as a POSIX shell reads it back: plain when it can be, else single-quoted. */
export const shellWord = (word: string): string => (/^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/**
 * `SITE_DIR=DIR npm start`, typed from `cwd`: `npm start` runs in Quire's folder, so from
 * anywhere else it is `npm --prefix QUIRE start` (start-options.ts reads a relative SITE_DIR
 * from where it was typed).
 */
export function startCommand(dir: string, cwd: string = process.cwd()): string {
  const start = path.resolve(cwd) === QUIRE_ROOT ? 'npm start' : `npm --prefix ${shellWord(QUIRE_ROOT)} start`;
  return `SITE_DIR=${shellWord(dir)} ${start}`;
}

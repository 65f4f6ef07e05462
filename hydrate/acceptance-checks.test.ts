// Every numbered acceptance check of STOREFRONT section A (the islands) must be the title of
// a test. The list below is checked in (tests never read the spec folder); a test counts when
// one of its titles starts with the id, as in `test('ATC-8 …')` or `test('AN-7 / AN-8 …')`.
// [browser] checks live in test/browser/*.browser.test.ts, the renderer-side checks of
// section A (RST-14, GC-3, SUB-7) in the renderer's or the browser tier's tests.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/** Island prefix, number of checks, and where its tests are expected (for the table only). */
const SECTION_A: ReadonlyArray<[prefix: string, count: number, island: string]> = [
  ['SH', 11, 'A0 shared infrastructure'],
  ['ATC', 18, 'A1 add-to-cart'],
  ['PILL', 11, 'A2 pill cart'],
  ['VAR', 12, 'A3 variants and quantity'],
  ['RST', 14, 'A4 restock'],
  ['BNPL', 17, 'A5 buy now pay later'],
  ['AF', 19, 'A6 additional fields'],
  ['SF', 21, 'A7 site form'],
  ['GC', 6, 'A8 gift card'],
  ['SUB', 8, 'A9 subscription'],
  ['AUTH', 12, 'A10 account'],
  ['ERR', 12, 'A11 error reporter'],
  ['AN', 19, 'A12 analytics'],
  ['CAP', 11, 'A13 captcha'],
];

/** Checks marked [browser] in section A: they must have a real-browser test. */
const BROWSER_ONLY = ['ATC-18', 'PILL-10', 'AF-19', 'SF-21', 'GC-5', 'AUTH-11', 'AN-5', 'CAP-11'];

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');
const SEARCHED = ['hydrate', 'renderer', 'test'];
const SKIP = new Set(['node_modules', 'dist', 'data', 'test-output']);

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...testFiles(full));
    // This file's own examples must not count as coverage.
    else if (/\.test\.tsx?$/.test(name) && full !== self) out.push(full);
  }
  return out;
}

/** A call's first string argument starting with ids: `('ATC-8 …'`, `('AN-7 / AN-8 …'`, `('AF-7, AF-8 …'`. */
const TITLE = /\(\s*(['"`])((?:[A-Z]+-\d+(?:\s*[/,]\s*|\s+and\s+|\s+))+)/g;

export function titledIds(source: string): Set<string> {
  const ids = new Set<string>();
  for (const match of source.matchAll(TITLE)) for (const id of match[2]!.match(/[A-Z]+-\d+/g) ?? []) ids.add(id);
  return ids;
}

function coverage(): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const dir of SEARCHED) {
    for (const file of testFiles(path.join(root, dir))) {
      const rel = path.relative(root, file);
      for (const id of titledIds(readFileSync(file, 'utf8'))) where.set(id, [...(where.get(id) ?? []), rel]);
    }
  }
  return where;
}

describe('section A acceptance checks', () => {
  test('titles are recognised only at the start of a test title', () => {
    const ids = titledIds(`test('ATC-8 adds', …); test.each([1])('AN-7 / AN-8 policy %o', …); it('AF-7, AF-8 and AF-10 save', …); sku('GC-50'); // SF-3 in a comment`);
    expect([...ids].sort()).toEqual(['AF-10', 'AF-7', 'AF-8', 'AN-7', 'AN-8', 'ATC-8']);
  });

  const where = coverage();

  test.each(SECTION_A)('every %s check (%i of them, %s) has a test', (prefix, count) => {
    const missing: string[] = [];
    for (let n = 1; n <= count; n++) if (!where.has(`${prefix}-${n}`)) missing.push(`${prefix}-${n}`);
    expect(missing).toEqual([]);
  });

  test('every [browser] check has a test in the browser tier', () => {
    const missing = BROWSER_ONLY.filter((id) => !(where.get(id) ?? []).some((file) => file.startsWith('test/browser/') && file.endsWith('.browser.test.ts')));
    expect(missing).toEqual([]);
  });
});

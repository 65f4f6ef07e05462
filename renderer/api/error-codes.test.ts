import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PLATFORM_ERRORS } from '../../hydrate/shared/platform-wire.ts';
import { API_ERROR_CODES, API_ERROR_CODE_LIST, type ApiErrorCode } from './error-codes.ts';
import { GENERIC } from './errors.ts';

// The catalogue and the code agree both ways: `tsc` refuses a code the catalogue lacks (ApiError
// takes only its keys); this scan of the sources refuses an entry nothing raises, and a raise
// whose status is not the catalogue's for that code.

const RENDERER = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'test-support' ? [] : sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

interface Raise {
  code: string;
  status: number;
  where: string;
}

/**
 * Every place renderer/ names a code it answers with, and its status: `new ApiError(404, 'CODE'`,
 * the `[431, 'CODE', message]` triples of Node's parser errors (app.ts), the `invalid('CODE'`
 * field failures of store creation (always 400), and the wire module's PLATFORM_ERRORS.
 */
function raises(): Raise[] {
  const found: Raise[] = [];
  const patterns: [RegExp, (m: RegExpMatchArray) => number][] = [
    [/new ApiError\(\s*(\d{3}),\s*'([A-Z][A-Z0-9_]*)'/g, (m) => Number(m[1])],
    [/\[(\d{3}), '([A-Z][A-Z0-9_]*)', /g, (m) => Number(m[1])],
    [/\binvalid\('([A-Z][A-Z0-9_]*)'()/g, () => 400],
  ];
  for (const file of sources(RENDERER)) {
    if (file.endsWith(path.join('api', 'error-codes.ts'))) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const [pattern, status] of patterns) {
      for (const m of text.matchAll(pattern)) {
        const code = /^\d/.test(m[1]!) ? m[2]! : m[1]!;
        const line = text.slice(0, m.index).split('\n').length;
        found.push({ code, status: status(m), where: `${path.relative(RENDERER, file)}:${line}` });
      }
    }
  }
  for (const [code, { status }] of Object.entries(PLATFORM_ERRORS)) found.push({ code, status, where: 'hydrate/shared/platform-wire.ts' });
  return found;
}

describe('API error catalogue (error-codes.ts)', () => {
  const all = raises();

  it('finds the raising sites (the scan is not silently empty)', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(API_ERROR_CODE_LIST).toHaveLength(108);
  });

  it('has no dead entry: every catalogued code is raised somewhere in renderer/', () => {
    const raised = new Set(all.map((r) => r.code));
    expect(API_ERROR_CODE_LIST.filter((code) => !raised.has(code))).toEqual([]);
  });

  it('misses no code: everything raised is catalogued', () => {
    expect(all.filter((r) => !(r.code in API_ERROR_CODES)).map((r) => `${r.where} ${r.code}`)).toEqual([]);
  });

  it('each raise uses the catalogue status of its code', () => {
    const wrong = all.filter((r) => r.code in API_ERROR_CODES && API_ERROR_CODES[r.code as ApiErrorCode].status !== r.status);
    expect(wrong.map((r) => `${r.where} ${r.code} ${r.status}, catalogue ${API_ERROR_CODES[r.code as ApiErrorCode].status}`)).toEqual([]);
  });

  it('the generic failures (B0.2) answer with their catalogue status', () => {
    const generic = [
      GENERIC.notFound(),
      GENERIC.methodNotAllowed('GET'),
      GENERIC.badJson(),
      GENERIC.notObject(),
      GENERIC.unsupportedMediaType(),
      GENERIC.bodyTooLarge(),
      GENERIC.rateLimited(1),
      GENERIC.internal(),
      GENERIC.storeUnavailable(),
      GENERIC.shuttingDown(),
      GENERIC.badRequest('x'),
      GENERIC.badQuery(),
    ];
    expect(generic).toHaveLength(Object.keys(GENERIC).length);
    for (const error of generic) expect(error.status, error.code).toBe(API_ERROR_CODES[error.code].status);
  });

  it('gives every code an UPPER_SNAKE name, a real HTTP error status and a one-line meaning', () => {
    for (const [code, entry] of Object.entries(API_ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/);
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      expect(entry.meaning, code).toMatch(/^\S.{10,}\.$/);
      expect(entry.meaning, code).not.toContain('\n');
    }
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
// A test may read both sides: the islands' names of codes and the server's catalogue.
import { API_ERROR_CODES, type ApiErrorCode } from '../../renderer/api/error-codes.ts';
import { API_ERROR, apiErrorCode, hasApiError, type ApiErrorName } from './api-error-codes.ts';

const HYDRATE = fileURLToPath(new URL('..', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// A misspelt or renamed entry fails tsc here, before the runtime check below.
const catalogued: readonly ApiErrorCode[] = Object.values(API_ERROR);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the API error codes the islands and the admin app act on', () => {
  test('each is a code of the server catalogue, named by itself', () => {
    for (const [name, code] of Object.entries(API_ERROR)) {
      expect(code, name).toBe(name);
      expect(Object.hasOwn(API_ERROR_CODES, code), `${code} is not in renderer/api/error-codes.ts`).toBe(true);
    }
    expect(catalogued.length).toBe(Object.keys(API_ERROR).length);
  });

  test('with the status the islands expect of it (the checkout prices again after a 409; the cart page and the reset step read the 404 and 400)', () => {
    const status = (code: ApiErrorName) => API_ERROR_CODES[code].status;
    expect(status(API_ERROR.OUT_OF_STOCK)).toBe(409);
    expect(status(API_ERROR.ENTRY_NOT_FOUND)).toBe(404);
    expect([API_ERROR.RESET_LINK_INVALID, API_ERROR.RESET_LINK_USED, API_ERROR.RESET_LINK_EXPIRED].map(status)).toEqual([400, 400, 400]);
  });

  // admin-api.ts tests the status beside the code: a 401 for the ended session, a 403 for the stale token.
  test('with the status the admin app expects of it (the session ended: 401; a stale CSRF token: 403)', () => {
    const status = (code: ApiErrorName) => API_ERROR_CODES[code].status;
    expect([API_ERROR.ADMIN_REQUIRED, API_ERROR.OWNER_REQUIRED].map(status)).toEqual([401, 401]);
    expect(status(API_ERROR.OWNER_CSRF_FAIL)).toBe(403);
  });

  test("an error body's code, and whether it is one of some", () => {
    expect(apiErrorCode({ error: 'Cart entry not found.', code: 'ENTRY_NOT_FOUND' })).toBe('ENTRY_NOT_FOUND');
    for (const body of [null, undefined, 'ENTRY_NOT_FOUND', { code: 404 }, {}]) expect(apiErrorCode(body)).toBeNull();
    expect(hasApiError({ code: 'RESET_LINK_USED' }, API_ERROR.RESET_LINK_INVALID, API_ERROR.RESET_LINK_USED)).toBe(true);
    expect(hasApiError({ code: 'RESET_LINK_USED' }, API_ERROR.RESET_LINK_INVALID)).toBe(false);
    expect(hasApiError(null, API_ERROR.OUT_OF_STOCK)).toBe(false);
  });

  // The islands and the admin app name codes through API_ERROR only, so no comparison escapes
  // the check above. The platform clients' shared codes (platform-wire.ts, which the server
  // raises from) are the server's own, not a client's comparison.
  test('no module of hydrate/ (islands, shared, the admin app) spells a catalogued code as a string of its own', () => {
    const codes = new Set(Object.keys(API_ERROR_CODES));
    const found: string[] = [];
    for (const file of sources(HYDRATE)) {
      const rel = relative(ROOT, file);
      if (rel === 'hydrate/shared/platform-wire.ts' || rel === 'hydrate/shared/api-error-codes.ts') continue;
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/['"]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"]/g)) if (codes.has(match[1]!)) found.push(`${rel}: ${match[1]}`);
      for (const match of text.matchAll(/\bcode\s*[!=]==\s*['"][A-Z_]+['"]/g)) found.push(`${rel}: ${match[0]}`);
    }
    expect(found).toEqual([]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

// B9 (buy-now-pay-later modal fragments) and B29 (assets). These sit outside /api/, so
// their misses answer plain 404s rather than the JSON error body.

/** D6: the locale keys each provider serves (GB is Clearpay, every other country Afterpay). */
export const BNPL_LOCALES: Readonly<Record<string, readonly string[]>> = {
  afterpay: ['en_US', 'en_CA', 'fr_CA', 'en_AU', 'en_NZ'],
  clearpay: ['en_GB'],
};

const BNPL_TEXT: Readonly<Record<string, { heading: string; body: string; close: string }>> = {
  en: {
    heading: 'Pay in 4 interest-free payments',
    body: 'Check out with {provider} and pay in 4 interest-free payments, due every two weeks.',
    close: 'Close',
  },
  fr: {
    heading: 'Payez en 4 versements sans intérêts',
    body: 'Payez avec {provider} en 4 versements sans intérêts, dus toutes les deux semaines.',
    close: 'Fermer',
  },
};

export function bnplFragment(provider: string, localeKey: string): string | null {
  // Own keys only: `constructor` or `toString` named a function of Object.prototype (a 500).
  if (!Object.hasOwn(BNPL_LOCALES, provider) || !BNPL_LOCALES[provider]!.includes(localeKey)) return null;
  const language = localeKey.split('_')[0] ?? 'en';
  const text = BNPL_TEXT[language] ?? BNPL_TEXT.en!;
  const label = provider === 'clearpay' ? 'Clearpay' : 'Afterpay';
  return (
    `<div class="sf-bnpl-modal-content" data-provider="${provider}" lang="${language}">\n` +
    `  <h2>${text.heading}</h2>\n` +
    `  <p>${text.body.replace('{provider}', label)}</p>\n` +
    `  <button type="button" class="sf-bnpl-modal-close">${text.close}</button>\n` +
    `</div>\n`
  );
}

export interface StaticRouteOptions {
  /**
   * Directory of the built browser assets (`islands.js`, its `chunks/`, `captcha-local.js`),
   * as written by `hydrate/build.ts`; default `dist/assets` under the working directory.
   */
  assetsDir?: string;
}

const ASSET_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The file under `root` named by a request path, or null if it escapes `root` or is not an asset. */
export function assetFile(root: string, requested: string): string | null {
  if (requested.includes('\0') || requested.includes('\\')) return null;
  const resolved = path.resolve(root, '.' + path.posix.normalize('/' + requested));
  if (!resolved.startsWith(path.resolve(root) + path.sep)) return null;
  if (!ASSET_TYPES[path.extname(resolved)]) return null;
  return resolved;
}

/** The bytes of an asset file, or null when there is none or it cannot be read (a 404). */
export async function readAsset(file: string | null): Promise<Buffer | null> {
  if (!file) return null;
  try {
    return await fs.promises.readFile(file);
  } catch {
    return null;
  }
}

/** The asset routes' plain 404 (they sit outside /api/, so no JSON error body). */
export function assetNotFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).type('text/plain; charset=utf-8').send('Not found.');
}

export function registerStaticRoutes(app: FastifyInstance, options: StaticRouteOptions): void {
  const assetsDir = path.resolve(options.assetsDir ?? path.join(process.cwd(), 'dist', 'assets'));

  app.get('/static/bnpl/:provider/:file', async (request, reply) => {
    const { provider, file } = request.params as { provider: string; file: string };
    const fragment = file.endsWith('.html') ? bnplFragment(provider, file.slice(0, -'.html'.length)) : null;
    if (fragment === null) return reply.code(404).type('text/html; charset=utf-8').send('<p>Not found.</p>');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(fragment);
  });

  app.get('/assets/*', async (request, reply) => {
    const requested = (request.params as { '*': string })['*'] ?? '';
    const file = assetFile(assetsDir, requested);
    const body = await readAsset(file);
    if (!file || body === null) return assetNotFound(reply);
    // Chunks carry a content hash in their name; the entry points do not, so they revalidate.
    const hashed = requested.startsWith('chunks/');
    return reply
      .type(ASSET_TYPES[path.extname(file)] ?? 'application/octet-stream')
      .header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
      .send(body);
  });

  // Browsers ask for it on their own; a 404 would show up as a console error.
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
}

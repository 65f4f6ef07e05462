import fs from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { ApiError, GENERIC } from '../api/errors.ts';
import { sendError } from '../api/http.ts';
import { schemaCompiler } from '../api/route-kit.ts';
import { assetNotFound, readAsset } from '../api/routes/static-routes.ts';
import type { LoadedSite } from '../site/site-types.ts';

/**
 * The site folder's `images/` as a small image service (STOREFRONT D8, templates seed §9): a
 * picture is stored once per width variant as `<name>-<width>w.<ext>` (and optionally as
 * `<name>.<ext>`, the original), and answers at `/assets/site/images/<name>.<ext>`; the
 * `format` query picks the variant as the `sqs` image loader asks for it (`?format=500w`,
 * `srcset` candidates 100w … 2500w). A width with no file of its own gets the largest
 * stored variant under it (a service never upscales), or the smallest when all are wider;
 * no `format` (or `original`) gets the original, else the largest variant.
 */
export const SITE_IMAGES_PREFIX = '/assets/site/images/';

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
};

/**
 * A name carrying a content hash (`tee-1692d8b5.webp`, as fixtures/demo-images writes them)
 * never changes its bytes, so it is cached for good; any other name revalidates after an hour.
 */
const HASHED_NAME = /-[0-9a-f]{8,}\.[a-z]+$/;
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const PLAIN_IMAGE_CACHE = 'public, max-age=3600';

export interface StoredImage {
  /** Width → file, smallest first. */
  variants: Array<{ width: number; file: string }>;
  original: string | null;
}

const VARIANT_FILE = /^(.+)-(\d{1,5})w(\.[a-z]+)$/;

/** Public name → stored files, from the names in a site's `images/` folder. */
export function indexImages(dir: string, names: readonly string[]): Map<string, StoredImage> {
  const index = new Map<string, StoredImage>();
  const entry = (name: string) => {
    let image = index.get(name);
    if (!image) index.set(name, (image = { variants: [], original: null }));
    return image;
  };
  for (const name of names) {
    const ext = path.extname(name).toLowerCase();
    if (!IMAGE_TYPES[ext]) continue;
    const variant = VARIANT_FILE.exec(name);
    if (variant) entry(variant[1]! + variant[3]!).variants.push({ width: Number(variant[2]), file: path.join(dir, name) });
    else entry(name).original = path.join(dir, name);
  }
  for (const image of index.values()) image.variants.sort((a, b) => a.width - b.width);
  return index;
}

/** The file answering `format` (`<n>w`, `original` or none). */
export function pickImageFile(image: StoredImage, format: string | undefined): string | null {
  const { variants, original } = image;
  const asked = format === undefined || format === 'original' ? null : Number(format.slice(0, -1));
  if (asked === null) return original ?? variants.at(-1)?.file ?? null;
  let chosen = variants[0]?.file ?? original;
  for (const variant of variants) if (variant.width <= asked) chosen = variant.file;
  return chosen;
}

const indexes = new WeakMap<LoadedSite, Map<string, StoredImage>>();

/** The site's image index, read once per loaded site (a preview reload gives a new site). */
function siteImages(site: LoadedSite): Map<string, StoredImage> {
  let index = indexes.get(site);
  if (!index) {
    const dir = path.join(site.dir, 'images');
    let names: string[] = [];
    try {
      names = fs.readdirSync(dir);
    } catch {
      names = [];
    }
    index = indexImages(dir, names);
    indexes.set(site, index);
  }
  return index;
}

const IMAGE_QUERY = Type.Object({
  format: Type.Optional(Type.String({ pattern: '^([0-9]{1,5}w|original)$', description: 'Width variant (`500w`) or `original`.' })),
});

export function registerSiteImageRoute(app: FastifyInstance, getSite: () => LoadedSite): void {
  app.get(`${SITE_IMAGES_PREFIX}:file`, {
    schema: { summary: 'An image of the site folder, at a width variant.', querystring: IMAGE_QUERY },
    validatorCompiler: schemaCompiler(() => GENERIC.badRequest('Invalid image format.')) as FastifySchemaCompiler<FastifySchema>,
    errorHandler: (error, _request, reply) => {
      if (error instanceof ApiError) return sendError(reply, error);
      throw error;
    },
  }, async (request, reply) => {
    const name = (request.params as { file: string }).file;
    const image = siteImages(getSite()).get(name);
    const file = image ? pickImageFile(image, (request.query as { format?: string }).format) : null;
    const body = await readAsset(file);
    if (!file || body === null) return assetNotFound(reply);
    return reply
      .type(IMAGE_TYPES[path.extname(file).toLowerCase()]!)
      .header('cache-control', HASHED_NAME.test(name) ? IMMUTABLE_CACHE : PLAIN_IMAGE_CACHE)
      .send(body);
  });
}

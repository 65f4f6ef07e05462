import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { noteManyMembers, type Template } from '../../engine/index.ts';
import { rendererEngine } from '../platform/renderer-engine.ts';
import { checkSeedShape, seedFindings, type SeedData, type SeedFinding } from '../store/seed.ts';
import { digitalFileFindings } from '../orders/digital-downloads.ts';
import { BUILTIN_PARTIALS } from './builtin-templates.ts';
import { normalizePlatformContext } from '../../hydrate/shared/platform-context.ts';
import { parseSiteFeatures } from '../../hydrate/shared/feature-toggles.ts';
import { contentLimitFindings } from './content-limits.ts';
import { deeperThan, filePositions, jsonSyntaxError, pointerPositions } from './json-positions.ts';
import { NotUtf8Error, readTexts } from './read-texts.ts';
import { didYouMean, PRICE_MISSING } from './validate-site-files.ts';
import { CATALOG_VARIANT_KEYS as VARIANT_KEYS } from './schema/site-folder-schema.ts';
import { pointerToken } from '../store/json-pointer.ts';
import type {
  Block,
  CompiledTemplate,
  ContentEntry,
  ContentItem,
  ContentKind,
  LoadedSite,
  SiteConfig,
  SiteLoadErrorCode,
  SiteProblem,
} from './site-types.ts';

export class SiteLoadError extends Error {
  readonly code: SiteLoadErrorCode;
  readonly file: string;
  readonly line: number;
  readonly column: number;

  constructor(readonly problems: SiteProblem[]) {
    const first = problems[0]!;
    super(problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.code} ${p.message}`).join('\n'));
    this.name = 'SiteLoadError';
    this.code = first.code;
    this.file = first.file;
    this.line = first.line;
    this.column = first.column;
  }
}

/** Problems a refused start lists; the rest are counted (`quire check` prints every one). */
export const START_PROBLEMS = 20;

/**
 * What `npm start` prints when the folder does not load: each problem as `quire check` and the
 * preview's terminal name it (the file from where the folder was typed, `my-site/templates/
 * page.jsont:4:16`, the engine's own code first), then the command that frames them with their
 * hints. It said `templates/page.jsont:4:16 TEMPLATE_SYNTAX FORMATTER_UNKNOWN: …`, a path no
 * editor opened from where the author stood, and no way to the "did you mean 'money'".
 */
export function siteLoadFailure(problems: readonly SiteProblem[], shownDir: string, quire: string): string {
  const prefix = shownDir === '' || shownDir === '.' ? '' : shownDir;
  const lines = problems.slice(0, START_PROBLEMS).map((p) => {
    const file = prefix === '' || path.isAbsolute(p.file) ? p.file : path.join(prefix, p.file);
    // A template's syntax error already starts with the engine's code (`FORMATTER_UNKNOWN: …`).
    const words = p.code === 'TEMPLATE_SYNTAX' ? p.message : `${p.code}: ${p.message}`;
    return `  ${file}:${p.line}:${p.column} ${words}`;
  });
  if (problems.length > START_PROBLEMS) lines.push(`  … and ${problems.length - START_PROBLEMS} more`);
  const dir = shownDir === '' ? '.' : shownDir;
  const shell = /^[\w./@%+=:,-]+$/.test(dir) ? dir : `'${dir.replaceAll("'", `'\\''`)}'`;
  return (
    `cannot load the site ${dir} (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}\n` +
    `quire: \`${quire} check ${shell}\` frames each one with a hint; \`${quire} preview ${shell}\` shows them on the page while you fix them`
  );
}

export interface LoadSiteOptions {
  /** Keep templates with syntax errors (they render what they can) instead of failing. */
  allowTemplateErrors?: boolean;
}

/** Compiled templates by content hash, shared by every load, so a reload recompiles only what changed. */
const compiledByHash = new Map<string, Template>();
const MAX_COMPILED = 2000;

export function compileCached(name: string, source: string): { template: Template; hash: string } {
  const hash = crypto.createHash('sha256').update(name).update('\0').update(source).digest('hex');
  let template = compiledByHash.get(hash);
  if (!template) {
    // The renderer's engine: PLUGINS.md's formatters plus renderer-level ones (image-component).
    template = rendererEngine().compile(source, { name });
    compiledByHash.set(hash, template);
    if (compiledByHash.size > MAX_COMPILED) compiledByHash.delete(compiledByHash.keys().next().value as string);
  }
  return { template, hash };
}

const SLUG = /^[a-z0-9][a-z0-9-]*$/;
/** Paths the renderer answers itself; a page cannot take them. */
const RESERVED_SLUGS = new Set(['api', 'assets', 'static', 'cart', 'checkout', 'search', 'commerce', 'sitemap.xml']);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const bool = (value: unknown): boolean => value === true;
const num = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** The loader's code for each kind of catalogue finding (store/seed.ts `seedFindings`). */
const SEED_FINDING_CODES: Record<SeedFinding['kind'], SiteLoadErrorCode> = { id: 'SITE_DUPLICATE_ID', path: 'SITE_DUPLICATE_PATH', text: 'SITE_VALUE_INVALID', value: 'SITE_VALUE_INVALID' };

class Collector {
  readonly problems: SiteProblem[] = [];
  add(code: SiteLoadErrorCode, file: string, message: string, line = 1, column = 1): void {
    this.problems.push({ code, file, line, column, message });
  }
}

/**
 * Levels a value of a site file may nest. Content nests a few levels (a page, its blocks, a
 * block's fields); a deeper value is refused at load, with its position. Loaded, a catalogue
 * holding a value 50,000 levels deep stopped the start with "Cannot open the database: Maximum
 * call stack size exceeded" (the seed is hashed as JSON, which recurses).
 */
export const SITE_JSON_DEPTH = 100;

function parseJsonFile(text: string, file: string, problems: Collector): unknown {
  try {
    const value: unknown = JSON.parse(text);
    const deep = deeperThan(text, SITE_JSON_DEPTH);
    if (deep >= 0) {
      const { line, column } = lineColumn(text, deep);
      problems.add('SITE_LIMIT_EXCEEDED', file, `This value nests deeper than ${SITE_JSON_DEPTH} levels; a site file's values nest ${SITE_JSON_DEPTH} levels at most.`, line, column);
      return undefined;
    }
    // `{.if big}` on an object of 100,000 members listed all their names each time (engine/value.ts).
    noteManyMembers(value);
    return value;
  } catch (error) {
    const { line, column, message } = jsonSyntaxError(text);
    problems.add('SITE_JSON_INVALID', file, message, line, column);
    return undefined;
  }
}

function readText(dir: string, file: string, problems: Collector): string | null {
  return readAll(dir, [file], problems)[0]!;
}

/** `readText` of many files (`readTexts`); problems added in the files' order. */
function readAll(dir: string, files: readonly string[], problems: Collector): (string | null)[] {
  const texts = readTexts(files.map((file) => path.join(dir, file)));
  return texts.map((text, i) => {
    if (typeof text === 'string') return text;
    if (text instanceof NotUtf8Error) problems.add('SITE_READ_FAILED', files[i]!, text.message, text.line, text.column);
    else if (text.code !== 'ENOENT') problems.add('SITE_READ_FAILED', files[i]!, text.message);
    return null;
  });
}

async function listFiles(dir: string, sub: string, ext: string): Promise<string[]> {
  try {
    const names = await fs.readdir(path.join(dir, sub));
    return names.filter((name) => name.endsWith(ext)).sort().map((name) => `${sub}/${name}`);
  } catch {
    return [];
  }
}

export function normalizeConfig(raw: Json): SiteConfig {
  const lock = isObject(raw.lock) ? raw.lock : {};
  const reviews = isObject(raw.reviews) ? raw.reviews : {};
  const bnpl = isObject(raw.bnpl) ? raw.bnpl : null;
  const known = new Set([
    'title', 'locale', 'templateId', 'cartVersion', 'lock', 'trackingDisabled', 'navigation', 'reviews', 'bnpl',
    'minimumOrderSubtotalCents', 'flags', 'localizedStrings', 'homePage', 'platform', 'features', 'experiments',
  ]);
  const extra: Json = {};
  for (const [key, value] of Object.entries(raw)) if (!known.has(key)) extra[key] = value;
  const flags: Record<string, boolean> = {};
  if (isObject(raw.flags)) for (const [key, value] of Object.entries(raw.flags)) flags[key] = value === true;
  const strings: Record<string, string> = {};
  if (isObject(raw.localizedStrings)) {
    for (const [key, value] of Object.entries(raw.localizedStrings)) if (typeof value === 'string') strings[key] = value;
  }
  return {
    title: str(raw.title, 'Untitled site'),
    homePage: typeof raw.homePage === 'string' ? raw.homePage : null,
    locale: str(raw.locale, 'en-US'),
    templateId: str(raw.templateId, 'quire-default'),
    cartVersion: raw.cartVersion === 2 ? 2 : 1,
    lock: { enabled: bool(lock.enabled), password: str(lock.password, '') },
    trackingDisabled: bool(raw.trackingDisabled),
    // A storefront records page views and performance unless its site file says otherwise.
    platform:
      raw.platform === false
        ? null
        : normalizePlatformContext({ legacyTracking: true, clankerTracking: true, performance: true, ...(isObject(raw.platform) ? raw.platform : {}) }),
    navigation: Array.isArray(raw.navigation)
      ? raw.navigation.filter(isObject).map((link) => ({ title: str(link.title, ''), path: str(link.path, '/') }))
      : [],
    reviews: { nativeEnabled: bool(reviews.nativeEnabled), importedEnabled: bool(reviews.importedEnabled) },
    bnpl: bnpl && {
      afterPayAvailable: bool(bnpl.afterPayAvailable),
      afterPayMin: num(bnpl.afterPayMin, 100),
      afterPayMax: num(bnpl.afterPayMax, 200000),
      stripeAccountCountry: str(bnpl.stripeAccountCountry, 'US'),
      shopperLanguage: str(bnpl.shopperLanguage, 'en'),
    },
    minimumOrderSubtotalCents: typeof raw.minimumOrderSubtotalCents === 'number' ? Math.max(0, Math.trunc(raw.minimumOrderSubtotalCents)) : null,
    // Invalid entries are dropped here; validate-site-files reports them at their position.
    features: parseSiteFeatures({ features: raw.features, experiments: raw.experiments }).value,
    flags,
    localizedStrings: strings,
    extra,
  };
}

/** `at` gives a JSON pointer's position in the file; `pointer` is where the blocks' owner is (`''`, `/items/3`). */
type PointerAt = (pointer: string) => { line: number; column: number };

function blocksOf(value: unknown, file: string, where: string, problems: Collector, at: PointerAt = () => ({ line: 1, column: 1 }), pointer = ''): Block[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    const { line, column } = at(`${pointer}/blocks`);
    problems.add('SITE_SCHEMA_INVALID', file, `${where}.blocks must be an array`, line, column);
    return [];
  }
  const out: Block[] = [];
  value.forEach((block, index) => {
    if (!isObject(block) || typeof block.type !== 'string') {
      const { line, column } = at(`${pointer}/blocks/${index}${isObject(block) && block.type !== undefined ? '/type' : ''}`);
      problems.add('SITE_SCHEMA_INVALID', file, `${where}.blocks[${index}] needs a string "type"`, line, column);
      return;
    }
    out.push(block as Block);
  });
  return out;
}

/**
 * Problems of a page's access fields, which must fail closed: a `password` that is not text, or
 * a `memberArea` or `videoPaywall` that is not a boolean, was read as none, and the page was
 * served to every visitor (the schema check only logged it).
 */
function accessProblems(raw: Json, file: string, problems: Collector, at: (pointer: string) => { line: number; column: number }): void {
  const wrong = (key: string, what: string): void => {
    const { line, column } = at(`/${key}`);
    problems.add('SITE_SCHEMA_INVALID', file, `"${key}" must be ${what}: the page is not served unprotected`, line, column);
  };
  if (raw.password !== undefined && raw.password !== null && typeof raw.password !== 'string') wrong('password', 'text');
  for (const key of ['memberArea', 'videoPaywall']) if (raw[key] !== undefined && raw[key] !== null && typeof raw[key] !== 'boolean') wrong(key, 'true or false');
}

function normalizeEntry(raw: unknown, file: string, problems: Collector, text = ''): ContentEntry | null {
  if (!isObject(raw)) {
    problems.add('SITE_SCHEMA_INVALID', file, 'a content file must hold one JSON object');
    return null;
  }
  const base = path.basename(file, '.json');
  const kind: ContentKind = raw.kind === 'collection' || raw.kind === 'cover' ? raw.kind : 'page';
  const at = pointerPositions(text);
  if (raw.kind !== undefined && raw.kind !== kind) {
    const { line, column } = at('/kind');
    // The nearest kind for a slip (`"pgae"`), as unknown keys get theirs.
    const near = typeof raw.kind === 'string' ? didYouMean(raw.kind, ['page', 'collection', 'cover'], true) : null;
    problems.add('SITE_SCHEMA_INVALID', file, `"kind" must be "page", "collection" or "cover"${near ? ` (found ${JSON.stringify(raw.kind)}: did you mean "${near}"?)` : ''}`, line, column);
  }
  accessProblems(raw, file, problems, at);
  const slug = str(raw.slug, base);
  if (!SLUG.test(slug) || RESERVED_SLUGS.has(slug)) {
    const { line, column } = raw.slug === undefined ? { line: 1, column: 1 } : at('/slug');
    problems.add('SITE_SCHEMA_INVALID', file, `slug "${slug}" must match ${SLUG} and not be reserved`, line, column);
    return null;
  }
  const defaultType = kind === 'collection' ? 1 : kind === 'cover' ? 3 : 2;
  const pageType = Number.isInteger(raw.pageType) ? (raw.pageType as number) : defaultType;
  const items: ContentItem[] = [];
  // Each item problem at its place in the file (they were all at 1:1, the author left to count items).
  const addAt = (code: SiteLoadErrorCode, pointer: string, message: string) => {
    const { line, column } = at(pointer);
    problems.add(code, file, message, line, column);
  };
  if (raw.items !== undefined && !Array.isArray(raw.items)) addAt('SITE_SCHEMA_INVALID', '/items', '"items" must be an array');
  const seen = new Set<string>();
  (Array.isArray(raw.items) ? raw.items : []).forEach((item, index) => {
    if (!isObject(item)) return void addAt('SITE_SCHEMA_INVALID', `/items/${index}`, `items[${index}] must be an object`);
    const itemSlug = str(item.slug, str(item.id, ''));
    const slugAt = `/items/${index}${typeof item.slug === 'string' ? '/slug' : typeof item.id === 'string' ? '/id' : ''}`;
    if (!SLUG.test(itemSlug)) return void addAt('SITE_SCHEMA_INVALID', slugAt, `items[${index}] needs a slug matching ${SLUG}`);
    if (seen.has(itemSlug)) return void addAt('SITE_DUPLICATE_PATH', slugAt, `items[${index}]: slug "${itemSlug}" is used twice`);
    seen.add(itemSlug);
    items.push({
      id: str(item.id, `${slug}-${itemSlug}`),
      slug: itemSlug,
      title: str(item.title, itemSlug),
      blocks: blocksOf(item.blocks, file, `items[${index}]`, problems, at, `/items/${index}`),
      data: item,
    });
  });
  return {
    file,
    id: str(raw.id, slug),
    kind,
    slug,
    title: str(raw.title, slug),
    pageType,
    template: typeof raw.template === 'string' ? raw.template.replace(/\.jsont$/, '') : null,
    home: bool(raw.home),
    password: typeof raw.password === 'string' && raw.password !== '' ? raw.password : null,
    memberArea: bool(raw.memberArea),
    videoPaywall: bool(raw.videoPaywall),
    collectionType: kind === 'collection' ? str(raw.collectionType, 'collection') : null,
    blocks: blocksOf(raw.blocks, file, 'page', problems, at),
    items,
    data: raw,
  };
}

/**
 * Variants with no `priceCents`: the store read them as 0 and sold them for $0.00, while a
 * misspelled `"price": 25` was only a "did you mean" warning. Each variant is for sale (a
 * gift card's amount is its price too); one given away says so with `"priceCents": 0`. At the
 * misspelled key when there is one, with its hint; else at the variant.
 */
export function unpricedVariants(seed: SeedData): { pointer: string; message: string }[] {
  const out: { pointer: string; message: string }[] = [];
  (seed.products ?? []).forEach((product, p) =>
    (Array.isArray(product.variants) ? product.variants : []).forEach((variant, v) => {
      if (!isObject(variant) || variant.priceCents !== undefined) return;
      const pointer = `/products/${p}/variants/${v}`;
      const typo = Object.keys(variant).find((key) => !VARIANT_KEYS.includes(key) && didYouMean(key, VARIANT_KEYS, true) === 'priceCents');
      const hint = typo ? ` ("${typo}" is no key of a variant: did you mean "priceCents"?)` : '';
      out.push({ pointer: typo ? `${pointer}/${pointerToken(typo)}` : pointer, message: `products[${p}].variants[${v}] has no "priceCents"${hint}: ${PRICE_MISSING}` });
    }),
  );
  return out;
}

/** The store seed of a site: its `catalog.json`, or, for a folder without one, an empty store named after the folder (the API and pages still need a site row). */
export function siteSeed(site: LoadedSite): SeedData {
  const seed = site.catalog ?? { site: { websiteId: path.basename(site.dir) } };
  return withLegacyMinimum(seed, site.config.minimumOrderSubtotalCents);
}

/**
 * site.json's deprecated `minimumOrderSubtotalCents` (the schema warns about it) as the
 * store's rule when catalog.json's `site.settings.commerce` sets none, so the cart page and
 * checkout read one value. The loaded catalogue is shared: copied, never changed.
 */
function withLegacyMinimum(seed: SeedData, legacy: number | null): SeedData {
  const settings = seed.site.settings ?? {};
  if (legacy === null || settings.commerce?.minimumOrderSubtotalCents !== undefined) return seed;
  return { ...seed, site: { ...seed.site, settings: { ...settings, commerce: { ...settings.commerce, minimumOrderSubtotalCents: legacy } } } };
}

/**
 * Reads a site folder: `site.json`, `catalog.json`, `content/*.json`, `templates/*.jsont`,
 * `partials/*.jsont`, `styles.css` and `styles/*.css`. Every template is compiled here, once (cached by
 * content hash across loads). Bad JSON, a bad content file or (unless allowed) a template
 * syntax error throws a SiteLoadError listing every problem with its file and position.
 */
export async function loadSite(dir: string, options: LoadSiteOptions = {}): Promise<LoadedSite> {
  const root = path.resolve(dir);
  const problems = new Collector();
  const stat = await fs.stat(root).catch(() => null);
  if (!stat?.isDirectory()) throw new SiteLoadError([{ code: 'SITE_NOT_FOUND', file: root, line: 1, column: 1, message: 'no such site folder' }]);
  const hash = crypto.createHash('sha256');

  const siteText = readText(root, 'site.json', problems);
  hash.update(siteText ?? '');
  const siteRaw = siteText === null ? {} : parseJsonFile(siteText, 'site.json', problems);
  /** Parsed data files with their text, for the seed's content limits (content-limits.ts). */
  const dataFiles: { file: string; data: unknown; text: string }[] = [];
  if (siteText !== null && siteRaw !== undefined) dataFiles.push({ file: 'site.json', data: siteRaw, text: siteText });
  if (siteRaw !== undefined && !isObject(siteRaw)) problems.add('SITE_SCHEMA_INVALID', 'site.json', 'site.json must hold one JSON object');
  const config = normalizeConfig(isObject(siteRaw) ? siteRaw : {});
  const siteAt = pointerPositions(siteText ?? '');
  const lock = isObject(siteRaw) && isObject(siteRaw.lock) ? siteRaw.lock : null;
  if (lock && lock.enabled === true && (typeof lock.password !== 'string' || lock.password === '')) {
    // No password opens an empty one: the site would be locked to everyone for good.
    const { line, column } = siteAt('/lock');
    problems.add('SITE_SCHEMA_INVALID', 'site.json', 'lock.enabled needs a lock.password that is not empty', line, column);
  }
  if (lock && lock.enabled !== undefined && typeof lock.enabled !== 'boolean') {
    const { line, column } = siteAt('/lock/enabled');
    problems.add('SITE_SCHEMA_INVALID', 'site.json', 'lock.enabled must be true or false: the site is not served unlocked', line, column);
  }

  let catalog: SeedData | null = null;
  const catalogText = readText(root, 'catalog.json', problems);
  hash.update(catalogText ?? '');
  if (catalogText !== null) {
    const raw = parseJsonFile(catalogText, 'catalog.json', problems);
    if (raw !== undefined) {
      dataFiles.push({ file: 'catalog.json', data: raw, text: catalogText });
      const shapeProblems = checkSeedShape(raw);
      for (const message of shapeProblems) problems.add('SITE_SCHEMA_INVALID', 'catalog.json', message);
      if (shapeProblems.length === 0) {
        // What the store cannot take (an id twice, text it cannot hold) stops the folder here, at
        // its position, before the store is opened.
        const findings = seedFindings(raw as SeedData);
        // What a buyer would pay for and not get: a digital product's file missing or outside the
        // folder (orders/digital-downloads.ts), a variant without a price (sold at $0.00, where a
        // misspelled `price` was only a warning).
        const invalid = [...digitalFileFindings(root, raw as SeedData), ...unpricedVariants(raw as SeedData)];
        // The text's positions are read once, and only for a catalogue with something to place.
        const positionOf = findings.length + invalid.length > 0 ? pointerPositions(catalogText) : null;
        for (const finding of findings) {
          const { line, column } = positionOf!(finding.pointer);
          problems.add(SEED_FINDING_CODES[finding.kind], 'catalog.json', finding.message, line, column);
        }
        for (const finding of invalid) {
          const { line, column } = positionOf!(finding.pointer);
          problems.add('SITE_VALUE_INVALID', 'catalog.json', finding.message, line, column);
        }
        if (findings.length === 0 && invalid.length === 0) catalog = raw as SeedData;
      }
    }
  }

  const entries: ContentEntry[] = [];
  const bySlug = new Map<string, ContentEntry>();
  const contentFiles = await listFiles(root, 'content', '.json');
  const contentTexts = readAll(root, contentFiles, problems);
  // Names (without .json) of content files that could not be read as entries; their problems are reported already.
  const unreadContent = new Set<string>();
  for (const [i, file] of contentFiles.entries()) {
    const text = contentTexts[i]!;
    if (text === null) {
      unreadContent.add(path.basename(file, '.json'));
      continue;
    }
    hash.update(file).update(text);
    const raw = parseJsonFile(text, file, problems);
    if (raw === undefined) {
      unreadContent.add(path.basename(file, '.json'));
      continue;
    }
    dataFiles.push({ file, data: raw, text });
    const entry = normalizeEntry(raw, file, problems, text);
    if (!entry) {
      unreadContent.add(path.basename(file, '.json'));
      continue;
    }
    const taken = bySlug.get(entry.slug);
    if (taken) {
      // At the "slug" that repeats it (a slug not written is the file's name).
      const { line, column } = isObject(raw) && raw.slug !== undefined ? pointerPositions(text)('/slug') : { line: 1, column: 1 };
      problems.add('SITE_DUPLICATE_PATH', file, `slug "${entry.slug}" is already used by ${taken.file}`, line, column);
      continue;
    }
    bySlug.set(entry.slug, entry);
    entries.push(entry);
  }
  // Products collections list the store's products; the catalogue gives them their slugs.
  const positionOf = filePositions((file) => dataFiles.find((f) => f.file === file)!.text);
  for (const finding of contentLimitFindings(dataFiles)) {
    const { line, column } = positionOf(finding.file, finding.pointer);
    problems.add('SITE_LIMIT_EXCEEDED', finding.file, finding.message, line, column);
  }
  const homes = entries.filter((entry) => entry.home);
  // A content file that did not load may be the home page: a comma missing in content/home.json
  // also reported 'homePage "home" names no content file', sending the author to site.json.
  if (config.homePage && !bySlug.has(config.homePage) && !unreadContent.has(config.homePage)) {
    const { line, column } = siteAt('/homePage');
    problems.add('SITE_SCHEMA_INVALID', 'site.json', `homePage "${config.homePage}" names no content file`, line, column);
  }
  if (homes.length > 1) problems.add('SITE_SCHEMA_INVALID', homes[1]!.file, `only one content file may be the home page (also ${homes[0]!.file})`);

  const templates = new Map<string, CompiledTemplate>();
  const templateProblems: SiteProblem[] = [];
  const templateFiles = await listFiles(root, 'templates', '.jsont');
  const templateTexts = readAll(root, templateFiles, problems);
  for (const [i, file] of templateFiles.entries()) {
    const source = templateTexts[i]!;
    if (source === null) continue;
    hash.update(file).update(source);
    const name = path.basename(file, '.jsont');
    const compiled = compileCached(file, source);
    for (const d of compiled.template.diagnostics) {
      templateProblems.push({ code: 'TEMPLATE_SYNTAX', file, line: d.line, column: d.column, message: `${d.code}: ${d.message}` });
    }
    templates.set(name, { name, file, hash: compiled.hash, template: compiled.template });
  }

  const partials: Record<string, string> = { ...BUILTIN_PARTIALS };
  const partialFiles = await listFiles(root, 'partials', '.jsont');
  const partialTexts = readAll(root, partialFiles, problems);
  for (const [i, file] of partialFiles.entries()) {
    const source = partialTexts[i]!;
    if (source === null) continue;
    hash.update(file).update(source);
    const name = path.basename(file, '.jsont');
    if (name in BUILTIN_PARTIALS) {
      problems.add('SITE_SCHEMA_INVALID', file, `partial name "${name}" is reserved for the renderer`);
      continue;
    }
    // Partials compile lazily inside the engine (its cache is keyed by text); checking them
    // here surfaces syntax errors at load, like templates.
    for (const d of compileCached(file, source).template.diagnostics) {
      templateProblems.push({ code: 'TEMPLATE_SYNTAX', file, line: d.line, column: d.column, message: `${d.code}: ${d.message}` });
    }
    partials[name] = source;
  }

  // `styles.css`, then `styles/*.css` in name order, so a stylesheet is added as a file.
  let stylesheet = readText(root, 'styles.css', problems) ?? '';
  const styleFiles = await listFiles(root, 'styles', '.css');
  const styleTexts = readAll(root, styleFiles, problems);
  for (const [i, file] of styleFiles.entries()) stylesheet += `\n/* ${file} */\n${styleTexts[i] ?? ''}`;
  hash.update(stylesheet);

  if (!options.allowTemplateErrors) for (const problem of templateProblems) problems.problems.push(problem);
  // A folder refused for its content still lists its template errors: `quire check` showed
  // them only once the content was mended, one round of fixes later.
  if (problems.problems.length > 0) throw new SiteLoadError(options.allowTemplateErrors ? [...problems.problems, ...templateProblems] : problems.problems);
  return {
    dir: root,
    config,
    catalog,
    entries,
    bySlug,
    // A content file marked `home` wins over the site file's `homePage` slug.
    home: homes[0] ?? (config.homePage ? bySlug.get(config.homePage) ?? null : null),
    templates,
    partials,
    stylesheet,
    hash: hash.digest('hex'),
    problems: templateProblems,
  };
}

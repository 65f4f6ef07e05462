import fs from 'node:fs/promises';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { Source } from '../../engine/index.ts';
import { filePositions, jsonSpans, spanAt, type JsonSpan } from './json-positions.ts';
import { CATALOG_SCHEMA, CONTENT_SCHEMA, SITE_SCHEMA } from './schema/site-folder-schema.ts';
import { pointerPlace, pointerToken } from '../store/json-pointer.ts';
import { contentLimitFindings } from './content-limits.ts';
import { readTexts } from './read-texts.ts';
import { pluralKeyProblems } from '../../formatters/util/message-plural-keys.ts';

/*
 * Checks a site folder's data files (site.json, catalog.json, content/*.json) against the
 * published JSON Schemas (schema/*.schema.json), with file:line:col for each finding:
 * - a value of the wrong type (or outside its allowed values) is an error
 *   (SITE_VALUE_INVALID): the loader would ignore it or misread it;
 * - a key the schema does not know is a warning (SITE_KEY_UNKNOWN) with a "did you mean"
 *   (`price` -> `priceCents`). In closed objects (the catalogue's) every unknown key is
 *   reported, since the loader ignores it; in open ones (site.json, content files, items,
 *   blocks: other keys reach templates) only a likely typo of a known key.
 * - a top-level key the schema marks `deprecated` is a warning (SITE_KEY_DEPRECATED) saying
 *   what replaces it (the key's schema description): the loader still reads it, for now.
 * - a digital product (productType 2) with no `digitalFile` is a warning (SITE_VALUE_INVALID):
 *   its buyers would get no download. A file that is missing or outside the folder is the
 *   loader's error (orders/digital-downloads.ts).
 * - a product whose collectionId names no products collection in content/ (or that has none) is a
 *   warning (SITE_VALUE_INVALID): no page shows it (`pagelessProducts`).
 * Files that are not valid JSON are left to the loader, which reports their syntax error.
 * Used by `quire check`, the preview's overlay and the start log.
 */

export type SiteDiagnosticCode = 'SITE_KEY_UNKNOWN' | 'SITE_KEY_DEPRECATED' | 'SITE_VALUE_INVALID' | 'SITE_LIMIT_EXCEEDED';

export interface SiteDiagnostic {
  severity: 'error' | 'warning';
  code: SiteDiagnosticCode;
  /** Path relative to the site folder. */
  file: string;
  line: number;
  column: number;
  message: string;
}

type SchemaNode = {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  [key: string]: unknown;
};

/** The schema of a data file by its path in the folder; null for files with none. */
export function schemaForFile(file: string): TSchema | null {
  const normal = file.split(path.sep).join('/');
  if (normal === 'site.json') return SITE_SCHEMA;
  if (normal === 'catalog.json') return CATALOG_SCHEMA;
  if (/^content\/[^/]+\.json$/.test(normal)) return CONTENT_SCHEMA;
  return null;
}

let ajv: Ajv | null = null;
const validators = new Map<TSchema, ValidateFunction>();

function validatorFor(schema: TSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    // Unknown keys are this module's own walk (with suggestions), not Ajv's errors.
    ajv ??= new Ajv({ allErrors: true, strict: false });
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** Levenshtein distance, case-insensitive, stopping early once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  if (Math.abs(s.length - t.length) > limit) return limit + 1;
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      best = Math.min(best, current[j]!);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[t.length]!;
}

/**
 * The allowed key `key` was most likely meant to be, or null. A close spelling (edit
 * distance up to a third of the longer key, at least 2) counts; in a closed object, so does a
 * known key that starts with it (`price` -> `priceCents`, `qty` -> `qtyInStock`), the way
 * authors shorten names.
 */
export function didYouMean(key: string, allowed: readonly string[], closed: boolean): string | null {
  let best: string | null = null;
  let bestScore = Infinity;
  for (const candidate of allowed) {
    if (candidate === key || candidate === '$schema') continue;
    const limit = Math.max(2, Math.floor(Math.max(key.length, candidate.length) / 3));
    const distance = editDistance(key, candidate, limit);
    const prefix = closed && key.length >= 3 && candidate.toLowerCase().startsWith(key.toLowerCase());
    // A prefix match ranks after any close spelling.
    const score = distance <= limit && (closed || key.length >= 4) ? distance : prefix ? limit + 1 : Infinity;
    if (score < bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return best;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Unknown keys of `value` and below, walking the schema beside the data (properties, items, additionalProperties). */
function unknownKeys(value: unknown, schema: SchemaNode | undefined, pointer: string, out: { pointer: string; key: string; suggestion: string | null }[]): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    if (schema.items && typeof schema.items === 'object') value.forEach((item, index) => unknownKeys(item, schema.items, `${pointer}/${index}`, out));
    return;
  }
  if (!isObject(value)) return;
  const properties = schema.properties ?? {};
  const allowed = Object.keys(properties);
  const closed = schema.additionalProperties === false;
  // TypeBox writes a record (string keys of one schema, e.g. flags) as patternProperties.
  const pattern = isObject(schema.patternProperties) ? (Object.values(schema.patternProperties)[0] as SchemaNode | undefined) : undefined;
  const extraSchema = pattern ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
  for (const [key, child] of Object.entries(value)) {
    const childPointer = `${pointer}/${pointerToken(key)}`;
    if (Object.hasOwn(properties, key)) {
      unknownKeys(child, properties[key], childPointer, out);
      continue;
    }
    // A record's keys are free, and so are those of an open object that names none.
    if (pattern || extraSchema || (allowed.length === 0 && !closed)) {
      unknownKeys(child, extraSchema, childPointer, out);
      continue;
    }
    const suggestion = didYouMean(key, allowed, closed);
    if (closed || suggestion) out.push({ pointer: childPointer, key, suggestion });
  }
}

/** Why a variant needs its price, said by the schema check and the loader alike. */
export const PRICE_MISSING = 'it would sell for $0.00 (write "priceCents": 0 to sell it free)';

function ajvMessage(error: ErrorObject, value: unknown): string {
  const at = pointerPlace(error.instancePath) || 'the file';
  // A key failing `propertyNames` (feature toggle names): name the key, not only its object.
  if (error.propertyName !== undefined) return `${at}: the name ${JSON.stringify(error.propertyName)} ${error.message ?? 'is not valid'}`;
  if (error.keyword === 'required') {
    // A key needed by another's value (the donate page's `donation`, by `pageType` 203).
    const missing = (error.params as { missingProperty: string }).missingProperty;
    if (missing === 'priceCents') return `${at} has no "priceCents": ${PRICE_MISSING}`;
    const because = error.schemaPath.includes('/then/') ? ' for its pageType' : '';
    return `${at} needs "${(error.params as { missingProperty: string }).missingProperty}"${because}`;
  }
  if (error.keyword === 'enum') return `${at} must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}, found ${JSON.stringify(value)}`;
  if (error.keyword === 'type') {
    const found = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
    return `${at} must be ${String((error.params as { type: string | string[] }).type).replace(',', ' or ')}, found ${found}`;
  }
  return `${at} ${error.message ?? 'is not valid'}`;
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    value = Array.isArray(value) ? value[Number(token)] : isObject(value) ? value[token] : undefined;
  }
  return value;
}

/** The findings for one data file's text; `file` (relative to the folder) picks the schema. */
export function validateSiteText(file: string, text: string, schema: TSchema | null = schemaForFile(file)): SiteDiagnostic[] {
  if (!schema) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  // Positions only for a file with findings: most files have none, and the spans cost a map per object.
  let spans: JsonSpan | null = null;
  let lines: Source | null = null;
  const diagnostics: SiteDiagnostic[] = [];
  const at = (pointer: string, useKey: boolean) => {
    const span = spanAt((spans ??= jsonSpans(text)!), pointer);
    return (lines ??= new Source(text)).position(useKey && span.keyOffset !== undefined ? span.keyOffset : span.offset);
  };

  const validate = validatorFor(schema);
  if (!validate(data)) {
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      // `if` only sums up its `then`'s own errors, which are reported where they are.
      if (error.keyword === 'additionalProperties' || error.keyword === 'if') continue;
      // One finding per place: a failed `type` also fails its enum or minimum there.
      if (seen.has(error.instancePath)) continue;
      seen.add(error.instancePath);
      const value = valueAt(data, error.instancePath);
      const { line, column } = at(error.instancePath, false);
      diagnostics.push({ severity: 'error', code: 'SITE_VALUE_INVALID', file, line, column, message: ajvMessage(error, value) });
    }
  }
  // A locale that is no language tag (`@@`, `en_US`) was printed into every page's <html lang>.
  if (file === 'site.json' && isObject(data) && typeof data.locale === 'string' && !isLanguageTag(data.locale)) {
    const { line, column } = at('/locale', false);
    diagnostics.push({ severity: 'error', code: 'SITE_VALUE_INVALID', file, line, column, message: `locale "${data.locale}" is not a language tag (BCP 47, such as en-US or fr-FR)` });
  }
  // Seed §5: a message's plural keys are =N or categories of the site's locale.
  if (file === 'site.json' && isObject(data) && isObject(data.localizedStrings)) {
    const locale = typeof data.locale === 'string' ? data.locale : 'en-US';
    for (const [key, pattern] of Object.entries(data.localizedStrings)) {
      if (typeof pattern !== 'string') continue;
      for (const message of pluralKeyProblems(pattern, locale)) {
        const { line, column } = at(`/localizedStrings/${pointerToken(key)}`, false);
        diagnostics.push({ severity: 'warning', code: 'SITE_VALUE_INVALID', file, line, column, message: `localizedStrings.${key}: ${message}` });
      }
    }
  }
  // A digital product sold without its file: its buyers would pay and get a link that serves
  // nothing (orders/digital-downloads.ts). A warning: the product may be on sale before the file is ready.
  if (file === 'catalog.json' && isObject(data) && Array.isArray(data.products)) {
    data.products.forEach((product, index) => {
      if (!isObject(product) || product.productType !== 2 || product.digitalFile !== undefined) return;
      const { line, column } = at(`/products/${index}/productType`, false);
      diagnostics.push({ severity: 'warning', code: 'SITE_VALUE_INVALID', file, line, column, message: `products[${index}] is digital (productType 2) but names no digitalFile: its buyers get no download` });
    });
  }
  if (isObject(data)) {
    for (const [key, node] of Object.entries((schema as SchemaNode).properties ?? {})) {
      if (node.deprecated !== true || !Object.hasOwn(data, key)) continue;
      const { line, column } = at(`/${pointerToken(key)}`, true);
      diagnostics.push({ severity: 'warning', code: 'SITE_KEY_DEPRECATED', file, line, column, message: `"${key}" is deprecated: ${String(node.description)}` });
    }
  }
  const unknown: { pointer: string; key: string; suggestion: string | null }[] = [];
  unknownKeys(data, schema as SchemaNode, '', unknown);
  for (const { pointer, key, suggestion } of unknown) {
    const parent = pointerPlace(pointer.slice(0, pointer.lastIndexOf('/')));
    const { line, column } = at(pointer, true);
    const hint = suggestion ? ` (did you mean "${suggestion}"?)` : '';
    const place = parent ? ` in ${parent}` : '';
    diagnostics.push({ severity: 'warning', code: 'SITE_KEY_UNKNOWN', file, line, column, message: `unknown key "${key}"${place}${hint}` });
  }
  return diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
}

function isLanguageTag(locale: string): boolean {
  try {
    return Intl.getCanonicalLocales(locale).length === 1;
  } catch {
    return false;
  }
}

/**
 * Validates site.json, catalog.json and content/*.json of the folder `dir` (those present)
 * against the published schemas; findings in file order, then by position.
 */
export async function validateSiteFiles(dir: string): Promise<SiteDiagnostic[]> {
  const files = ['site.json', 'catalog.json'];
  const content = await fs.readdir(path.join(dir, 'content')).catch(() => [] as string[]);
  for (const name of content.filter((entry) => entry.endsWith('.json')).sort()) files.push(`content/${name}`);
  const diagnostics: SiteDiagnostic[] = [];
  const texts = new Map<string, string>();
  const parsed: { file: string; data: unknown }[] = [];
  const read = readTexts(files.map((file) => path.join(dir, file)));
  for (const [i, file] of files.entries()) {
    const text = read[i];
    // The loader reports a file it cannot read.
    if (typeof text !== 'string') continue;
    for (const d of validateSiteText(file, text)) diagnostics.push(d);
    try {
      parsed.push({ file, data: JSON.parse(text) });
      texts.set(file, text);
    } catch {
      // The loader reports the syntax error.
    }
  }
  // The seed's content limits (content-limits.ts), which span files (galleries per site).
  const positionOf = filePositions((file) => texts.get(file)!);
  for (const finding of contentLimitFindings(parsed)) {
    const { line, column } = positionOf(finding.file, finding.pointer);
    diagnostics.push({ severity: 'error', code: 'SITE_LIMIT_EXCEEDED', file: finding.file, line, column, message: finding.message });
  }
  for (const finding of pagelessProducts(parsed)) {
    const { line, column } = positionOf('catalog.json', finding.pointer);
    diagnostics.push({ severity: 'warning', code: 'SITE_VALUE_INVALID', file: 'catalog.json', line, column, message: finding.message });
  }
  return diagnostics.sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file) || a.line - b.line || a.column - b.column);
}

/**
 * Products that no page shows: a product's page lives in the products collection (a content
 * file, `kind: "collection"`, `collectionType: "products"`) whose `id` its `collectionId` names.
 * An owner who added a product with a mistyped or missing collectionId found it in the admin
 * and nowhere on the shop, with nothing said. Only when the folder has a products collection
 * (a site of product blocks alone has none), and a product that a `product` block shows is fine.
 */
function pagelessProducts(parsed: readonly { file: string; data: unknown }[]): { pointer: string; message: string }[] {
  const catalog = parsed.find((entry) => entry.file === 'catalog.json')?.data;
  if (!isObject(catalog) || !Array.isArray(catalog.products)) return [];
  const collections: string[] = [];
  const inBlocks = new Set<string>();
  for (const { file, data } of parsed) {
    if (!file.startsWith('content/') || !isObject(data)) continue;
    const slug = typeof data.slug === 'string' ? data.slug : path.basename(file, '.json');
    if (data.kind === 'collection' && data.collectionType === 'products') collections.push(typeof data.id === 'string' ? data.id : slug);
    const blockLists = [data.blocks, ...(Array.isArray(data.items) ? data.items.map((item) => (isObject(item) ? item.blocks : undefined)) : [])];
    for (const blocks of blockLists) {
      if (!Array.isArray(blocks)) continue;
      for (const block of blocks) if (isObject(block) && block.type === 'product' && typeof block.productId === 'string') inBlocks.add(block.productId);
    }
  }
  if (collections.length === 0) return [];
  const known = collections.map((id) => `"${id}"`).join(', ');
  const findings: { pointer: string; message: string }[] = [];
  catalog.products.forEach((product, index) => {
    if (!isObject(product) || (typeof product.id === 'string' && inBlocks.has(product.id))) return;
    const name = typeof product.title === 'string' ? ` ("${product.title}")` : '';
    if (product.collectionId === undefined) {
      findings.push({ pointer: `/products/${index}`, message: `products[${index}]${name} names no collectionId, so no page shows it; set it to a products collection's id (${known})` });
    } else if (typeof product.collectionId === 'string' && !collections.includes(product.collectionId)) {
      const hint = didYouMean(product.collectionId, collections, true);
      findings.push({
        pointer: `/products/${index}/collectionId`,
        message: `products[${index}]${name} is in collection "${product.collectionId}", which no products collection in content/ has, so no page shows it${hint ? ` (did you mean "${hint}"?)` : ` (the products collections: ${known})`}`,
      });
    }
  });
  return findings;
}

/** `catalog.json:12:9 warning SITE_KEY_UNKNOWN unknown key "price" in products[0].variants[0] (did you mean "priceCents"?)` */
export function formatSiteDiagnostic(diagnostic: SiteDiagnostic): string {
  return `${diagnostic.file}:${diagnostic.line}:${diagnostic.column} ${diagnostic.severity} ${diagnostic.code} ${diagnostic.message}`;
}

/**
 * Findings a server start logs; the rest are counted in one line that points to `quire check`.
 * 180,000 unknown keys in a 2.2 MB catalog.json were as many log lines (~0.8 s of a 9.7 s start).
 */
export const LOGGED_FINDINGS = 100;

/** The log lines of a start's findings (`formatSiteDiagnostic`), at most `max` of them and a count of the rest. */
export function findingLines(findings: readonly SiteDiagnostic[], siteDir: string, max = LOGGED_FINDINGS): string[] {
  const lines = findings.slice(0, max).map(formatSiteDiagnostic);
  if (findings.length > max) lines.push(`${findings.length - max} more findings not logged: \`quire check ${siteDir}\` lists every one`);
  return lines;
}

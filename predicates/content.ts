// Content predicates (PLUGINS §7): 20 fixed predicates plus the gallery-option, record-type,
// promoted-block and background-source families, generated from the §16 tables so that
// every name is spelled once. "Node" is the current frame's node; names marked "resolve"
// in the spec walk the scope stack from the current frame outward.

import { expectArgs, asBoolean, asLong, isNumber, isObject, isTruthy, numberOf, textOf } from '../engine/plugin-api.ts';
import type { BindContext, PluginContext, PredicateSpec, Ref, Value } from '../engine/plugin-api.ts';
import {
  BACKGROUND_SOURCES,
  COLLECTION_TYPE_PAGE,
  COLLECTION_TYPE_TEMPLATE_PAGE,
  FOLDER_BEHAVIOR_INDEX,
  FOLDER_BEHAVIOR_REDIRECT,
  GALLERY_BOOLEAN_OPTIONS,
  GALLERY_SELECT_OPTIONS,
  PROMOTED_BLOCK_WORDS,
  PROMOTED_RECORD_TYPES,
  RECORD_TYPES,
} from '../formatters/util/content-enums.ts';
import { resolveZone, tabledDay } from '../formatters/util/cldr.ts';
import { field } from '../formatters/util/image.ts';
import { sizeOf } from '../formatters/util/size-of.ts';

function ref(ctx: BindContext, text: string): Ref {
  const r = ctx.parseRef(text);
  if (r === null) throw new Error(`internal: bad built-in reference '${text}'`);
  return r;
}

/** A predicate over the node only. */
function onNode(name: string, test: (node: Value) => boolean): PredicateSpec<undefined> {
  return { name, test: (node) => test(node) };
}

/** A predicate over a name resolved from the current frame outward. */
function onResolved(name: string, path: string, test: (resolved: Value) => boolean): PredicateSpec<Ref> {
  return {
    name,
    bind: (_args, ctx) => ref(ctx, path),
    test: (_node, r, ctx: PluginContext) => test(ctx.resolve(r)),
  };
}

// ---- same-day? ---------------------------------------------------------------------------

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** A calendar-date formatter for a zone; an id the host does not know falls back to UTC. */
function dayFormat(zone: string): Intl.DateTimeFormat {
  let f = dayFormats.get(zone);
  if (f === undefined) {
    const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', era: 'short' };
    try {
      f = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone });
    } catch {
      f = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
    }
    if (dayFormats.size < 256) dayFormats.set(zone, f);
  }
  return f;
}

function calendarDate(ms: number, f: Intl.DateTimeFormat): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? 'invalid' : f.format(d);
}

function sameDay(node: Value, timeZone: Value): boolean {
  const zone = timeZone === undefined || timeZone === null ? 'UTC' : textOf(timeZone) || 'UTC';
  const start = asLong(field(node, 'startDate'));
  const end = asLong(field(node, 'endDate'));
  // The days from the table the date formatters read, so the predicate and the dates a page
  // prints agree; Intl where that table does not answer for certain. (Formatting both dates
  // with Intl cost ~1.5 µs a date, 3 µs an event of a list.) An id the table's library does
  // not know resolves to `UTC` (the library's own UTC is `Etc/UTC`): Intl may know it.
  const zoneId = resolveZone(zone);
  if (zoneId !== 'UTC') {
    const a = tabledDay(zoneId, start);
    const b = a === null ? null : tabledDay(zoneId, end);
    if (b !== null) return a === b;
  }
  const f = dayFormat(zone);
  return calendarDate(start, f) === calendarDate(end, f);
}

// ---- excerpt? ----------------------------------------------------------------------------

/** Java's `\s` plus the no-break and zero-width spaces editors leave in empty excerpts. */
function isBlankChar(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x200b;
}

/**
 * Whether `removeTags(text)` (formatters/util/image.ts) holds a character that is not blank,
 * found in place: the characters it keeps are those read outside a tag, other than `<` and
 * `>` (a `>` adds a space, which is blank). Building the stripped text first was 8% of
 * rendering index-page over fresh excerpts, and the answer is nearly always its first letter.
 */
function hasExcerpt(node: Value): boolean {
  const excerpt = field(node, 'excerpt');
  const html = field(excerpt, 'html');
  const text = typeof html === 'string' ? html : typeof excerpt === 'string' ? excerpt : '';
  let inTag = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3c /* < */) inTag = true;
    else if (c === 0x3e /* > */) inTag = false;
    else if (!inTag && !isBlankChar(c)) return true;
  }
  return false;
}

// ---- fixed predicates (§7.1) -------------------------------------------------------------

function hasMainImage(v: Value): boolean {
  return isTruthy(field(v, 'mainImageId')) || isTruthy(field(v, 'systemDataId'));
}

const fixed: PredicateSpec<any>[] = [
  onResolved('calendar-view?', 'calendarView', (v) => asBoolean(v)),
  onNode('child-images?', (node) => {
    const items = field(node, 'items');
    return Array.isArray(items) && items.length > 0 && hasMainImage(items[0]);
  }),
  onResolved('clickable?', 'folderBehavior', (v) => {
    if (v === undefined) return true;
    const b = asLong(v);
    return b === FOLDER_BEHAVIOR_INDEX || b === FOLDER_BEHAVIOR_REDIRECT;
  }),
  onNode('collection?', (node) => isTruthy(field(node, 'collection'))),
  onNode('collection-page?', (node) => {
    const type = field(field(node, 'collection'), 'type');
    return type !== undefined && asLong(type) === COLLECTION_TYPE_PAGE;
  }),
  onNode('collection-template-page?', (node) => {
    const collection = field(node, 'collection');
    const type = collection === undefined ? field(node, 'type') : field(collection, 'type');
    return type !== undefined && asLong(type) === COLLECTION_TYPE_TEMPLATE_PAGE;
  }),
  {
    name: 'collectionTypeNameEquals?',
    requiresArgs: true,
    bind(args: string[], ctx: BindContext): { typeName: Ref; expected: string } {
      expectArgs(args, 1);
      return { typeName: ref(ctx, 'typeName'), expected: args[0] };
    },
    test: (_node, b: { typeName: Ref; expected: string }, ctx) => textOf(ctx.resolve(b.typeName)) === b.expected,
  },
  onNode('excerpt?', hasExcerpt),
  onNode('external-link?', (node) => isTruthy(field(node, 'externalLink'))),
  onNode('folder?', (node) => isTruthy(field(field(node, 'collection'), 'folder'))),
  onResolved('gallery-meta?', 'options', (o) => isTruthy(field(o, 'controls')) || isTruthy(field(o, 'indicators'))),
  { name: 'has-multiple?', test: (node, _b, ctx) => sizeOf(node, ctx) > 1 },
  onNode('index?', (node) => {
    const c = field(node, 'collection');
    if (!isObject(c) || !isTruthy(field(c, 'folder'))) return false;
    const behavior = field(c, 'folderBehavior');
    return isNumber(behavior) && numberOf(behavior) === FOLDER_BEHAVIOR_INDEX;
  }),
  onNode('location?', (node) => {
    const loc = field(node, 'location');
    return field(loc, 'mapLat') !== undefined && field(loc, 'mapLng') !== undefined;
  }),
  onNode('main-image?', hasMainImage),
  onNode('passthrough?', (node) => isTruthy(field(node, 'passthrough')) && textOf(field(node, 'sourceUrl')).length > 0),
  onNode('redirect?', (node) => asLong(field(node, 'folderBehavior')) === FOLDER_BEHAVIOR_REDIRECT),
  {
    name: 'same-day?',
    bind: (_args: string[], ctx: BindContext) => ref(ctx, 'website.timeZone'),
    test: (node, zone: Ref, ctx) => sameDay(node, ctx.resolve(zone)),
  },
  onNode('serviceNameEmail?', (node) => textOf(field(node, 'serviceName')) === 'email'),
  onNode('show-past-events?', (node) => textOf(field(node, 'showPastOrUpcomingEvents')) === 'past'),
];

// ---- generated families (§7.2–7.5) -------------------------------------------------------

const gallerySelect = GALLERY_SELECT_OPTIONS.flatMap(({ option, values }) =>
  values.map((value) =>
    onResolved(`gallery-${option}-${value}?`, 'options', (o) => {
      const v = field(o, option);
      return v !== undefined && textOf(v) === value;
    }),
  ),
);

const galleryBoolean = GALLERY_BOOLEAN_OPTIONS.map((option) =>
  onResolved(`gallery-${option}?`, 'options', (o) => {
    const v = field(o, option);
    return v !== undefined && asBoolean(v);
  }),
);

const promotedCodes = new Set(PROMOTED_RECORD_TYPES.map((p) => p.code));

const recordType = RECORD_TYPES.filter((t) => !promotedCodes.has(t.code)).map((t) =>
  onNode(`${t.name}?`, (node) => asLong(field(node, 'recordType')) === t.code),
);

const promotedRecordType = PROMOTED_RECORD_TYPES.map((p) =>
  onNode(`${p.predicate}?`, (node) => asLong(field(node, 'recordType')) === p.code || textOf(field(node, 'promotedBlockType')) === p.word),
);

const promotedBlock = PROMOTED_BLOCK_WORDS.map((word) =>
  onNode(`promoted${word.toUpperCase()}?`, (node) => textOf(field(node, 'promotedBlockType')) === word),
);

const backgroundSource = BACKGROUND_SOURCES.map((s) =>
  onNode(`background-source-${s.name}?`, (node) => asLong(field(node, 'backgroundSource')) === s.code),
);

export const contentPredicates: PredicateSpec<any>[] = [
  ...fixed,
  ...gallerySelect,
  ...galleryBoolean,
  ...recordType,
  ...promotedRecordType,
  ...promotedBlock,
  ...backgroundSource,
];

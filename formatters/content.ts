// Content formatters (PLUGINS §6): images, sizes, colours, item classes, durations. Markup
// is byte-exact with the reference; values inserted unescaped use the node's text (§1.4),
// escaped ones the `htmlattr` rules.

import {
  ArgsError,
  asDouble,
  asLong,
  expectArgs,
  isNumber,
  isObject,
  isTruthy,
  JavaError,
  jsNumber,
  textOf,
  textOrEmpty,
} from '../engine/plugin-api.ts';
import type { BindContext, FormatterSpec, PluginContext, Ref, TemplateHandle, Value } from '../engine/plugin-api.ts';
import { AUDIO_PLAYER_TEMPLATE } from './templates/audio-player.ts';
import { listSlug } from './util/class-slug.ts';
import { listEnd, listLength, listStart, listText } from './util/text-list.ts';
import { RECORD_TYPE_STORE_ITEM } from './util/content-enums.ts';
import { altText, escapeAttr, field, focalPoint, imageMeta, imageMetaWithAlt } from './util/image.ts';
import { javaIntCast, parseJavaIntOrThrow } from './util/java-int.ts';
import { parseJavaInt } from './util/java-text.ts';
import { saleClasses } from './util/product.ts';

/** Refs resolved from the formatter's scope outward, parsed once per template. */
function ref(ctx: BindContext, text: string): Ref {
  const r = ctx.parseRef(text);
  if (r === null) throw new Error(`internal: bad built-in reference '${text}'`);
  return r;
}

interface BlockTypeBound {
  readonly blockType: Ref;
}

const bindBlockType = (_args: string[], ctx: BindContext): BlockTypeBound => ({ blockType: ref(ctx, 'blockType') });

// ---- sizes (`WxH` text) ------------------------------------------------------------------

const INVALID_SOURCE = "Invalid source parameter. Pass in 'originalSize'.";

/**
 * The two pieces of `WxH`, or null when there are not exactly two: the text split at every
 * `x`, empty pieces dropped (as `split('x').filter(nonEmpty)`, without its two arrays and
 * callback: 3% of rendering the fresh gallery page).
 */
function dimensionPieces(v: Value): readonly [string, string] | null {
  const s = textOf(v);
  let first: string | null = null;
  let second: string | null = null;
  let start = 0;
  for (;;) {
    const x = s.indexOf('x', start);
    const end = x < 0 ? s.length : x;
    if (end > start) {
      if (first === null) first = s.slice(start, end);
      else if (second === null) second = s.slice(start, end);
      else return null;
    }
    if (x < 0) break;
    start = x + 1;
  }
  return second === null ? null : [first as string, second];
}

/** `a × (n ÷ b)` in 32-bit float, truncated to int as Java's cast does. */
function scaleFloat(a: number, n: number, b: number): number {
  const ratio = Math.fround(Math.fround(n) / Math.fround(b));
  return javaIntCast(Math.fround(Math.fround(a) * ratio));
}

function thumbnailBucket(w: number): string {
  if (w > 1000) return '1500w';
  if (w > 750) return '1000w';
  if (w > 500) return '750w';
  if (w > 300) return '500w';
  if (w > 100) return '300w';
  return '100w';
}

interface SizeBound {
  readonly size: number;
}

function bindSize(args: string[]): SizeBound {
  // The engine reports FORMATTER_NEEDS_ARGS first; this guards direct callers.
  if (args.length === 0) throw new ArgsError('Not enough args. At least 1 expected');
  const size = parseJavaInt(args[0]);
  // The reference fails compilation with a raw NumberFormatException here.
  if (size === null) throw new ArgsError(`For input string: "${args[0]}"`);
  return { size };
}

function dimensionFormatter(name: string, pick: 0 | 1): FormatterSpec<undefined> {
  return {
    name,
    pure: true,
    apply(value) {
      const pieces = dimensionPieces(value);
      return pieces === null ? INVALID_SOURCE : parseJavaIntOrThrow(pieces[pick]);
    },
  };
}

function resizedFormatter(name: string, fromHeight: boolean, bucket: boolean): FormatterSpec<SizeBound> {
  return {
    name,
    pure: true,
    requiresArgs: true,
    bind: bindSize,
    apply(value, bound) {
      if (bucket && !fromHeight) return thumbnailBucket(bound.size);
      const pieces = dimensionPieces(value);
      if (pieces === null) return INVALID_SOURCE;
      const w = parseJavaIntOrThrow(pieces[0]);
      const h = parseJavaIntOrThrow(pieces[1]);
      const result = fromHeight ? scaleFloat(w, bound.size, h) : scaleFloat(h, bound.size, w);
      return bucket ? thumbnailBucket(result) : result;
    },
  };
}

// ---- colours -----------------------------------------------------------------------------

const HEX_COLOR = /^[0-9a-fA-F]{3,6}$/;

function colorWeight(value: Value): Value {
  const hex = textOf(value).replaceAll('#', '');
  if (!HEX_COLOR.test(hex)) return undefined;
  let n = 0;
  if (hex.length === 3) n = parseInt(hex[0] + hex[0] + hex[1] + hex[1] + hex[2] + hex[2], 16);
  else if (hex.length === 6) n = parseInt(hex, 16);
  return n > 0x7fffff ? 'light' : 'dark';
}

const COLOR_POSITIONS = ['topLeft', 'topRight', 'bottomLeft', 'bottomRight', 'center'] as const;
// The members read and the attribute openings written, made once: a key built per call is a
// new string, which a property read must hash and look up before it can use it.
const COLOR_KEYS = COLOR_POSITIONS.map((p) => p + 'Average');
const COLOR_ATTRIBUTE_OPENINGS = COLOR_POSITIONS.map((p) => 'data-color-' + p + '="#');
const VIDEO_COLOR_ATTRIBUTE_OPENINGS = COLOR_POSITIONS.map((p) => 'data-color-' + p.toLowerCase() + '="#');

interface ImageColorBound {
  readonly position: string | null;
  /** `<position>Average`, the member read for the position. */
  readonly key: string;
  readonly property: string | null;
}

const BITS = new DataView(new ArrayBuffer(8));

/**
 * Rounds to at most two fraction digits, half-even on the double's exact binary value (as
 * Java's DecimalFormat does), and prints without trailing zeros.
 */
export function formatMax2(x: number): string {
  if (!Number.isFinite(x)) return x !== x ? 'NaN' : x > 0 ? '∞' : '-∞';
  const neg = x < 0 || Object.is(x, -0);
  BITS.setFloat64(0, Math.abs(x));
  const bits = BITS.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & 0xfffffffffffffn;
  let exp: number;
  if (expBits === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = expBits - 1075;
  }
  let hundredths: bigint;
  if (exp >= 0) hundredths = (mant << BigInt(exp)) * 100n;
  else {
    const num = mant * 100n;
    const den = 1n << BigInt(-exp);
    const q = num / den;
    const twice = (num % den) * 2n;
    hundredths = twice > den || (twice === den && (q & 1n) === 1n) ? q + 1n : q;
  }
  const intPart = hundredths / 100n;
  const frac = Number(hundredths % 100n);
  let text = intPart.toString();
  if (frac !== 0) text += '.' + (frac < 10 ? '0' + frac : frac % 10 === 0 ? String(frac / 10) : String(frac));
  return neg && hundredths !== 0n ? '-' + text : text;
}

function websiteColor(value: Value): string {
  const h = field(value, 'hue');
  const s = field(value, 'saturation');
  const l = field(value, 'lightness');
  if (h === undefined || s === undefined || l === undefined) return 'Missing an H/S/L value.';
  const a = field(value, 'alpha');
  const hue = asDouble(h);
  const sat = asDouble(s);
  const light = asDouble(l);
  const alpha = a === undefined ? null : asDouble(a);
  let errors = '';
  if (hue < 0 || hue > 360) errors += 'Hue out of bounds. ';
  if (sat < 0 || sat > 1) errors += 'Saturation out of bounds. ';
  if (light < 0 || light > 1) errors += 'Lightness out of bounds. ';
  if (alpha !== null && (alpha < 0 || alpha > 1)) errors += 'Alpha out of bounds.';
  if (errors) return errors;
  const hsl = formatMax2(hue) + ', ' + formatMax2(sat * 100) + '%, ' + formatMax2(light * 100) + '%';
  return alpha === null ? 'hsl(' + hsl + ')' : 'hsla(' + hsl + ', ' + formatMax2(alpha) + ')';
}

// ---- images ------------------------------------------------------------------------------

interface ImageBound extends BlockTypeBound {
  readonly cssClass: string;
}

function imageTag(value: Value, bound: ImageBound, ctx: PluginContext): string {
  const alt = escapeAttr(altText(value, ctx.resolve(bound.blockType)));
  return (
    '<noscript><img src="' + textOf(field(value, 'assetUrl')) + '" alt="' + alt + '" /></noscript>' +
    '<img class="' + bound.cssClass + '" ' + imageMetaWithAlt(value, alt) +
    'data-load="false" data-image-id="' + textOf(field(value, 'id')) + '" data-type="image" />'
  );
}

const SRCSET_SIZES = ['100w', '300w', '500w', '750w', '1000w', '1500w', '2500w'];

function imageSrcset(value: Value): string {
  if (value === undefined) return '';
  const kept = textOf(field(value, 'systemDataVariants')).split(',').filter((v) => v.endsWith('w'));
  if (kept.length === 0) return '';
  const url = textOf(field(value, 'assetUrl'));
  let out = ' srcset="';
  for (let i = 0; i < kept.length; i++) out += (i ? ',' : '') + url + '?format=' + kept[i] + ' ' + kept[i];
  const at = SRCSET_SIZES.indexOf(kept[kept.length - 1]);
  // Below the largest standard size the browser may need the original as the next step up.
  if (at >= 0 && at < SRCSET_SIZES.length - 1) out += ',' + url + '?format=original ' + SRCSET_SIZES[at + 1];
  return out + '"';
}

function imageColor(value: Value, bound: ImageColorBound): Value {
  const colorData = field(value, 'colorData');
  if (colorData === undefined) return undefined;
  if (bound.position === null) {
    let out = '';
    for (let i = 0; i < COLOR_POSITIONS.length; i++) out += COLOR_ATTRIBUTE_OPENINGS[i] + textOf(field(colorData, COLOR_KEYS[i])) + '" ';
    return out;
  }
  const color = textOf(field(colorData, bound.key));
  if (color.length === 0) return '"' + bound.position + '" not found.';
  return bound.property === null ? '#' + color : bound.property + ': #' + color;
}

interface VideoBound {
  readonly loadFalse: boolean;
  readonly colorData: boolean;
}

function video(value: Value, bound: VideoBound): string {
  const oembed = field(value, 'oembed');
  let out = '<div class="sqs-video-wrapper" ';
  if (bound.loadFalse) out += ' data-load="false" ';
  out += 'data-html="' + escapeAttr(textOrEmpty(field(oembed, 'html'))) + '" data-provider-name="' + textOf(field(oembed, 'providerName')) + '">';
  if (isTruthy(field(value, 'overlay'))) {
    out += '<div class="sqs-video-overlay';
    if (isTruthy(field(value, 'mainImageId')) || isTruthy(field(value, 'systemDataId'))) {
      out += '" style="opacity: 0;"><img data-load="false" data-src="' + textOf(field(value, 'assetUrl')) +
        '" data-image-dimensions="' + textOf(field(value, 'originalSize')) +
        '" data-image-focal-point="' + focalPoint(value) + '" ';
      const colors = field(value, 'colorData');
      if (bound.colorData && isTruthy(colors)) {
        for (let i = 0; i < COLOR_POSITIONS.length; i++) out += VIDEO_COLOR_ATTRIBUTE_OPENINGS[i] + textOf(field(colors, COLOR_KEYS[i])) + '" ';
      }
      out += '/>';
    } else {
      out += ' no-thumb" style="opacity: 0;">';
    }
    out += '<div class="sqs-video-opaque"> </div><div class="sqs-video-icon"></div></div>';
  }
  return out + '</div>';
}

// ---- item classes ------------------------------------------------------------------------

interface ItemClassesBound {
  readonly promotedBlockType: Ref;
  readonly categories: Ref;
  readonly tags: Ref;
  readonly author: Ref;
  readonly recordTypeLabel: Ref;
  readonly index: Ref;
  readonly starred: Ref;
}

/** Elements of an array, or the member values of an object (Java iterates both). */
function elements(v: Value): readonly Value[] {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return Object.values(v);
  return [];
}

/** ` category-a category-b`: a class per element (or member value) of `list`, written into the text (text-list.ts). */
function slugClasses(prefix: string, list: Value): void {
  if (Array.isArray(list)) {
    for (let i = 0; i < list.length; i++) {
      listText(prefix);
      listSlug(textOrEmpty(list[i]));
    }
  } else if (isObject(list)) {
    for (const e of elements(list)) {
      listText(prefix);
      listSlug(textOrEmpty(e));
    }
  }
}

/**
 * The slugified classes (promoted block, categories, tags, author), the many short pieces of
 * the list, are written into one text (text-list.ts) and decoded once: as strings they were a
 * rope of ~15 pieces flattened again when the page was encoded. An item without them (a
 * gallery image) makes no text: decoding one costs more than its few concatenations
 * (bench/README.md, "A text written once").
 */
function itemClasses(value: Value, b: ItemClassesBound, ctx: PluginContext): string {
  let out = 'hentry';
  const promoted = ctx.resolve(b.promotedBlockType);
  const author = ctx.resolve(b.author);
  // Read here, not through `field`: an inline cache of its own (formatters/util/product.ts).
  const displayName = isObject(author) ? author.displayName : undefined;
  listStart();
  if (isTruthy(promoted)) {
    listText(' promoted promoted-block-');
    listSlug(textOrEmpty(promoted));
  }
  slugClasses(' category-', ctx.resolve(b.categories));
  slugClasses(' tag-', ctx.resolve(b.tags));
  if (isTruthy(author) && isTruthy(displayName)) {
    listText(' author-');
    listSlug(textOrEmpty(displayName));
  }
  // Every piece starts with its prefix, so an empty text means there were none.
  if (listLength() > 0) out += listEnd();
  out += ' post-type-' + textOf(ctx.resolve(b.recordTypeLabel));
  const index = ctx.resolve(b.index);
  if (index !== undefined) out += ' article-index-' + textOf(index);
  if (isTruthy(ctx.resolve(b.starred))) out += ' featured';
  if (asLong(isObject(value) ? value.recordType : undefined) === RECORD_TYPE_STORE_ITEM) out += saleClasses(value);
  return out;
}

// ---- time --------------------------------------------------------------------------------

function humanizeDuration(value: Value): string {
  const ms = asLong(value);
  if (ms < 0) throw new JavaError('IllegalArgumentException', 'durationMillis must not be negative');
  const minutes = Math.floor(ms / 60000);
  const seconds = Math.floor((ms % 60000) / 1000);
  return minutes + ':' + (seconds < 10 ? '0' : '') + seconds;
}

function ago(n: number, one: string, unit: string): string {
  return n === 1 ? 'about ' + one + ' ' + unit + ' ago' : 'about ' + n + ' ' + unit + 's ago';
}

/** The phrase for `diff` milliseconds in the past; the future reads as just now. */
export function timeSincePhrase(diff: number): string {
  const minutes = Math.trunc(diff / 60000);
  const hours = Math.trunc(minutes / 60);
  const days = Math.trunc(hours / 24);
  if (days >= 365) return ago(Math.floor(days / 365), 'a', 'year');
  if (days >= 30) return ago(Math.floor(days / 30), 'a', 'month');
  if (days >= 7) return ago(Math.floor(days / 7), 'a', 'week');
  if (days >= 1) return ago(days, 'a', 'day');
  if (hours >= 1) return ago(hours, 'an', 'hour');
  if (minutes >= 1) return ago(minutes, 'a', 'minute');
  return 'less than a minute ago';
}

function timesince(value: Value, ctx: PluginContext): string {
  if (!isNumber(value)) return 'Invalid date.';
  const date = asLong(value);
  const digits = typeof value === 'bigint' ? value.toString() : jsNumber(date);
  return '<span class="timesince" data-date="' + digits + '">' + timeSincePhrase(ctx.now - date) + '</span>';
}

// ---- the table ---------------------------------------------------------------------------

export const contentFormatters: FormatterSpec<any>[] = [
  {
    name: 'AbsUrl',
    bind: (_args, ctx): { baseUrl: Ref } => ({ baseUrl: ref(ctx, 'base-url') }),
    apply: (value, b: { baseUrl: Ref }, ctx) => textOf(ctx.resolve(b.baseUrl)) + '/' + textOf(value),
  },
  {
    name: 'audio-player',
    bind: (_args, ctx): TemplateHandle => ctx.compileTemplate(AUDIO_PLAYER_TEMPLATE),
    apply: (value, template: TemplateHandle, ctx) => ctx.runTemplate(template, value, true),
  },
  {
    name: 'capitalize',
    pure: true,
    apply: (value) => textOf(value).toUpperCase(),
  },
  {
    name: 'child-image-meta',
    bind(args, ctx): BlockTypeBound & { index: number } {
      expectArgs(args, 0, 1);
      let index = 0;
      if (args.length === 1) {
        const parsed = parseJavaInt(args[0]);
        if (parsed === null) throw new ArgsError(`expected an integer index, found '${args[0]}'`);
        index = parsed;
      }
      return { index, ...bindBlockType(args, ctx) };
    },
    apply(value, b: BlockTypeBound & { index: number }, ctx) {
      const items = field(value, 'items');
      const item = Array.isArray(items) && b.index >= 0 && b.index < items.length ? items[b.index] : undefined;
      return imageMeta(item, ctx.resolve(b.blockType));
    },
  },
  {
    name: 'color-weight',
    apply: colorWeight,
  },
  {
    name: 'cover-image-meta',
    bind: bindBlockType,
    apply: (value, b: BlockTypeBound, ctx) => imageMeta(field(value, 'coverImage'), ctx.resolve(b.blockType)),
  },
  dimensionFormatter('height', 1),
  dimensionFormatter('width', 0),
  {
    name: 'humanizeDuration',
    apply: humanizeDuration,
  },
  {
    name: 'image',
    bind(args, ctx): ImageBound {
      expectArgs(args, 0, 1);
      return { cssClass: args.length ? args[0] : 'thumb-image', ...bindBlockType(args, ctx) };
    },
    apply: (value, b: ImageBound, ctx) => imageTag(value, b, ctx),
  },
  {
    name: 'image-color',
    bind(args): ImageColorBound {
      expectArgs(args, 0, 2);
      if (args.length === 0) return { position: null, key: '', property: null };
      if (!(COLOR_POSITIONS as readonly string[]).includes(args[0])) throw new ArgsError(`illegal value '${args[0]}' found`);
      return { position: args[0], key: args[0] + 'Average', property: args.length === 2 ? args[1] : null };
    },
    apply: (value, b: ImageColorBound) => imageColor(value, b),
  },
  {
    name: 'image-meta',
    bind: bindBlockType,
    apply: (value, b: BlockTypeBound, ctx) => imageMeta(value, ctx.resolve(b.blockType)),
  },
  {
    name: 'image-srcset',
    apply: imageSrcset,
  },
  {
    name: 'item-classes',
    bind: (_args, ctx): ItemClassesBound => ({
      promotedBlockType: ref(ctx, 'promotedBlockType'),
      categories: ref(ctx, 'categories'),
      tags: ref(ctx, 'tags'),
      author: ref(ctx, 'author'),
      recordTypeLabel: ref(ctx, 'recordTypeLabel'),
      index: ref(ctx, '@index'),
      starred: ref(ctx, 'starred'),
    }),
    apply: (value, b: ItemClassesBound, ctx) => itemClasses(value, b, ctx),
  },
  resizedFormatter('resizedHeightForWidth', false, false),
  resizedFormatter('resizedWidthForHeight', true, false),
  resizedFormatter('squarespaceThumbnailForHeight', true, true),
  resizedFormatter('squarespaceThumbnailForWidth', false, true),
  {
    name: 'timesince',
    apply: (value, _b, ctx) => timesince(value, ctx),
  },
  {
    name: 'video',
    bind(args): VideoBound {
      let loadFalse = false;
      let colorData = false;
      for (const a of args) {
        if (a === 'load-false') loadFalse = true;
        else if (a === 'color-data') colorData = true;
        else throw new ArgsError(`'${a}' is not an expected value`);
      }
      return { loadFalse, colorData };
    },
    apply: (value, b: VideoBound) => video(value, b),
  },
  {
    name: 'website-color',
    apply: websiteColor,
  },
];

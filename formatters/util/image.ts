// Image helpers shared by the content formatters (PLUGINS §6.0): alt text, focal point and
// the image meta attribute string that `image`, `image-meta`, `child-image-meta` and
// `cover-image-meta` all emit. Pure functions over the value model; the caller resolves
// `blockType` (it lives in the page context, not on the image).

import { asDouble, asLong, isObject, isTruthy, javaDouble, member, textOf, textOrEmpty } from '../../engine/plugin-api.ts';
import type { JsonObject, Value } from '../../engine/plugin-api.ts';
import { escapeHtmlAttr } from './escape-html.ts';

/** A node that is not an object reads as one without members. */
const NO_MEMBERS: JsonObject = Object.freeze({}) as JsonObject;

/** BlockType IMAGE (§16): only this block type takes its alt text from `altText`. */
const BLOCK_TYPE_IMAGE = 5;
const MAX_BODY_ALT = 250;

/** Member lookup that tolerates any value (scalars and arrays have no members). */
export function field(v: Value, key: string): Value {
  return isObject(v) ? member(v, key) : undefined;
}

/** The `htmlattr` escaping: `& < > "` become entities, apostrophes stay. */
export const escapeAttr = escapeHtmlAttr;

/**
 * The reference's tag stripper: `<` starts skipping, `>` ends it and is written as one
 * space (a stray `>` too), so every tag becomes exactly one space and nothing collapses.
 * Text after an unclosed `<` is dropped.
 */
export function removeTags(s: string): string {
  let out = '';
  let inTag = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3c /* < */) {
      if (!inTag) out += s.slice(start, i);
      inTag = true;
    } else if (c === 0x3e /* > */) {
      if (!inTag) out += s.slice(start, i);
      out += ' ';
      inTag = false;
      start = i + 1;
    }
  }
  if (!inTag) out += s.slice(start);
  return out;
}

/** Java `String.trim`: strips every character ≤ U+0020 at both ends. */
export function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** Alt text of an image node, unescaped; `blockType` is the value resolved from the scope. */
export function altText(image: Value, blockType: Value): string {
  // Members read where they are used, each read with an inline cache of its own (see
  // product.ts, `field`): an image's handful of reads were a fifth of `image-meta`.
  if (!isObject(image)) return '';
  if (blockType !== undefined && asLong(blockType) === BLOCK_TYPE_IMAGE) {
    return javaTrim(textOrEmpty(image.altText));
  }
  const title = image.title;
  if (isTruthy(title)) return textOf(title);
  const body = image.body;
  if (isTruthy(body)) {
    const text = removeTags(textOf(body));
    const cut = text.length > MAX_BODY_ALT ? text.slice(0, MAX_BODY_ALT) : text;
    if (cut.length > 0) return cut;
  }
  const filename = image.filename;
  if (isTruthy(filename)) return textOf(filename);
  return '';
}

/** `x,y` of `mediaFocalPoint` in Java double form, `0.5,0.5` without one. */
export function focalPoint(image: Value): string {
  const fp = isObject(image) ? image.mediaFocalPoint : undefined;
  if (fp === undefined) return '0.5,0.5';
  const point = isObject(fp) ? fp : NO_MEMBERS;
  return javaDouble(asDouble(point.x)) + ',' + javaDouble(asDouble(point.y));
}

/**
 * The attribute string of §6.0, every attribute followed by one space; empty for a missing
 * image. `alt` is the already escaped alt text so callers that also print it elsewhere
 * compute it once.
 */
export function imageMetaWithAlt(image: Value, escapedAlt: string): string {
  if (image === undefined) return '';
  const node = isObject(image) ? image : NO_MEMBERS;
  let out = '';
  if (isObject(node.licensedAssetPreview)) out += 'data-licensed-asset-preview="true" ';
  const componentKey = node.componentKey;
  if (componentKey !== undefined) out += 'data-component-key="' + textOf(componentKey) + '" ';
  const assetUrl = textOf(node.assetUrl);
  out += 'data-src="' + assetUrl + '" ';
  out += 'data-image="' + assetUrl + '" ';
  out += 'data-image-dimensions="' + textOf(node.originalSize) + '" ';
  out += 'data-image-focal-point="' + focalPoint(image) + '" ';
  out += 'alt="' + escapedAlt + '" ';
  return out;
}

export function imageMeta(image: Value, blockType: Value): string {
  if (image === undefined) return '';
  return imageMetaWithAlt(image, escapeAttr(altText(image, blockType)));
}

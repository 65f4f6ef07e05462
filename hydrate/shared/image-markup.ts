/**
 * The image template of templates seed §3/§5/§9 as one pure function: inputs in, a plan
 * (diagnostic comments, an optional preload hint, an optional <img>) and its HTML out.
 * The server (a JSON-T formatter, page code) writes `imageMarkup(inputs)`; the React
 * component in hydrate/platform/image/ renders the same plan, and a table test holds the
 * two byte-identical. That is why the markup follows React 19's serialisation: attribute
 * names as React writes them (`srcSet`, `fetchPriority`, `class`), React's attribute
 * escaping, `style` as `name:value` joined by `;`, void elements closed with `/>`, the
 * preload link React emits for an eagerly loaded image, and comments inside a hidden
 * span (React cannot emit a bare comment).
 */
import { sqsImageUrl, sqsSrcSet, widthVariantFor } from './image-width-variants.ts';

/** Inputs of seed §3 "Image template inputs". Values arrive untyped from JSON or JSX. */
export interface ImageInputs {
  src?: unknown;
  width?: unknown;
  height?: unknown;
  alt?: unknown;
  class?: unknown;
  style?: unknown;
  priority?: unknown;
  sizes?: unknown;
  loader?: unknown;
  srcset?: unknown;
  /** `data-*` and `aria-*` attributes copied onto the <img>; other names are dropped. */
  passthrough?: unknown;
}

/** The comments of seed §5, in the seed's order (the first two words say the severity). */
export const IMAGE_MESSAGES = {
  missing: 'Error: src, width or height missing.',
  negative: 'Error: width or height not a positive integer (negative value).',
  notInteger: 'Error: width or height not a positive integer (non-integer value).',
  altMissing: 'Warning: alt missing (must be meaningful text, or an empty string for decorative images).',
  badPriority: 'Error: priority not high, low or null.',
  unknownLoader: 'Error: unknown loader type.',
  srcsetNeedsRaw: 'Error: srcset used with a loader other than raw.',
  sizesMissing: 'Error: sizes missing with loader sqs.',
} as const;

export const IMAGE_LOADERS = ['sqs', 'raw'] as const;
export type ImageLoader = (typeof IMAGE_LOADERS)[number];
/** Designed: without a loader the src is used as given. */
export const DEFAULT_IMAGE_LOADER: ImageLoader = 'raw';
export type ImagePriority = 'high' | 'low' | null;
export const DIAGNOSTICS_CLASS = 'sqs-image-diagnostics';

export interface StyleDeclaration {
  /** Lower-case CSS name (custom properties keep their case). */
  name: string;
  value: string;
}

export interface ImgAttributes {
  src: string;
  srcSet: string | null;
  sizes: string | null;
  width: number;
  height: number;
  alt: string | null;
  className: string | null;
  /** Always starts with display:block. */
  style: StyleDeclaration[];
  decoding: 'async';
  loading: 'eager' | 'lazy';
  fetchPriority: 'high' | 'low' | null;
  passthrough: { name: string; value: string }[];
}

/** The `<link rel="preload">` React's server renderer adds for an eagerly loaded image. */
export interface PreloadHint {
  href: string | null;
  imageSrcSet: string | null;
  imageSizes: string | null;
  fetchPriority: 'high' | 'low' | null;
}

export interface ImagePlan {
  comments: string[];
  preload: PreloadHint | null;
  /** Null when an error stops the image (comments only). */
  img: ImgAttributes | null;
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

type Dimension = { kind: 'missing' } | { kind: 'negative' } | { kind: 'not-integer' } | { kind: 'ok'; value: number };

/** Numbers and numeric strings are rounded (seed §5); zero counts as not positive. */
function dimension(value: unknown): Dimension {
  if (value === undefined || value === null || value === '') return { kind: 'missing' };
  let number = Number.NaN;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(value)) number = Number(value);
  if (!Number.isFinite(number)) return { kind: 'not-integer' };
  const rounded = Math.round(number);
  return rounded > 0 ? { kind: 'ok', value: rounded } : { kind: 'negative' };
}

const STYLE_NAME = /^(--[A-Za-z0-9_-]+|-?[a-z][a-z0-9-]*)$/;

/**
 * Splits CSS declaration text on `;` and `:` outside quotes and brackets (a data: URL
 * holds both). `display` is dropped: the image is always display:block. A repeated name
 * keeps its first position and its last value, as a JavaScript object (React's style
 * prop) does.
 */
export function parseStyle(text: unknown): StyleDeclaration[] {
  const declarations = new Map<string, string>([['display', 'block']]);
  if (typeof text !== 'string') return [...declarations].map(([name, value]) => ({ name, value }));
  const pieces: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (c === ';' && depth === 0) {
      pieces.push(text.slice(start, i));
      start = i + 1;
    }
  }
  pieces.push(text.slice(start));
  for (const piece of pieces) {
    const colon = piece.indexOf(':');
    if (colon < 0) continue;
    const rawName = piece.slice(0, colon).trim();
    // React writes a leading `ms-` as the vendor prefix `-ms-`; so does the server.
    const name = rawName.startsWith('--') ? rawName : rawName.toLowerCase().replace(/^ms-/, '-ms-');
    const value = piece.slice(colon + 1).trim();
    if (!STYLE_NAME.test(name) || value === '' || name === 'display') continue;
    declarations.set(name, value);
  }
  return [...declarations].map(([name, value]) => ({ name, value }));
}

const PASSTHROUGH_NAME = /^(data|aria)-[a-z0-9][a-z0-9_.-]*$/;

function passthroughAttributes(value: unknown): { name: string; value: string }[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const out: { name: string; value: string }[] = [];
  for (const [name, entry] of Object.entries(value)) {
    if (!PASSTHROUGH_NAME.test(name)) continue;
    if (typeof entry === 'string') out.push({ name, value: entry });
    else if (typeof entry === 'number' && Number.isFinite(entry)) out.push({ name, value: String(entry) });
  }
  return out;
}

export function planImage(inputs: ImageInputs): ImagePlan {
  const comments: string[] = [];
  let failed = false;
  const error = (message: string) => {
    if (!comments.includes(message)) comments.push(message);
    failed = true;
  };

  const src = nonEmptyString(inputs.src);
  const width = dimension(inputs.width);
  const height = dimension(inputs.height);
  if (src === null || width.kind === 'missing' || height.kind === 'missing') error(IMAGE_MESSAGES.missing);
  for (const d of [width, height]) {
    if (d.kind === 'negative') error(IMAGE_MESSAGES.negative);
    if (d.kind === 'not-integer') error(IMAGE_MESSAGES.notInteger);
  }
  const alt = typeof inputs.alt === 'string' ? inputs.alt : null;
  if (alt === null) comments.push(IMAGE_MESSAGES.altMissing);

  let priority: ImagePriority = null;
  if (inputs.priority === 'high' || inputs.priority === 'low') priority = inputs.priority;
  else if (inputs.priority !== undefined && inputs.priority !== null) error(IMAGE_MESSAGES.badPriority);

  const loaderInput = inputs.loader === undefined || inputs.loader === null ? DEFAULT_IMAGE_LOADER : inputs.loader;
  const loader = (IMAGE_LOADERS as readonly unknown[]).includes(loaderInput) ? (loaderInput as ImageLoader) : null;
  if (loader === null) error(IMAGE_MESSAGES.unknownLoader);
  const srcsetInput = nonEmptyString(inputs.srcset);
  if (srcsetInput !== null && loader !== 'raw') error(IMAGE_MESSAGES.srcsetNeedsRaw);
  const sizes = nonEmptyString(inputs.sizes);
  if (loader === 'sqs' && sizes === null) error(IMAGE_MESSAGES.sizesMissing);

  if (failed || src === null || width.kind !== 'ok' || height.kind !== 'ok') return { comments, preload: null, img: null };

  const srcSet = loader === 'sqs' ? sqsSrcSet(src) : srcsetInput;
  const img: ImgAttributes = {
    src: loader === 'sqs' ? sqsImageUrl(src, widthVariantFor(width.value)) : src,
    srcSet,
    sizes,
    width: width.value,
    height: height.value,
    alt,
    className: nonEmptyString(inputs.class),
    style: parseStyle(inputs.style),
    decoding: 'async',
    loading: priority === 'high' ? 'eager' : 'lazy',
    fetchPriority: priority,
    passthrough: passthroughAttributes(inputs.passthrough),
  };
  // React preloads neither lazy images nor data: URLs (there is nothing to fetch).
  const isDataUrl = (url: string | null) => url !== null && /^data:/i.test(url);
  const preload: PreloadHint | null =
    img.loading === 'eager' && !isDataUrl(img.src) && !isDataUrl(srcSet)
      ? { href: srcSet === null ? img.src : null, imageSrcSet: srcSet, imageSizes: sizes, fetchPriority: priority }
      : null;
  return { comments, preload, img };
}

/** React's attribute escaping (react-dom escapeTextForBrowser). */
export function escapeAttribute(text: string): string {
  return text.replace(/["&'<>]/g, (c) => (c === '"' ? '&quot;' : c === '&' ? '&amp;' : c === "'" ? '&#x27;' : c === '<' ? '&lt;' : '&gt;'));
}

/** Messages are fixed texts, so a comment can never be closed early by input. */
export function commentsHtml(comments: readonly string[]): string {
  return comments.map((message) => `<!-- ${message} -->`).join('');
}

function attribute(name: string, value: string | number | null): string {
  return value === null ? '' : ` ${name}="${escapeAttribute(String(value))}"`;
}

export function styleText(style: readonly StyleDeclaration[]): string {
  return style.map(({ name, value }) => `${name}:${value}`).join(';');
}

export function imageMarkupFromPlan(plan: ImagePlan): string {
  let html = '';
  if (plan.preload) {
    const p = plan.preload;
    html += `<link rel="preload" as="image"${attribute('href', p.href)}${attribute('imageSrcSet', p.imageSrcSet)}${attribute('imageSizes', p.imageSizes)}${attribute('fetchPriority', p.fetchPriority)}/>`;
  }
  if (plan.comments.length > 0) html += `<span class="${DIAGNOSTICS_CLASS}" hidden="">${commentsHtml(plan.comments)}</span>`;
  const img = plan.img;
  if (img) {
    html +=
      `<img${attribute('src', img.src)}${attribute('srcSet', img.srcSet)}${attribute('sizes', img.sizes)}` +
      `${attribute('width', img.width)}${attribute('height', img.height)}${attribute('alt', img.alt)}` +
      `${attribute('class', img.className)}${attribute('style', styleText(img.style))}` +
      `${attribute('decoding', img.decoding)}${attribute('loading', img.loading)}${attribute('fetchPriority', img.fetchPriority)}` +
      img.passthrough.map(({ name, value }) => attribute(name, value)).join('') +
      '/>';
  }
  return html;
}

/** The markup of the image template for these inputs. */
export function imageMarkup(inputs: ImageInputs): string {
  return imageMarkupFromPlan(planImage(inputs));
}

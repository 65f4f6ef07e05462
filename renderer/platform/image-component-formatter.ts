import type { defaultFormatters } from '../../formatters/index.ts';
import type { Value } from '../../engine/index.ts';
import { imageMarkup, imageMarkupFromPlan, type ImageInputs } from '../../hydrate/shared/image-markup.ts';
import { parseOriginalSize } from '../../hydrate/shared/image-width-variants.ts';

// The image template (templates seed §3/§5/§9) as a renderer-level JSON-T formatter. It is
// not one of PLUGINS.md's 95, so it lives in the renderer's own registry (renderer-engine.ts)
// and never changes `listPlugins()`.

type FormatterSpec = (typeof defaultFormatters)[number];

/** Options a template may set as `key=value` arguments; they override the node's fields. */
export const IMAGE_OPTION_NAMES = ['alt', 'class', 'style', 'priority', 'sizes', 'loader', 'srcset', 'width', 'height'] as const;
type ImageOption = (typeof IMAGE_OPTION_NAMES)[number];

/** JSON numbers reach plugins as numbers, bigints or JDouble wrappers (`1.0`); plain values here. */
function plain(value: Value): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) {
    const wrapped = (value as { value?: unknown }).value;
    if (typeof wrapped === 'number') return wrapped;
  }
  return value;
}

function member(node: Record<string, Value>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(node, key) ? plain(node[key]) : undefined;
}

/**
 * Parses `key=value` arguments once, at compile time. An unknown key or an argument
 * without `=` makes the tag a FORMATTER_ARGS_INVALID compile error.
 */
export function bindImageOptions(args: readonly string[]): Partial<Record<ImageOption, string>> {
  const options: Partial<Record<ImageOption, string>> = {};
  for (const arg of args) {
    const equals = arg.indexOf('=');
    const key = (equals < 0 ? arg : arg.slice(0, equals)).trim();
    if (equals < 0 || !(IMAGE_OPTION_NAMES as readonly string[]).includes(key)) {
      throw new Error(`expected key=value with a key among ${IMAGE_OPTION_NAMES.join(', ')}, found '${arg}'`);
    }
    options[key as ImageOption] = arg.slice(equals + 1);
  }
  return options;
}

/**
 * The node is an image asset (`assetUrl`, `originalSize`, `altText`) or an object of image
 * template inputs (`src`, `width`, `height`, …). A bad `originalSize` prints the seed's
 * invalid-source text as a comment.
 */
export function imageInputsFromNode(node: Value, options: Partial<Record<ImageOption, string>>): ImageInputs | { invalidSource: string } {
  const inputs: ImageInputs = {};
  if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
    const object = node as Record<string, Value>;
    if (Object.prototype.hasOwnProperty.call(object, 'assetUrl')) {
      const size = parseOriginalSize(member(object, 'originalSize'));
      if (!size.ok && options.width === undefined && options.height === undefined) return { invalidSource: size.error };
      Object.assign(inputs, { src: member(object, 'assetUrl'), alt: member(object, 'altText') });
      if (size.ok) Object.assign(inputs, { width: size.width, height: size.height });
    } else {
      for (const key of ['src', 'width', 'height', 'alt', 'class', 'style', 'priority', 'sizes', 'loader', 'srcset', 'passthrough'] as const) {
        const value = member(object, key);
        if (value !== undefined) inputs[key] = value;
      }
    }
  }
  for (const [key, value] of Object.entries(options)) inputs[key as ImageOption] = value;
  return inputs;
}

export const imageComponentFormatter: FormatterSpec = {
  name: 'image-component',
  bind: (args: string[]) => bindImageOptions(args),
  apply: (value: Value, options: Partial<Record<ImageOption, string>>) => {
    const inputs = imageInputsFromNode(value, options);
    if ('invalidSource' in inputs) return imageMarkupFromPlan({ comments: [inputs.invalidSource], preload: null, img: null });
    return imageMarkup(inputs);
  },
};

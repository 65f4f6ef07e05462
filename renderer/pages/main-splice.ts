import { randomBytes } from 'node:crypto';
import { DEFAULT_LIMITS, type RenderResult, type Template } from '../../engine/index.ts';

// The layout prints the page type's HTML as `{mainContent}`. Given that HTML as one string,
// the layout's output would hold it as one piece, and the server's encoder would flatten
// the whole page into one copy, two bytes a character as soon as one character of it lies
// beyond Latin-1 (a `—`). The layout instead renders a mark in its place, and the page's own
// output parts are put where the mark is: every part is then encoded on its own
// (document-bytes.ts, engine/runtime.ts `Runtime.chunks`).

/** Random per process: no site content can print it, and no visitor can guess it. */
export const MAIN_MARK = `\u0000quire-main-${randomBytes(12).toString('base64url')}\u0000`;

const plainLayouts = new WeakMap<Template, boolean>();

/**
 * True when the layout can only print `mainContent` unchanged: every mention is a
 * `{mainContent}` tag (no formatter, section, predicate or expression can see the mark
 * instead of the HTML), and it calls no partial or macro that might mention it.
 */
export function printsMainPlainly(layout: Template): boolean {
  let plain = plainLayouts.get(layout);
  if (plain === undefined) {
    const text = layout.source.text;
    const tags = text.split('{mainContent}').length - 1;
    plain = tags > 0 && text.split('mainContent').length - 1 === tags && !/\|\s*apply\b|\{\.(include|inject|macro)\b/.test(text);
    plainLayouts.set(layout, plain);
  }
  return plain;
}

/**
 * The layout's output parts with each mark replaced by the page's parts, or null when the
 * mark was not printed exactly as rendered or the page would pass the output limit (the
 * caller then renders the layout with the HTML itself, as the limit and the layout see it).
 * Searching a part flattens it, which its encoding does next anyway.
 */
export function spliceMain(layout: RenderResult, main: RenderResult): readonly string[] | null {
  const out: string[] = [];
  let marks = 0;
  let length = 0;
  for (const part of layout.parts) {
    let from = 0;
    let at = part.indexOf(MAIN_MARK);
    while (at >= 0) {
      if (at > from) out.push(part.slice(from, at));
      for (const p of main.parts) out.push(p);
      marks++;
      from = at + MAIN_MARK.length;
      at = part.indexOf(MAIN_MARK, from);
    }
    if (from === 0) out.push(part);
    else if (from < part.length) out.push(part.slice(from));
    length += part.length;
  }
  if (marks === 0) return null;
  const total = length + marks * (main.html.length - MAIN_MARK.length);
  return total > DEFAULT_LIMITS.maxOutputLength ? null : out;
}

// The one rule for a form field's character limit (STOREFRONT A7 "Max length", B0.6 step 4),
// shared by the site-form island (its check before sending and its counter) and the server's
// field validation, so the visitor is never told a text fits that the server then refuses, or
// the other way round.
//
// The spec says only "if the text is longer". What is counted is what the visitor reads:
// - trimmed, since the server's emptiness rule (A6) ignores surrounding whitespace too and a
//   trailing newline or space is not something anyone sees as text;
// - in Unicode code points, not UTF-16 units: JavaScript's `length` counts an emoji or any
//   other character outside the Basic Multilingual Plane as 2, so "👍" counted double.
// Grapheme clusters (a flag, a family emoji as one) would be closer still, but their
// boundaries follow the engine's Unicode tables (Intl.Segmenter), which differ between a
// visitor's browser and the server's Node; code points are the same everywhere, and are what
// Postgres' char_length counts.

/** The length of `text` as the character limit counts it: trimmed, in code points. */
export function countedLength(text: string): number {
  let count = 0;
  // A string iterator steps by code point (a surrogate pair is one step, a lone surrogate one).
  for (const _ of text.trim()) count += 1;
  return count;
}

/** Whether `text` is over a limit of `max` characters (the counted length, above). */
export function exceedsMaxLength(text: string, max: number): boolean {
  return countedLength(text) > max;
}

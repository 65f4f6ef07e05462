/**
 * Characters that reorder the text around them: embeddings, overrides and isolates. Visitors'
 * text reaches the owner in the admin (submissions, orders, reviews, sign-ups) and in its CSV
 * export, and a name written `\u202Egnp.exe` showed as "exe.png". There they are shown as
 * `[U+202E]`, so what the owner reads is what was sent. (Marks, U+200E/U+200F, only nudge
 * neutral characters and stay.)
 */
const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

export function showDirectionControls(text: string): string {
  DIRECTION_CONTROLS.lastIndex = 0;
  if (!DIRECTION_CONTROLS.test(text)) return text;
  return text.replace(DIRECTION_CONTROLS, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase()}]`);
}

import { JsonSyntaxError, parseJson, Source } from '../../engine/index.ts';

/*
 * Where each key and value of a JSON text starts, for diagnostics at file:line:col
 * (`JSON.parse` and the engine's `parseJson` keep no positions). One linear pass over text
 * that `JSON.parse` already accepted; a text it rejects gives null (the loader reports the
 * syntax error itself). Line and column come from the engine's `Source`.
 */

export interface JsonSpan {
  /** Offset of the value's first character. */
  offset: number;
  /** Offset of the key's opening quote, for a member of an object. */
  keyOffset?: number;
  /** Members by key (the last of duplicate keys wins, as in JSON.parse). */
  members?: Map<string, JsonSpan>;
  elements?: JsonSpan[];
}

/** The spans of a JSON text, or null when it is not valid JSON. */
export function jsonSpans(text: string): JsonSpan | null {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  // Strings are read with JSON.parse on their exact slice, so escapes decode as JSON.parse does.
  const string = (): string => {
    const start = i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === 0x22) break;
      else i++;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  // Iterative over an explicit stack: deep nesting cannot overflow the call stack.
  interface Frame {
    span: JsonSpan;
    key: string | null;
    keyOffset: number;
  }
  const stack: Frame[] = [];
  let root: JsonSpan | null = null;
  const attach = (span: JsonSpan) => {
    const parent = stack[stack.length - 1];
    if (!parent) root = span;
    else if (parent.span.members) {
      span.keyOffset = parent.keyOffset;
      parent.span.members.set(parent.key!, span);
    } else parent.span.elements!.push(span);
  };
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  // After a value (or an opening bracket), read separators until the next value starts.
  const next = (): boolean => {
    for (;;) {
      ws();
      const frame = stack[stack.length - 1];
      if (!frame) return false;
      if (text[i] === ',') {
        i++;
        ws();
      }
      if (text[i] === '}' || text[i] === ']') {
        i++;
        stack.pop();
        continue;
      }
      if (frame.span.members) {
        frame.keyOffset = i;
        frame.key = string();
        ws();
        i++; // ':'
      }
      ws();
      return true;
    }
  };
  ws();
  for (;;) {
    const c = text[i];
    const span: JsonSpan = { offset: i };
    attach(span);
    if (c === '{' || c === '[') {
      if (c === '{') span.members = new Map();
      else span.elements = [];
      i++;
      stack.push({ span, key: null, keyOffset: 0 });
    } else if (c === '"') string();
    else {
      // A number, true, false or null: up to the next separator.
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x2c || d === 0x5d || d === 0x7d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
        i++;
      }
    }
    if (!next()) break;
  }
  return root;
}

/** The span at a JSON Pointer (`/products/0/priceCents`, as Ajv's instancePath), or the nearest ancestor found. */
export function spanAt(root: JsonSpan, pointer: string): JsonSpan {
  let span = root;
  if (pointer === '') return span;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const child = span.members ? span.members.get(token) : span.elements?.[Number(token)];
    if (!child) return span;
    span = child;
  }
  return span;
}

/**
 * Line and column of the value at a JSON pointer of a text JSON.parse accepts (1:1 otherwise),
 * for many pointers into one text: its spans and lines are made once, on the first. Made per
 * finding, 300 over-full collections of an 8 MB catalog.json took `quire check` 136 s, and a
 * start as long before it refused the folder.
 */
export function pointerPositions(text: string): (pointer: string) => { line: number; column: number } {
  let spans: JsonSpan | null | undefined;
  let source: Source | undefined;
  return (pointer) => {
    if (spans === undefined) spans = jsonSpans(text);
    source ??= new Source(text);
    return source.position(spans ? spanAt(spans, pointer).offset : 0);
  };
}

/** `pointerPositions` by file, each file's made on its first pointer (`textOf` gives its text). */
export function filePositions(textOf: (file: string) => string): (file: string, pointer: string) => { line: number; column: number } {
  const byFile = new Map<string, ReturnType<typeof pointerPositions>>();
  return (file, pointer) => {
    let at = byFile.get(file);
    if (at === undefined) byFile.set(file, (at = pointerPositions(textOf(file))));
    return at(pointer);
  };
}

/**
 * Offset of the first `{` or `[` of a JSON text that opens a value more than `max` levels deep,
 * or -1. One pass, no recursion: `JSON.parse` reads any depth, but what is done with the value
 * after (`JSON.stringify` of the seed, serializers) recurses and overflows the stack.
 */
export function deeperThan(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
}

/**
 * Line and column of the syntax error of a text `JSON.parse` refused: its message has no stable
 * position, and the engine's parser gives the offset.
 */
export function jsonSyntaxPosition(text: string): { line: number; column: number } {
  let offset = 0;
  try {
    parseJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) offset = error.offset;
  }
  return new Source(text).position(offset);
}

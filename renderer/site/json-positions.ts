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
 * The syntax error of a text `JSON.parse` refused, for an author: where to fix it and what to
 * do. V8's words ("Expected ',' or '}' after property value in JSON at position 21", or the
 * text itself quoted back: `Unexpected token ']', "[1,2,\n]" is not valid JSON`) name an
 * offset the frame already shows, and point at the line after a missing comma. The engine's
 * parser gives the offset and what it expected; the character there and the one before say
 * which slip it is. A missing comma is reported where it goes (after the value that ends the
 * line above), a trailing comma at the comma; anything else at the first character that is
 * not JSON.
 */
export function jsonSyntaxError(text: string): { line: number; column: number; message: string } {
  let offset = 0;
  let expected = '';
  try {
    parseJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      offset = error.offset;
      expected = error.message.replace(/ at offset \d+$/, '');
    }
  }
  const source = new Source(text);
  const at = (o: number, message: string) => ({ ...source.position(o), message });
  const where = (o: number) => {
    const { line, column } = source.position(o);
    return `line ${line}, column ${column}`;
  };
  // The last character before `offset` that is not white space, and its offset.
  let before = offset - 1;
  while (before >= 0 && /[ \t\r\n]/.test(text[before]!)) before--;
  const previous = before < 0 ? '' : text[before]!;
  const found = offset < text.length ? text[offset]! : '';
  const word = /^[A-Za-z_$][\w$-]*/.exec(text.slice(offset, offset + 40))?.[0];
  const shown = found === '' ? 'the end of the file' : word !== undefined ? `'${word}'` : `'${found}'`;
  const startsValue = found === '"' || found === '{' || found === '[' || found === '-' || /[0-9]/.test(found) || /^(true|false|null)\b/.test(text.slice(offset, offset + 6));
  if (text.trim() === '') return at(0, 'the file is empty: it should hold a JSON object ({ … })');
  if (found === '') {
    if (expected === 'Unterminated string') return at(offset, 'the file ends inside a text ("…"): its closing \'"\' is missing');
    const open = unclosedBracket(text);
    if (open >= 0) return at(offset, `the file ends before the JSON does: the '${text[open]}' at ${where(open)} is never closed (a '${text[open] === '{' ? '}' : ']'}' is missing)`);
    return at(offset, 'the file ends before the JSON does');
  }
  switch (expected) {
    case "Expected ',' or '}'":
    case "Expected ',' or ']'": {
      const what = expected.endsWith("'}'") ? 'member' : 'element';
      // `01`: the parser read the 0 and stopped at the 1.
      if (before + 1 === offset && /[0-9]/.test(previous) && /[0-9]/.test(found)) return at(before, BAD_NUMBER);
      if (startsValue && before + 1 < offset) return at(before + 1, `a ',' is missing here, after this value: the next ${what} starts at ${where(offset)}`);
      return at(offset, `expected ',' or '${expected.slice(-2, -1)}' after the value, found ${shown}`);
    }
    case 'Expected a string key':
      if (previous === ',' && found === '}') return at(before, "remove this ',': JSON allows no comma after the last member of an object");
      if (found === "'") return at(offset, 'property names are written in double quotes ("name"), not single quotes');
      if (word !== undefined) return at(offset, `property names are written in double quotes: "${word}"`);
      return at(offset, `expected a property name in double quotes, found ${shown}`);
    case "Expected ':'":
      return at(offset, `expected ':' after the property name, found ${shown}`);
    case 'Unexpected character':
      if (previous === ',' && found === ']') return at(before, "remove this ',': JSON allows no comma after the last element of an array");
      if (found === "'") return at(offset, 'texts are written in double quotes ("…"), not single quotes');
      if (word !== undefined) return at(offset, `${shown} is not a JSON value: write a text in double quotes ("${word}"), a number, true, false or null`);
      return at(offset, `expected a value (a text in double quotes, a number, true, false, null, { … } or [ … ]), found ${shown}`);
    case 'Control character in string':
      if (found === '\n' || found === '\r') return at(offset, 'this text ("…") is not closed before the end of its line: add its closing \'"\' (a line break inside a text is written \\n)');
      return at(offset, `a control character (U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) inside a text: write it as an escape (\\t, \\u0000 …)`);
    case 'Bad escape':
    case 'Bad unicode escape':
      return at(offset, 'not a JSON escape: write \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u followed by four hex digits');
    case 'Bad number':
      return at(offset, BAD_NUMBER);
    case 'Unexpected trailing characters':
      return at(offset, `the JSON value ended before this: remove what follows, or the '}' or ']' that closed it too early (found ${shown})`);
    default:
      return at(offset, `not JSON here (found ${shown})`);
  }
}

const BAD_NUMBER = 'not a JSON number: write digits such as 12, -3 or 12.5 (no leading zeros, no +, no trailing .)';

/** Offset of the innermost `{` or `[` a text leaves open (strings skipped), or -1. */
function unclosedBracket(text: string): number {
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') open.push(i);
    else if (c === '}' || c === ']') open.pop();
  }
  return open.length ? open[open.length - 1]! : -1;
}

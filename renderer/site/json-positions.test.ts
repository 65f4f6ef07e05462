import { describe, expect, it } from 'vitest';
import { Source } from '../../engine/index.ts';
import { deeperThan, jsonSpans, jsonSyntaxError, spanAt, type JsonSpan } from './json-positions.ts';

const TEXT = `{
  "site": { "websiteId": "w" },
  "products": [
    { "id": "tee", "variants": [ { "id": "s", "price": 25, "esc\\"aped": [1, {"x": null}] } ] }
  ],
  "a/b": true
}`;

describe('jsonSpans', () => {
  it('finds keys and values by JSON Pointer, with line and column', () => {
    const root = jsonSpans(TEXT)!;
    const lines = new Source(TEXT);
    const price = spanAt(root, '/products/0/variants/0/price');
    expect(lines.position(price.keyOffset!)).toEqual({ line: 4, column: 47 });
    expect(TEXT.slice(price.offset, price.offset + 2)).toBe('25');
    expect(TEXT.slice(spanAt(root, '/products/0/variants/0/esc"aped/1/x').offset).startsWith('null')).toBe(true);
    expect(TEXT[spanAt(root, '/a~1b').offset]).toBe('t');
    expect(lines.position(spanAt(root, '/site/websiteId').offset)).toEqual({ line: 2, column: 26 });
    // A path that goes past the text stops at the nearest ancestor.
    expect(spanAt(root, '/products/0/nope/deeper')).toBe(spanAt(root, '/products/0'));
  });

  it('gives null for text JSON.parse rejects, and handles a bare value and empty containers', () => {
    expect(jsonSpans('{"a": }')).toBeNull();
    expect(jsonSpans('  42 ')).toEqual({ offset: 2 });
    const root = jsonSpans('{"a":{},"b":[],"c":[[]]}')!;
    expect([...root.members!.keys()]).toEqual(['a', 'b', 'c']);
    expect(spanAt(root, '/c/0').elements).toEqual([]);
  });

  it('does work in proportion to the text: 4x the members, 4x the spans, no recursion limit', () => {
    const count = (span: JsonSpan): number =>
      1 + [...(span.members?.values() ?? []), ...(span.elements ?? [])].reduce((sum, child) => sum + count(child), 0);
    const doc = (n: number) => JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ id: `i${i}`, n: i })) });
    expect(count(jsonSpans(doc(4000))!)).toBe(4 * (count(jsonSpans(doc(1000))!) - 2) + 2);
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    expect(jsonSpans(deep)?.elements?.length).toBe(1);
  });
});

describe('deeperThan', () => {
  it('finds the bracket that opens a value past the depth, ignoring brackets in strings', () => {
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(deeperThan(nested(3), 3)).toBe(-1);
    expect(deeperThan(nested(4), 3)).toBe(3);
    // Levels: the object 1, the array 2, the inner object 3, its object member 4.
    expect(deeperThan('{"a":[{"b":1}],"c":[[]]}', 3)).toBe(-1);
    expect(deeperThan('{"a":[{"b":{}}]}', 3)).toBe(11);
    // Strings, escaped quotes and backslashes included, hold no structure.
    const strings = JSON.stringify({ s: '[[[[{{{{', t: 'a\\"[[[[', u: '\\' });
    expect(deeperThan(strings, 1)).toBe(-1);
    const after = JSON.stringify([{ s: '\\', a: [[1]] }]);
    expect(deeperThan(after, 3)).toBe(after.indexOf('[1'));
    // No recursion: any depth.
    expect(deeperThan(nested(1_000_000), 100)).toBe(100);
  });
});

describe('jsonSyntaxError', () => {
  const error = (text: string) => {
    const { line, column, message } = jsonSyntaxError(text);
    return `${line}:${column} ${message}`;
  };

  it('puts a missing comma where it goes, after the value that ends the line above', () => {
    expect(error('{\n  "kind": "page"\n  "slug": "home"\n}')).toBe("2:17 a ',' is missing here, after this value: the next member starts at line 3, column 3");
    expect(error('[1\n, 2 3]')).toBe("2:4 a ',' is missing here, after this value: the next element starts at line 2, column 5");
    expect(error('{"a": 1 x}')).toBe("1:9 expected ',' or '}' after the value, found 'x'");
  });

  it('points at a trailing comma, with what JSON allows', () => {
    expect(error('{\n  "a": 1,\n}')).toBe("2:9 remove this ',': JSON allows no comma after the last member of an object");
    expect(error('[1, 2,\n]')).toBe("1:6 remove this ',': JSON allows no comma after the last element of an array");
  });

  it('names quotes, bare words, unclosed texts and brackets in words an author acts on, never echoing the text', () => {
    expect(error("{'a': 1}")).toBe('1:2 property names are written in double quotes ("name"), not single quotes');
    expect(error('{title: 1}')).toBe('1:2 property names are written in double quotes: "title"');
    expect(error('{"a": \'b\'}')).toBe('1:7 texts are written in double quotes ("…"), not single quotes');
    expect(error('{"a": tru}')).toBe('1:7 \'tru\' is not a JSON value: write a text in double quotes ("tru"), a number, true, false or null');
    expect(error('{"a": "x}\n')).toBe('1:10 this text ("…") is not closed before the end of its line: add its closing \'"\' (a line break inside a text is written \\n)');
    expect(error('{"a": [1, {"b": 2}')).toBe("1:19 the file ends before the JSON does: the '[' at line 1, column 7 is never closed (a ']' is missing)");
    expect(error('{"a": "x')).toBe('1:9 the file ends inside a text ("…"): its closing \'"\' is missing');
    expect(error('{"a": 1}}')).toBe("1:9 the JSON value ended before this: remove what follows, or the '}' or ']' that closed it too early (found '}')");
    expect(error('{"a": 01}')).toBe('1:7 not a JSON number: write digits such as 12, -3 or 12.5 (no leading zeros, no +, no trailing .)');
    expect(error('{"a": +1}')).toBe('1:7 expected a value (a text in double quotes, a number, true, false, null, { … } or [ … ]), found \'+\'');
    expect(error('{"a" 1}')).toBe("1:6 expected ':' after the property name, found '1'");
    expect(error('  \n')).toBe('1:1 the file is empty: it should hold a JSON object ({ … })');
  });
});

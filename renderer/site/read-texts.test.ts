import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NotUtf8Error, readTexts, utf8Text } from './read-texts.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-read-texts-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('readTexts', () => {
  it('gives each file its text, or the error reading it, in the order asked', () => {
    fs.writeFileSync(path.join(dir, 'a.json'), '{"é": 1}');
    fs.writeFileSync(path.join(dir, 'b.json'), '');
    fs.mkdirSync(path.join(dir, 'c.json'));
    const out = readTexts(['a.json', 'missing.json', 'b.json', 'c.json'].map((name) => path.join(dir, name)));
    expect(out.map((text) => (typeof text === 'string' ? text : text.code))).toEqual(['{"é": 1}', 'ENOENT', '', 'EISDIR']);
  });

  it('reads UTF-8 text without its byte-order mark, and names the first byte that is not UTF-8 with its line and column', () => {
    expect(utf8Text(Buffer.from('\ufeff{"é": "😀"}'))).toBe('{"é": "😀"}');
    expect(utf8Text(Buffer.from('{}\ufeff'))).toBe('{}\ufeff');
    const latin1 = utf8Text(Buffer.concat([Buffer.from('{\n  "title": "Caf'), Buffer.from([0xe9]), Buffer.from('"}')]));
    expect(latin1).toBeInstanceOf(NotUtf8Error);
    expect(latin1).toMatchObject({ line: 2, column: 16, message: 'not UTF-8 text: byte 0xE9 at line 2, column 16 (save the file as UTF-8)' });
    // After a wide character the column counts characters, not bytes.
    expect(utf8Text(Buffer.concat([Buffer.from('é€'), Buffer.from([0xff])]))).toMatchObject({ line: 1, column: 3 });
    // Overlong and surrogate forms are not UTF-8 either.
    expect(utf8Text(Buffer.from([0x61, 0xc0, 0xaf]))).toMatchObject({ column: 2 });
    expect(utf8Text(Buffer.from([0x61, 0xed, 0xa0, 0x80]))).toMatchObject({ column: 2 });
    expect(utf8Text(Buffer.from([0x61, 0xf4, 0x90, 0x80, 0x80]))).toMatchObject({ column: 2 });
    expect(utf8Text(Buffer.from([0x61, 0xe2, 0x82]))).toMatchObject({ column: 2 });
  });
});

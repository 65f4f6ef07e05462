import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTexts } from './read-texts.ts';

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
});

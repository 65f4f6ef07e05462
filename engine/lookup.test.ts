import { describe, expect, it } from 'vitest';
import { compile, parseJson } from './index.ts';

describe('member lookup through the frame stack', () => {
  it('does not find members of arrays or doubles (length, value, array methods), and keeps looking outward', () => {
    const data = parseJson('{"length": "outer", "value": "v", "map": "m", "a": [[1, 2]], "d": [1.0]}');
    expect(compile('{.repeated section a}{length}|{map}{.end}').render(data).html).toBe('outer|m');
    expect(compile('{.repeated section d}{value}{.end}').render(data).html).toBe('v');
    expect(compile('{.section a}{length}{.end}').render(data).html).toBe('outer');
  });
});

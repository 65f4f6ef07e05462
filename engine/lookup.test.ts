import { describe, expect, it } from 'vitest';
import { compile, parseJson } from './index.ts';

describe('member lookup through the frame stack', () => {
  it('does not find members of arrays or doubles (length, value, array methods), and keeps looking outward', () => {
    const data = parseJson('{"length": "outer", "value": "v", "map": "m", "a": [[1, 2]], "d": [1.0]}');
    expect(compile('{.repeated section a}{length}|{map}{.end}').render(data).html).toBe('outer|m');
    expect(compile('{.repeated section d}{value}{.end}').render(data).html).toBe('v');
    expect(compile('{.section a}{length}{.end}').render(data).html).toBe('outer');
  });

  it('answers a plugin lookup from the frames live now, not from one kept for an earlier call', () => {
    // `date` reads website.timeZone outward from its value; the runtime keeps that answer
    // one frame down. A frame that shadows `website` must win, and stop winning once popped.
    const data = parseJson(
      '{"website": {"timeZone": "UTC"}, "t": 0, "items": [{"website": {"timeZone": "Asia/Tokyo"}}, {}, {"website": {"timeZone": "America/New_York"}}]}',
    );
    const t = compile('{t|date %Z}{t|date %Z}[{.repeated section items}{t|date %Z}{t|date %Z}{.alternates with},{.end}]{t|date %Z}');
    const out = 'UTCUTC[JSTJST,UTCUTC,ESTEST]UTC';
    expect(t.render(data).html).toBe(out);
    expect(t.render(data).html).toBe(out);
  });
});

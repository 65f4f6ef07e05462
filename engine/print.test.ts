import { describe, expect, it } from 'vitest';
import { compile } from './index.ts';
import { printTemplate } from './print.ts';

describe('printTemplate', () => {
  it('closes a block opened by a preprocessor tag with {^.end} (found by the print round-trip fuzz property)', () => {
    const t = compile('{^.section a}x{^.end}', { preprocess: true });
    const printed = printTemplate(t.ast!);
    expect(printed).toBe('{^.section a}x{^.end}');
    expect(compile(printed, { preprocess: true }).render({ a: 1 }).html).toBe('x');
  });

  it('closes ordinary blocks with {.end}', () => {
    expect(printTemplate(compile('{.section a}x{.or}y{.end}').ast!)).toBe('{.section a}x{.or}y{.end}');
  });
});

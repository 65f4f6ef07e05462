import { describe, expect, it } from 'vitest';
import { rendererEngine } from '../platform/renderer-engine.ts';
import { evalOperandFrames } from './eval-operands.ts';

const findings = (text: string) => evalOperandFrames(rendererEngine().compile(text, { name: 't.jsont' }), 'templates/t.jsont').map((frame) => [frame.where, frame.text.split('\n', 1)[0]]);

describe('evalOperandFrames', () => {
  it('reports an operator short of an operand, which the engine drops silently when assigned, at its .eval', () => {
    // The engine: no diagnostic, @total unset, nothing printed.
    const template = rendererEngine().compile('<p>{.eval @total = price *}{@total}</p>');
    expect(template.render({ price: 2 })).toMatchObject({ html: '<p></p>', errors: [] });
    expect(findings('<p>\n  {.eval @total = price *}{@total}</p>')).toEqual([
      [
        'templates/t.jsont:2:3',
        'RuntimeError EXPRESSION_REDUCE: Error reducing expression: the operator multiply is missing an operand, so the assignment is dropped without a word at render and the variable stays unset',
      ],
    ]);
    expect(findings('{.eval 1 + * 2}').map((f) => f[1])).toEqual(['RuntimeError EXPRESSION_REDUCE: Error reducing expression: the operator multiply is missing an operand, for any data']);
    expect(findings('{.section a}{.eval @a = 1; @b = -}{.end}').map((f) => f[1])).toEqual([
      'RuntimeError EXPRESSION_REDUCE: Error reducing expression: the operator unary minus is missing an operand, so the assignment is dropped without a word at render and the variable stays unset',
    ]);
  });

  it('leaves complete expressions alone, whatever their data, and parse errors to EXPRESSION_PARSE', () => {
    const valid = [
      '{.eval @w = 320; @h = @w / 4}',
      "{.eval 'total: ' + (price * qty)}",
      '{.eval -x}{.eval !a && ~b}{.eval 2 ** -2}{.eval 1 + (@b = 2)}',
      '{.eval max(4, "y]", 2) + min(a, b, c)}{.eval "a, b" + \'[c]\'}',
      '{.eval 1 2 3}{.eval 3, 2, 1}{.eval #@a = 1; @a * max(2, b)}',
      '{.eval foo(1)}{.eval (1 + 2}',
    ];
    for (const text of valid) expect([text, findings(text)]).toEqual([text, []]);
  });
});

import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from './diagnostics.ts';
import { compile } from './index.ts';

describe('Template.expressionDiagnostics', () => {
  it("reports every .eval that does not parse, in blocks, alternates, .or branches and macros, as a render that reaches it would", () => {
    const text = [
      '{.eval 1 + 2}',
      '{.section a}{.eval foo(1)}{.or}{.eval "abc}{.end}',
      '{.repeated section xs}{.alternates with}{.eval 1 # 2}{.end}',
      '{.macro m}{.eval (1}{.end}',
      '{.eval 1 +* 2}',
    ].join('\n');
    const template = compile(text, { name: 'page.jsont' });
    expect(template.diagnostics).toEqual([]);
    const found = template.expressionDiagnostics();
    expect(found.map((d) => `${d.code} ${d.source}:${d.line}:${d.column} ${d.message}`)).toEqual([
      'EXPRESSION_PARSE page.jsont:2:13 Error parsing expression: Invalid function: foo',
      'EXPRESSION_PARSE page.jsont:2:32 Error parsing expression: Unterminated string',
      'EXPRESSION_PARSE page.jsont:3:41 Error parsing expression: Unexpected character at 2: #',
      'EXPRESSION_PARSE page.jsont:4:11 Error parsing expression: Mismatched operator found: left parenthesis',
    ]);
    // The same words and positions as a render that reaches them (`1 +* 2` fails only when
    // evaluated; with `a` true the `.or` branch is not run, and no render runs a macro uncalled).
    const rendered = template.render({ a: true, xs: [1, 2] }).errors.filter((d) => d.code === 'EXPRESSION_PARSE');
    expect(rendered.map((d) => formatDiagnostic(d))).toEqual([found[0]!, found[2]!].map((d) => formatDiagnostic(d)));
  });

  it('finds nothing in a template whose expressions parse, or that has none', () => {
    expect(compile('{a|html}{.section b}{c}{.end}').expressionDiagnostics()).toEqual([]);
    expect(compile('{.eval @x = 1 + 2}{.eval max(1, @x) * 2}').expressionDiagnostics()).toEqual([]);
  });
});

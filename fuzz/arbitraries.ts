// Generators shared by the fuzz properties: template soup (random mixes of JSON-T
// fragments), structured templates that mostly parse, JSON data, and `.eval` programs for
// the expression model.
import fc from 'fast-check';
import type { BinaryOp, Expr, FunctionName, Literal, Statement, UnaryOp } from './expr-model.ts';
import { PRECEDENCE } from './expr-model.ts';

/** Pieces that steer random text towards the interesting corners of the scanner and parser. */
const FRAGMENTS = [
  '{', '}', '{{', '}}', '{.', '.section ', '.repeated section ', '.alternates with', '.or', '.end', '.if ', '.var ',
  '.ctx ', '.macro ', '.eval ', '.include ', '.inject ', '.newline', '.space', '.meta-left', '.meta-right', '.tab',
  '{.end}', '{.or}', '{#', '{##', '##}', '{^', '^', '|', '||', '&&', ' ', '\n', '\t', '\r', '@', '@index', '@.x', '$',
  'a', 'b.c', 'items.0', '?', '.equal? ', 'html', 'json', 'truncate', 'apply ', 'date %Y', ',', ':', '"', "'", '\\',
  '0', '1.5', '-', 'é', '\u2028', '\uD83D', '\uD83D\uDE00', 'x'.repeat(40),
];

export const templateSoup: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), { maxLength: 60 })
  .map((parts) => parts.join(''));

const KEYS = ['a', 'b', 'n', 's', 'items', 'obj', 'flag', 'html'] as const;

/** Data whose keys the structured templates refer to. */
export const jsonData: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    a: fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null), fc.boolean()),
    b: fc.record({ c: fc.oneof(fc.string({ maxLength: 8 }), fc.double({ noNaN: true, noDefaultInfinity: true })) }),
    n: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(0, 1, 2, 1.5, -0.5)),
    s: fc.string({ maxLength: 12 }),
    items: fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer({ min: 0, max: 99 }), fc.record({ a: fc.string({ maxLength: 4 }) })), { maxLength: 5 }),
    obj: fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxKeys: 3 }),
    flag: fc.boolean(),
    html: fc.string({ maxLength: 10 }).map((s) => s + '<b a="x">&amp;'),
  },
  { requiredKeys: [] },
);

const VARIABLES = ['a', 'b.c', 'n', 's', 'items', 'items.0', 'obj', 'obj.a', 'flag', 'html', '@', '@index', '@v', 'missing'];
const FORMATTERS = ['html', 'htmlattr', 'htmltag', 'json', 'count', 'truncate 3', 'slugify', 'str', 'raw', 'safe', 'pluralize x y', 'round', 'capitalize', 'url-encode', 'encode-uri', 'iter', 'smartypants', 'cycle a b', 'json-pretty', 'key-by a', 'lookup a', 'date %Y-%m-%d'];
const PREDICATES = ['equal? n 1', 'notEqual? a b', 'greaterThan? n 0', 'even?', 'odd? n', 'plural?', 'singular? n', 'nth? 2'];

const variable = fc.constantFrom(...VARIABLES);
const text = fc.constantFrom('x', ' ', '\n', '<p>', 'a b', '{', '}', '"', 'é');

const variableTag = fc
  .tuple(variable, fc.array(fc.constantFrom(...FORMATTERS), { maxLength: 2 }))
  .map(([v, fs]) => '{' + v + fs.map((f) => '|' + f).join('') + '}');

/** Templates built from the grammar, so that most of them parse and render something. */
export const structuredTemplate: fc.Arbitrary<string> = fc.letrec<{ body: string; inst: string }>((tie) => ({
  body: fc.array(tie('inst'), { maxLength: 5 }).map((xs) => xs.join('')),
  inst: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    variableTag,
    variableTag,
    fc.tuple(variable, tie('body'), fc.option(tie('body'))).map(([v, b, o]) => `{.section ${v}}${b}${o === null ? '' : '{.or}' + o}{.end}`),
    fc
      .tuple(variable, tie('body'), fc.option(tie('body')), fc.option(tie('body')))
      .map(([v, b, alt, o]) => `{.repeated section ${v}}${b}${alt === null ? '' : '{.alternates with}' + alt}${o === null ? '' : '{.or}' + o}{.end}`),
    fc.tuple(fc.constantFrom(...PREDICATES), tie('body'), fc.option(tie('body'))).map(([p, b, o]) => `{.${p}}${b}${o === null ? '' : '{.or}' + o}{.end}`),
    fc.tuple(variable, fc.constantFrom('&&', '||'), variable, tie('body')).map(([x, op, y, b]) => `{.if ${x} ${op} ${y}}${b}{.end}`),
    fc.tuple(variable, fc.constantFrom(...FORMATTERS)).map(([v, f]) => `{.var @v ${v}|${f}}`),
    fc.constantFrom('{.eval @v = n * 2}', '{.eval s + "!"}', '{.eval max(n, 3)}', '{.eval (1 + 2}', '{.eval #n}', '{# note}', '{##\nmulti\n##}', '{.newline}', '{.meta-left}', '{^x}', '{@|apply p}', '{.include p}', '{.ctx @c k=n}'),
    tie('body').map((b) => `{.macro m}${b}{.end}{@|apply m}`),
  ),
})).body;

// ---- expressions ----

const NUMBER_LITERALS: readonly { text: string; value: number }[] = [
  { text: '0', value: 0 }, { text: '1', value: 1 }, { text: '2', value: 2 }, { text: '3', value: 3 },
  { text: '7', value: 7 }, { text: '10', value: 10 }, { text: '32', value: 32 }, { text: '255', value: 255 },
  { text: '2.5', value: 2.5 }, { text: '0.1', value: 0.1 }, { text: '1e3', value: 1000 }, { text: '1.5e-3', value: 0.0015 },
  { text: '1E2', value: 100 }, { text: '0x1F', value: 31 }, { text: '0XfF', value: 255 }, { text: '007', value: 7 },
  { text: '1.', value: 1 }, { text: '4294967296', value: 4294967296 }, { text: '1e20', value: 1e20 },
];

const STRING_LITERALS: readonly { text: string; value: string }[] = [
  { text: "''", value: '' }, { text: '"a"', value: 'a' }, { text: "'b'", value: 'b' }, { text: '"10"', value: '10' },
  { text: "'9'", value: '9' }, { text: '"-0.5"', value: '-0.5' }, { text: "'0x10'", value: '0x10' }, { text: '" 12"', value: ' 12' },
  { text: "'1e3'", value: '1e3' }, { text: '"1."', value: '1.' }, { text: "'.5'", value: '.5' }, { text: '"true"', value: 'true' },
  { text: "'\\x41b'", value: 'Ab' }, { text: '"\\u00e9"', value: 'é' }, { text: "'a\\tb'", value: 'a\tb' },
  { text: '"x\\"y"', value: 'x"y' }, { text: "'it\\'s'", value: "it's" }, { text: '"\\q"', value: 'q' }, { text: '"+5"', value: '+5' },
];

const CONSTANT_LITERALS: readonly { text: string; value: Literal }[] = [
  { text: 'null', value: null }, { text: 'true', value: true }, { text: 'false', value: false },
  { text: 'PI', value: Math.PI }, { text: 'E', value: Math.E }, { text: 'Infinity', value: Infinity }, { text: 'NaN', value: Number.NaN },
];

/** JSON the `.eval` properties render against; `names` below refer to it. */
export const EXPRESSION_DATA_JSON =
  '{"n": 7, "d": 2.5, "neg": -3, "s": "abc", "ns": "-0.5", "hs": "0x10", "t": true, "f": false, "z": null, "o": {"k": 4, "e": ""}, "a": [1, 2], "PI": "pie"}';

const NAMES = ['n', 'd', 'neg', 's', 'ns', 'hs', 't', 'f', 'z', 'o', 'o.k', 'o.e', 'a', 'missing', '@.PI', '@v1', '@v2'];

const BINARY_OPS = Object.keys(PRECEDENCE) as BinaryOp[];
const UNARY_OPS: UnaryOp[] = ['-', '+', '!', '~'];
const FUNCTIONS: FunctionName[] = ['max', 'min', 'abs', 'num', 'str', 'bool'];

const leaf: fc.Arbitrary<Expr> = fc.oneof(
  fc.constantFrom(...NUMBER_LITERALS).map((l): Expr => ({ kind: 'literal', text: l.text, value: l.value })),
  fc.constantFrom(...STRING_LITERALS).map((l): Expr => ({ kind: 'literal', text: l.text, value: l.value })),
  fc.constantFrom(...CONSTANT_LITERALS).map((l): Expr => ({ kind: 'literal', text: l.text, value: l.value })),
  fc.constantFrom(...NAMES).map((path): Expr => ({ kind: 'name', path })),
);

export const expression: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ kind: fc.constant('unary' as const), op: fc.constantFrom(...UNARY_OPS), operand: tie('expr') }),
    fc.record({ kind: fc.constant('binary' as const), op: fc.constantFrom(...BINARY_OPS), left: tie('expr'), right: tie('expr') }),
    fc.record({ kind: fc.constant('binary' as const), op: fc.constantFrom(...BINARY_OPS), left: tie('expr'), right: tie('expr') }),
    fc.record({ kind: fc.constant('call' as const), fn: fc.constantFrom(...FUNCTIONS), args: fc.array(tie('expr'), { maxLength: 3 }) }),
  ),
})).expr;

const target = fc.constantFrom('@v1', '@v2');

const statement: fc.Arbitrary<Statement> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('assign' as const), target, expr: expression }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('chain' as const), outer: target, target, expr: expression }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('inner' as const), left: expression, target, expr: expression }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('values' as const), exprs: fc.array(expression, { minLength: 2, maxLength: 3 }) }) },
);

/** A few statements (mostly assignments to `@v1`/`@v2`), then one whose value is output. */
export const program: fc.Arbitrary<Statement[]> = fc
  .tuple(
    fc.array(statement, { maxLength: 2 }),
    fc.oneof(
      { weight: 6, arbitrary: expression.map((e): Statement => ({ kind: 'values', exprs: [e] })) },
      { weight: 1, arbitrary: statement },
    ),
  )
  .map(([first, last]) => [...first, last]);

import { describe, expect, it } from 'vitest';
import { JDouble, JavaError, parseJson, type PredicateSpec, type Value } from '../engine/plugin-api.ts';
import { argsErrorOf, bindPredicate, TestPluginContext, type TestFrame } from '../formatters/util/plugin-test-context.ts';
import { compareNodes, corePredicates } from './core.ts';

const byName = new Map(corePredicates.map((p) => [p.name, p]));

function spec(name: string): PredicateSpec<any> {
  const p = byName.get(name);
  if (!p) throw new Error(`no predicate ${name}`);
  return p;
}

/** Evaluates `{.name? args}` with `node` as the current frame above `outer`. */
function check(name: string, args: string[], node: Value, outer: TestFrame[] = []): boolean {
  const p = spec(name);
  const bound = bindPredicate(p, args);
  const ctx = new TestPluginContext([...outer, { node }]);
  return p.test(node, bound, ctx);
}

const j = (text: string): Value => parseJson(text);

function bindError(name: string, args: string[]): string | null {
  return argsErrorOf(() => bindPredicate(spec(name), args));
}

describe('registry', () => {
  it('registers the 12 core predicates', () => {
    expect(corePredicates.map((p) => p.name).sort()).toEqual(
      [
        'debug?', 'equal?', 'even?', 'greaterThan?', 'greaterThanOrEqual?', 'lessThan?', 'lessThanOrEqual?',
        'notEqual?', 'nth?', 'odd?', 'plural?', 'singular?',
      ].sort(),
    );
  });
  it('flags the comparison predicates as requiring arguments', () => {
    expect(corePredicates.filter((p) => p.requiresArgs).map((p) => p.name).sort()).toEqual(
      ['equal?', 'greaterThan?', 'greaterThanOrEqual?', 'lessThan?', 'lessThanOrEqual?', 'notEqual?'].sort(),
    );
  });
});

describe('argument parsing', () => {
  it('rejects arguments that are neither JSON nor references', () => {
    for (const name of ['equal?', 'notEqual?', 'greaterThan?', 'lessThanOrEqual?']) {
      expect(bindError(name, ['1', '.'])).toBe('Argument . must be a valid JSON value or variable reference.');
    }
    expect(bindError('equal?', ['-a'])).toBe('Argument -a must be a valid JSON value or variable reference.');
    expect(bindError('equal?', ['"x'])).toBe('Argument "x must be a valid JSON value or variable reference.');
    expect(bindError('even?', ['a b'])).toBe('Argument a b must be a valid JSON value or variable reference.');
    expect(bindError('nth?', ['2', '{'])).toBe('Argument { must be a valid JSON value or variable reference.');
  });
  it('accepts names that merely start like JSON keywords', () => {
    expect(check('equal?', ['trueish', 'nullable'], null, [{ node: j('{"trueish":1,"nullable":1}') }])).toBe(true);
  });
  it('checks the argument counts', () => {
    expect(bindError('equal?', ['a', 'b', 'c'])).toBe('Too many args. Takes between 1 and 2');
    expect(bindError('greaterThan?', ['a', 'b', 'c'])).toBe('Too many args. Takes between 1 and 2');
    expect(bindError('nth?', [])).toBe('Not enough args. At least 1 expected');
    expect(bindError('nth?', ['1', '2', '3'])).toBe('Too many args. Takes between 1 and 2');
    expect(bindError('even?', ['1', '2'])).toBe('Too many args. Takes between 0 and 1');
    expect(bindError('odd?', ['1', '2'])).toBe('Too many args. Takes between 0 and 1');
  });
});

describe('equal? / notEqual?', () => {
  const root: TestFrame[] = [{ node: j('{"a":1,"d":1.0,"s":"x y","n":null,"o":{"k":[1,2]},"p":{"k":[1,2]}}') }];
  it('compares JSON kinds strictly (LANGUAGE §4.5 example)', () => {
    expect(check('equal?', ['a', '1'], null, root)).toBe(true);
    expect(check('equal?', ['a', '"1"'], null, root)).toBe(false);
    expect(check('equal?', ['a', '1.0'], null, root)).toBe(false);
    expect(check('equal?', ['d', '1.0'], null, root)).toBe(true);
    expect(check('equal?', ['s', '"x y"'], null, root)).toBe(true);
    expect(check('equal?', ['n', 'missing'], null, root)).toBe(false);
    expect(check('equal?', ['n', 'null'], null, root)).toBe(true);
    expect(check('equal?', ['o', 'p'], null, root)).toBe(true);
    expect(check('equal?', ['o', '{"k":[1,2]}'], null, root)).toBe(true);
  });
  it('with one argument compares the current node', () => {
    expect(check('equal?', ['"x"'], 'x', root)).toBe(true);
    expect(check('equal?', ['a'], 1, root)).toBe(true);
    expect(check('equal?', ['a'], undefined, root)).toBe(false);
    expect(check('notEqual?', ['a'], 2, root)).toBe(true);
    expect(check('notEqual?', ['1'], 1, root)).toBe(false);
  });
  it('two missing values are equal', () => {
    expect(check('equal?', ['x', 'y'], null, root)).toBe(true);
    expect(check('notEqual?', ['x', 'y'], null, root)).toBe(false);
  });
});

describe('ordering predicates', () => {
  it('orders integers, coercing the right operand to an integer', () => {
    expect(check('greaterThan?', ['3'], 5)).toBe(true);
    expect(check('greaterThan?', ['3'], 3)).toBe(false);
    expect(check('greaterThanOrEqual?', ['3'], 3)).toBe(true);
    expect(check('lessThan?', ['"4"'], 3)).toBe(true);
    expect(check('lessThan?', ['3.9'], 3)).toBe(false);
    expect(check('greaterThan?', ['"abc"'], 1)).toBe(true);
  });
  it('orders doubles as doubles', () => {
    expect(check('greaterThan?', ['3'], 3.5)).toBe(true);
    expect(check('lessThan?', ['3.6'], 3.5)).toBe(true);
    expect(check('lessThanOrEqual?', ['4'], new JDouble(4))).toBe(true);
  });
  it('orders strings by UTF-16 units against the text of the right operand', () => {
    expect(check('greaterThan?', ['"bcd"'], 'def')).toBe(true);
    expect(check('greaterThan?', ['"bcd"'], 'DEF')).toBe(false);
    expect(check('lessThan?', ['10'], '9')).toBe(false);
    expect(check('lessThan?', ['1.0'], '1')).toBe(true);
  });
  it('orders booleans false < true', () => {
    expect(check('greaterThan?', ['false'], true)).toBe(true);
    expect(check('lessThan?', ['"true"'], false)).toBe(true);
    expect(check('greaterThanOrEqual?', ['true'], true)).toBe(true);
  });
  it('treats any other left operand as less unless equal', () => {
    expect(check('lessThan?', ['{"b":1}'], j('{"a":1}'))).toBe(true);
    expect(check('greaterThan?', ['{"b":1}'], j('{"a":1}'))).toBe(false);
    expect(check('lessThanOrEqual?', ['null'], null)).toBe(true);
    expect(check('lessThan?', ['null'], null)).toBe(false);
    expect(check('lessThan?', ['1'], undefined)).toBe(true);
  });
  it('compares two arguments with each other', () => {
    const root: TestFrame[] = [{ node: j('{"a":3,"b":4}') }];
    expect(check('lessThan?', ['a', 'b'], null, root)).toBe(true);
    expect(check('greaterThan?', ['a', 'b'], null, root)).toBe(false);
  });
  it('keeps big integers exact', () => {
    expect(compareNodes(9007199254740993n, 9007199254740992)).toBe(1);
    expect(compareNodes(9007199254740992, 9007199254740993n)).toBe(-1);
  });
});

describe('long texts compared', () => {
  it('charge both lengths to the render (ctx.work) when each is 64 characters or more', () => {
    const a = 'x'.repeat(64);
    const b = 'x'.repeat(100);
    const worked = (name: string, left: Value, right: Value): number => {
      const ctx = new TestPluginContext([{ node: { left, right } as Value }]);
      spec(name).test(null, bindPredicate(spec(name), ['left', 'right']), ctx);
      return ctx.worked;
    };
    for (const name of ['equal?', 'notEqual?', 'greaterThan?', 'greaterThanOrEqual?', 'lessThan?', 'lessThanOrEqual?']) {
      expect(worked(name, a, b), name).toBe(164);
      expect(worked(name, a.slice(1), b), name).toBe(0);
      expect(worked(name, a, b.slice(0, 63)), name).toBe(0);
      expect(worked(name, a, 5), name).toBe(0);
      expect(worked(name, { a }, b), name).toBe(0);
    }
  });

  it('charge a comparison of containers by what it compared: an instruction (TEXT_PER_STEP) an element or member, and long texts', () => {
    const worked = (name: string, left: Value, right: Value): number => {
      const ctx = new TestPluginContext([{ node: { left, right } as Value }]);
      spec(name).test(null, bindPredicate(spec(name), ['left', 'right']), ctx);
      return ctx.worked;
    };
    const long = 'y'.repeat(100);
    for (const name of ['equal?', 'notEqual?', 'greaterThan?', 'greaterThanOrEqual?', 'lessThan?', 'lessThanOrEqual?']) {
      expect(worked(name, [1, 2, 3], [1, 2, 3]), name).toBe(3 * 64);
      // Stops at the first difference.
      expect(worked(name, [1, 9, 3], [1, 2, 3]), name).toBe(2 * 64);
      // Both objects' names listed, then each member compared.
      expect(worked(name, { p: 1, q: 2 }, { q: 2, p: 1 }), name).toBe(4 * 64 + 2 * 64);
      expect(worked(name, [[long], 'x'], [[long], 'x']), name).toBe(2 * 64 + 64 + 100);
      expect(worked(name, [1], 'text'), name).toBe(0);
    }
  });
});

describe('even? / odd?', () => {
  it('accepts only integer numbers', () => {
    const ins: Value[] = [-5, -4, 0, 3, 4, 1.2, new JDouble(4), '4', null, undefined, true];
    expect(ins.map((v) => check('even?', [], v))).toEqual([false, true, true, false, true, false, false, false, false, false, false]);
    expect(ins.map((v) => check('odd?', [], v))).toEqual([true, false, false, true, false, false, false, false, false, false, false]);
    expect(check('odd?', [], 12345678901234567891n)).toBe(true);
  });
  it('tests the argument when one is given', () => {
    const frames: TestFrame[] = [{ node: {} }, { node: ['a', 'b'], index: 1 }];
    expect(check('even?', ['@index'], 'b', frames)).toBe(true);
    expect(check('odd?', ['@index'], 'b', frames)).toBe(false);
    expect(check('odd?', ['7'], 'b')).toBe(true);
  });
});

describe('nth?', () => {
  it('is true when the integer node is a multiple of the modulus', () => {
    expect([0, 4, 8, -4, 5, 1].map((n) => check('nth?', ['4'], n))).toEqual([true, true, true, true, false, false]);
    const frames: TestFrame[] = [{ node: {} }, { node: ['a', 'b', 'c', 'd'], index: 3 }];
    expect(check('nth?', ['@index0', '3'], 'd', frames)).toBe(true);
  });
  it('is false unless both are integers', () => {
    for (const v of [1.5, new JDouble(4), '4', null, undefined]) expect(check('nth?', ['2'], v)).toBe(false);
    expect(check('nth?', ['2.0'], 4)).toBe(false);
  });
  it('fails at render time for modulus 0', () => {
    let err: unknown;
    try {
      check('nth?', ['0'], 4);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JavaError);
    expect((err as JavaError).javaClass).toBe('ArithmeticException');
  });
});

describe('plural? / singular?', () => {
  it('use the integer of the node', () => {
    const ins: Value[] = [0, 1, 2, 1.1, 1.99, 2.5, '2', '1', -3];
    expect(ins.map((v) => check('plural?', [], v))).toEqual([false, false, true, false, false, true, true, false, false]);
    expect(ins.map((v) => check('singular?', [], v))).toEqual([false, true, false, true, true, false, false, true, false]);
  });
  it('are false for non-numbers', () => {
    for (const v of [undefined, null, 'x', {}, [1, 2]]) {
      expect(check('plural?', [], v)).toBe(false);
      expect(check('singular?', [], v)).toBe(false);
    }
  });
});

describe('debug?', () => {
  it('looks up debug from the current scope outward', () => {
    expect(check('debug?', [], {}, [{ node: { debug: 1 } }])).toBe(true);
    expect(check('debug?', [], { debug: false }, [{ node: { debug: 1 } }])).toBe(false);
    expect(check('debug?', [], { debug: 0 }, [{ node: {} }])).toBe(false);
    expect(check('debug?', [], undefined)).toBe(false);
    expect(check('debug?', [], { debug: null })).toBe(false);
  });
});

// Slide predicate (PLUGINS §10). The slice type name is looked up once, at compile time; an
// unknown name is UNDEFINED (−1) as in the reference, so it matches `currentType: -1`.

import { JavaError, asLong } from '../engine/plugin-api.ts';
import type { PredicateSpec } from '../engine/plugin-api.ts';
import { sliceTypeCode } from '../formatters/util/content-enums.ts';
import { field } from '../formatters/util/image.ts';

/** `code` null: no argument was given, which the reference only notices when testing. */
interface CurrentTypeBound {
  readonly code: number | null;
}

export const slidePredicates: PredicateSpec<any>[] = [
  {
    name: 'current-type?',
    bind: (args: string[]): CurrentTypeBound => ({ code: args.length ? sliceTypeCode(args[0]) : null }),
    test(node, b: CurrentTypeBound) {
      if (b.code === null) throw new JavaError('IndexOutOfBoundsException', 'Index 0 out of bounds for length 0');
      return asLong(field(node, 'currentType')) === b.code;
    },
  },
];

// Commerce predicates (PLUGINS §5): product facts of the current node, computed with the
// shared helpers of §4.0. None takes arguments; like the reference they have no validator,
// so extra arguments are ignored.

import type { PredicateSpec, Value } from '../engine/plugin-api.ts';
import { hasVariants, hasVariedPrices, isOnSale, isSoldOut } from '../formatters/util/product.ts';

function productPredicate(name: string, test: (item: Value) => boolean): PredicateSpec<undefined> {
  return { name, test: (node) => test(node) };
}

export const commercePredicates: PredicateSpec<any>[] = [
  productPredicate('has-variants?', hasVariants),
  productPredicate('on-sale?', isOnSale),
  productPredicate('sold-out?', isSoldOut),
  productPredicate('varied-prices?', hasVariedPrices),
];

// The i18n predicates (PLUGINS §12).
import type { PredicateSpec } from '../engine/plugin-api.ts';

/** Deprecated: accepts any arguments and is always true in the reference. */
const unitsMetric: PredicateSpec<null> = {
  name: 'units-metric?',
  bind: () => null,
  test: () => true,
};

export const i18nPredicates: PredicateSpec<any>[] = [unitsMetric];

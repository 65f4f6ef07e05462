import type { PredicateSpec } from '../engine/plugin-api.ts';

export const commercePredicates: PredicateSpec<any>[] = [];

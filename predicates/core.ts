import type { PredicateSpec } from '../engine/plugin-api.ts';

export const corePredicates: PredicateSpec<any>[] = [];

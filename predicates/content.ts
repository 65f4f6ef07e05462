import type { PredicateSpec } from '../engine/plugin-api.ts';

export const contentPredicates: PredicateSpec<any>[] = [];

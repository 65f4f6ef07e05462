import type { PredicateSpec } from '../engine/plugin-api.ts';

export const socialPredicates: PredicateSpec<any>[] = [];

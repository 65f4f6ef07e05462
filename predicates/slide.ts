import type { PredicateSpec } from '../engine/plugin-api.ts';

export const slidePredicates: PredicateSpec<any>[] = [];

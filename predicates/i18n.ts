import type { PredicateSpec } from '../engine/plugin-api.ts';

export const i18nPredicates: PredicateSpec<any>[] = [];

import type { PredicateSpec } from '../engine/plugin-api.ts';
import { commercePredicates } from './commerce.ts';
import { contentPredicates } from './content.ts';
import { corePredicates } from './core.ts';
import { i18nPredicates } from './i18n.ts';
import { slidePredicates } from './slide.ts';
import { socialPredicates } from './social.ts';

/** Every predicate of PLUGINS.md, one table per family. */
export const defaultPredicates: readonly PredicateSpec<any>[] = [
  ...corePredicates,
  ...commercePredicates,
  ...contentPredicates,
  ...socialPredicates,
  ...slidePredicates,
  ...i18nPredicates,
];

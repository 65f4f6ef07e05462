import type { FormatterSpec } from '../engine/plugin-api.ts';
import { commerceFormatters } from './commerce.ts';
import { contentFormatters } from './content.ts';
import { coreFormatters } from './core.ts';
import { dateFormatters } from './date.ts';
import { i18nFormatters } from './i18n.ts';
import { socialFormatters } from './social.ts';

/** Every formatter of PLUGINS.md, one table per family. */
export const defaultFormatters: readonly FormatterSpec<any>[] = [
  ...coreFormatters,
  ...commerceFormatters,
  ...contentFormatters,
  ...socialFormatters,
  ...dateFormatters,
  ...i18nFormatters,
];

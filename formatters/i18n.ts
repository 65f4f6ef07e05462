import type { FormatterSpec } from '../engine/plugin-api.ts';

export const i18nFormatters: FormatterSpec<any>[] = [];

import type { FormatterSpec } from '../engine/plugin-api.ts';

export const commerceFormatters: FormatterSpec<any>[] = [];

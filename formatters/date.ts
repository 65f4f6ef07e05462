import type { FormatterSpec } from '../engine/plugin-api.ts';

export const dateFormatters: FormatterSpec<any>[] = [];

import type { FormatterSpec } from '../engine/plugin-api.ts';

export const contentFormatters: FormatterSpec<any>[] = [];

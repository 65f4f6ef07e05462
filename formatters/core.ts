import type { FormatterSpec } from '../engine/plugin-api.ts';

export const coreFormatters: FormatterSpec<any>[] = [];

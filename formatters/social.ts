import type { FormatterSpec } from '../engine/plugin-api.ts';

export const socialFormatters: FormatterSpec<any>[] = [];

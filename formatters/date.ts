// The `date` formatter (PLUGINS §2, §14): epoch milliseconds rendered with a strftime-like
// pattern in the website's time zone. The pattern is compiled once per template.
import { asLong, type FormatterSpec, type Ref } from '../engine/plugin-api.ts';
import { timeZoneRef, zoneText } from './util/cldr.ts';
import { compileDatePattern, formatDatePattern, type CompiledDatePattern } from './util/date-pattern.ts';

interface DateBound {
  readonly pattern: CompiledDatePattern;
  readonly zone: Ref | null;
}

const date: FormatterSpec<DateBound> = {
  name: 'date',
  requiresArgs: true,
  bind(args, ctx) {
    // `date` re-joins its arguments with the original delimiter (PLUGINS §1.1).
    return { pattern: compileDatePattern(args.join(ctx.delimiter)), zone: timeZoneRef(ctx) };
  },
  apply(value, bound, ctx) {
    return formatDatePattern(bound.pattern, asLong(value), zoneText(ctx, bound.zone), ctx.locale);
  },
};

export const dateFormatters: FormatterSpec<any>[] = [date];

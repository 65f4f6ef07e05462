// Number and currency formatting with the locale work done once. The CLDR engine resolves a
// pattern, symbols, grouping, fraction digits and currency spacing on every call (and parses
// the amount into its own decimal type), which was about a quarter of a product page's render.
// None of that depends on the amount: for one (locale, currency, options) the output is
// always prefix + grouped digits + suffix, the prefix and suffix chosen by the sign of the
// rounded amount. A plan holds those pieces, read from the engine's own output for probe
// amounts (so its data and spacing rules are the engine's, not a copy), and the render
// writes the digits of a decimal text directly, rounding it on its digits.
//
// A plan is built only for the shapes it reproduces exactly (no significant digits, no
// compact or scientific style, no `name`/`code` currency style whose words follow the plural
// category, Latin digits) and checks itself against the engine on tricky amounts before it
// is used; anything else, and any amount text that is not plain `-ddd.ddd`, goes through
// the engine. `number-plan.test.ts` compares the two on random amounts.
import { Decimal } from '@phensley/cldr';
import type { CLDR, CurrencyFormatOptions, DecimalFormatOptions, Part, RoundingModeType } from '@phensley/cldr';
import { parseDecimal } from './cldr-values.ts';

/** What the engine prints for a number of one (locale, currency, options), minus the digits. */
export interface NumberPlan {
  readonly posPrefix: string;
  readonly posSuffix: string;
  readonly negPrefix: string;
  readonly negSuffix: string;
  readonly decimal: string;
  /** '' when grouping is off. */
  readonly group: string;
  readonly primary: number;
  readonly secondary: number;
  /** Integer digit count (after padding to `minInt`) from which digits are grouped. */
  readonly groupFrom: number;
  readonly minInt: number;
  readonly minFrac: number;
  readonly maxFrac: number;
  readonly round: Rounding;
  /** Decimal places the amount moves right first: 2 for percent, 3 for permille. */
  readonly shift: number;
}

const enum Rounding {
  HalfEven,
  HalfUp,
  HalfDown,
  Up,
  Down,
  Ceiling,
  Floor,
}

const ROUNDING: Record<RoundingModeType, Rounding> = {
  'half-even': Rounding.HalfEven,
  'half-up': Rounding.HalfUp,
  'half-down': Rounding.HalfDown,
  up: Rounding.Up,
  down: Rounding.Down,
  ceiling: Rounding.Ceiling,
  floor: Rounding.Floor,
};

// ---- rendering ---------------------------------------------------------------------------

/** The reference parses amounts of up to 400 characters (cldr-values.ts `parseDecimal`). */
const MAX_TEXT = 400;

/**
 * Formats decimal text with a plan; undefined when the text is not `[-]digits[.digits]`
 * with an optional exponent `E[+-]digits` (`+5`, spaces, `.5`, `5.`, exponents beyond ±400,
 * overlong text: the caller then asks the engine).
 */
export function formatPlanned(plan: NumberPlan, text: string): string | undefined {
  const n = text.length;
  if (n === 0 || n > MAX_TEXT) return undefined;
  let i = 0;
  let negative = false;
  if (text.charCodeAt(0) === 45 /* - */) {
    negative = true;
    i = 1;
  }
  const intStart = i;
  while (i < n && isDigit(text.charCodeAt(i))) i++;
  if (i === intStart) return undefined;
  let int = text.slice(intStart, i);
  let frac = '';
  if (i < n && text.charCodeAt(i) === 46 /* . */) {
    const fracStart = ++i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (i === fracStart) return undefined;
    frac = text.slice(fracStart, i);
  }
  if (i < n) {
    // An exponent, as Java prints doubles from 1e7 and below 1e-3 (`1.2345E7`).
    const c = text.charCodeAt(i);
    if (c !== 101 && c !== 69 /* e E */) return undefined;
    const exponent = parseExponent(text, i + 1);
    if (exponent === undefined) return undefined;
    const digits = int + frac;
    const point = int.length + exponent;
    if (point <= 0) {
      int = '';
      frac = '0'.repeat(-point) + digits;
    } else if (point >= digits.length) {
      int = digits + '0'.repeat(point - digits.length);
      frac = '';
    } else {
      int = digits.slice(0, point);
      frac = digits.slice(point);
    }
  }
  if (plan.shift > 0) {
    // Percent and permille move the point right before rounding, as the engine does.
    const moved = frac.length >= plan.shift ? frac.slice(0, plan.shift) : frac + '0'.repeat(plan.shift - frac.length);
    int += moved;
    frac = frac.slice(plan.shift);
  }
  // Leading zeros carry no value (`007.5` is 7.5).
  let lead = 0;
  while (lead < int.length && int.charCodeAt(lead) === 48) lead++;
  if (lead > 0) int = int.slice(lead);

  if (frac.length > plan.maxFrac) {
    const kept = frac.slice(0, plan.maxFrac);
    if (roundsAway(plan.round, negative, int, kept, frac, plan.maxFrac)) {
      const digits = increment(int + kept);
      int = digits.slice(0, digits.length - kept.length);
      frac = digits.slice(digits.length - kept.length);
    } else frac = kept;
  }
  // Trailing fraction zeros go, down to the minimum; short fractions are padded to it.
  let end = frac.length;
  while (end > plan.minFrac && frac.charCodeAt(end - 1) === 48) end--;
  if (end < frac.length) frac = frac.slice(0, end);
  else if (frac.length < plan.minFrac) frac += '0'.repeat(plan.minFrac - frac.length);

  // A zero is printed unsigned, whatever the sign of the amount before rounding.
  if (negative && int.length === 0 && isZeros(frac)) negative = false;
  if (int.length < plan.minInt) int = '0'.repeat(plan.minInt - int.length) + int;
  if (plan.group !== '' && int.length >= plan.groupFrom) int = grouped(int, plan);
  const number = frac.length === 0 ? int : int + plan.decimal + frac;
  return negative ? plan.negPrefix + number + plan.negSuffix : plan.posPrefix + number + plan.posSuffix;
}

/** `[+-]digits` from `at` to the end, at most ±400 (larger ones are the engine's). */
function parseExponent(text: string, at: number): number | undefined {
  let i = at;
  let negative = false;
  const c = text.charCodeAt(i);
  if (c === 43 || c === 45 /* + - */) {
    negative = c === 45;
    i++;
  }
  if (i >= text.length || text.length - i > 3) return undefined;
  let value = 0;
  for (; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (!isDigit(d)) return undefined;
    value = value * 10 + (d - 48);
  }
  if (value > MAX_TEXT) return undefined;
  return negative ? -value : value;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isZeros(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== 48) return false;
  return true;
}

/**
 * Whether dropping `frac` after `kept` rounds the magnitude up. `int` + `kept` are the digits
 * kept (their last digit decides half-even ties).
 */
function roundsAway(mode: Rounding, negative: boolean, int: string, kept: string, frac: string, at: number): boolean {
  const first = frac.charCodeAt(at) - 48;
  let restNonZero = false;
  for (let j = at + 1; j < frac.length; j++) {
    if (frac.charCodeAt(j) !== 48) {
      restNonZero = true;
      break;
    }
  }
  // The engine's decimal drops, without rounding, a number whose leading digit lies two or
  // more places below the last one kept (0.00001 to 3 places `up` is 0.000, 0.0001 is 0.001).
  if (first === 0 && int.length === 0 && isZeros(kept)) return false;
  const dropped = first !== 0 || restNonZero;
  switch (mode) {
    case Rounding.Down:
      return false;
    case Rounding.Up:
      return dropped;
    case Rounding.Ceiling:
      return dropped && !negative;
    case Rounding.Floor:
      return dropped && negative;
    case Rounding.HalfUp:
      return first >= 5;
    case Rounding.HalfDown:
      return first > 5 || (first === 5 && restNonZero);
    default: {
      if (first !== 5 || restNonZero) return first >= 5;
      const last = kept.length > 0 ? kept.charCodeAt(kept.length - 1) : int.length > 0 ? int.charCodeAt(int.length - 1) : 48;
      return (last - 48) % 2 === 1;
    }
  }
}

/** Adds one to a digit string (`''` is zero). */
function increment(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits.charCodeAt(i) === 57) i--;
  const tail = '0'.repeat(digits.length - 1 - i);
  if (i < 0) return '1' + tail;
  return digits.slice(0, i) + String.fromCharCode(digits.charCodeAt(i) + 1) + tail;
}

function grouped(int: string, plan: NumberPlan): string {
  let end = int.length - plan.primary;
  let out = int.slice(end);
  while (end > 0) {
    const start = Math.max(0, end - plan.secondary);
    out = int.slice(start, end) + plan.group + out;
    end = start;
  }
  return out;
}

// ---- building a plan from the engine's output -------------------------------------------

type Engine = (amount: Decimal) => Part[];

interface NumberShape {
  prefix: string;
  suffix: string;
  /** The integer digits in their groups, most significant first. */
  ints: string[];
  group: string;
  decimal: string;
  fraction: string;
}

const NUMBER_PARTS = new Set(['integer', 'group', 'decimal', 'fraction']);

function shapeOf(parts: Part[]): NumberShape | null {
  let first = -1;
  let last = -1;
  for (let i = 0; i < parts.length; i++) {
    if (NUMBER_PARTS.has(parts[i].type)) {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first < 0) return null;
  const shape: NumberShape = { prefix: '', suffix: '', ints: [], group: '', decimal: '', fraction: '' };
  for (let i = 0; i < parts.length; i++) {
    const { type, value } = parts[i];
    if (i < first) shape.prefix += value;
    else if (i > last) shape.suffix += value;
    else if (type === 'integer') shape.ints.push(value);
    else if (type === 'group') shape.group = value;
    else if (type === 'decimal') shape.decimal = value;
    else if (type === 'fraction') shape.fraction = value;
    else return null; // something else inside the number
  }
  return shape;
}

const ASCII_DIGITS = /^[0-9]*$/;
const BIG = '1234567890123456789.' + '1'.repeat(60);

// Amounts on which a plan must agree with the engine before it is used: ties, carries into
// a new digit and a new group, signed zeros, long fractions, the minimum integer digits.
// Few, because they are formatted cold, on a page's first render; the property tests of
// number-plan.test.ts try the plans on random amounts.
const SELF_CHECK = [
  '0', '-0.0', '1', '-1', '0.5', '2.5', '-0.005', '0.125', '9.995', '999999.5', '-1234.5678', '1000',
  '12345678901234567890.125', '0.0001',
];

function buildPlan(engine: Engine, options: { round?: RoundingModeType; minimumIntegerDigits?: number }, shift: number): NumberPlan | null {
  const run = (text: string): NumberShape | null => shapeOf(engine(new Decimal(text)));
  // Probes name the number printed; percent and permille print the amount moved right.
  const printed = (int: string): string =>
    shift === 0 ? int : int.length > shift ? int.slice(0, -shift) + '.' + int.slice(-shift) : '0.' + '0'.repeat(shift - int.length) + int;
  const pos = run(BIG);
  const neg = run('-' + BIG);
  const one = run(printed('1'));
  const tenth = run(printed('0') + (shift === 0 ? '.1' : '1'));
  if (!pos || !neg || !one || !tenth) return null;
  if (neg.group !== pos.group || neg.decimal !== pos.decimal || neg.ints.join('|') !== pos.ints.join('|')) return null;
  if (neg.fraction.length !== pos.fraction.length) return null;
  const digits = pos.ints.join('') + pos.fraction + one.ints.join('') + one.fraction;
  if (!ASCII_DIGITS.test(digits) || tenth.ints.length === 0) return null;

  const maxFrac = pos.fraction.length;
  const minFrac = one.fraction.length;
  const minInt = one.ints.join('').length;
  let primary = 0;
  let secondary = 0;
  let groupFrom = Infinity;
  if (pos.group !== '') {
    const sizes = pos.ints.map((s) => s.length);
    primary = sizes[sizes.length - 1];
    secondary = sizes.length > 2 ? sizes[sizes.length - 2] : primary;
    for (let k = 1; k < sizes.length - 1; k++) if (sizes[k] !== secondary) return null;
    // The engine groups from `minimumGroupingDigits + primary` integer digits (after padding
    // to the minimum); find that count.
    for (let len = 1; len <= primary + 4; len++) {
      const probe = run(printed('1'.repeat(len)));
      if (probe && probe.ints.length > 1) {
        groupFrom = len;
        break;
      }
    }
    if (groupFrom === Infinity) return null;
  }
  const plan: NumberPlan = {
    posPrefix: pos.prefix,
    posSuffix: pos.suffix,
    negPrefix: neg.prefix,
    negSuffix: neg.suffix,
    decimal: pos.decimal || one.decimal,
    group: pos.group,
    primary,
    secondary,
    groupFrom,
    minInt,
    minFrac,
    maxFrac,
    round: ROUNDING[options.round ?? 'half-even'] ?? Rounding.HalfEven,
    shift,
  };
  for (const text of SELF_CHECK) {
    const expected = engine(new Decimal(text)).map((p) => p.value).join('');
    if (formatPlanned(plan, text) !== expected) return null;
  }
  return plan;
}

function plainOptions(o: DecimalFormatOptions | CurrencyFormatOptions): boolean {
  return (
    o.minimumSignificantDigits === undefined &&
    o.maximumSignificantDigits === undefined &&
    // `minInt:0` drops the leading zero of 0.5, which moves the currency spacing.
    o.minimumIntegerDigits !== 0 &&
    o.nu === undefined &&
    !('cash' in o && o.cash) &&
    !('divisor' in o && o.divisor)
  );
}

const DECIMAL_SHIFT: Partial<Record<NonNullable<DecimalFormatOptions['style']>, number>> = {
  decimal: 0,
  percent: 2,
  'percent-scaled': 0,
  permille: 3,
  'permille-scaled': 0,
};

/** The plan of `cldr.Numbers.formatCurrency` for a currency and options; null when it has none. */
export function currencyPlanFor(cldr: CLDR, currency: string, options: CurrencyFormatOptions): NumberPlan | null {
  const style = options.style ?? 'symbol';
  if ((style !== 'symbol' && style !== 'accounting') || !plainOptions(options)) return null;
  try {
    return buildPlan((d) => cldr.Numbers.formatCurrencyToParts(d, currency as never, options), options, 0);
  } catch {
    return null; // the engine rejects this currency: every call goes to it and fails the same way
  }
}

/** The plan of `cldr.Numbers.formatDecimal` for options; null when it has none. */
export function decimalPlanFor(cldr: CLDR, options: DecimalFormatOptions): NumberPlan | null {
  const shift = DECIMAL_SHIFT[options.style ?? 'decimal'];
  if (shift === undefined || !plainOptions(options)) return null;
  try {
    return buildPlan((d) => cldr.Numbers.formatDecimalToParts(d, options), options, shift);
  } catch {
    return null;
  }
}

// ---- plans per call site ---------------------------------------------------------------

// Plans shared by every call site with the same (kind, locale, currency, options). Locales
// come from render options and currencies from data, so the table is bounded.
const plans = new Map<string, NumberPlan | null>();
const MAX_PLANS = 512;
/** Longer currency texts are not CLDR codes; they are formatted by the engine, unremembered. */
const MAX_CURRENCY = 16;

function sharedPlan(key: string, build: () => NumberPlan | null): NumberPlan | null {
  let plan = plans.get(key);
  if (plan === undefined) {
    plan = build();
    if (plans.size >= MAX_PLANS) plans.clear();
    plans.set(key, plan);
  }
  return plan;
}

/**
 * A `money` call site (or a message's money argument): its options, bound when the template
 * is compiled, and the plan of the last (locale, currency) it printed, so that a page in one
 * locale and one currency finds its plan with two string comparisons.
 */
export class CurrencySite {
  // The options as a key of the shared plans, made on the first render: made in the
  // constructor, its JSON.stringify was ~20% of compiling a template of `money` calls.
  private key: string | null = null;
  private locale = '';
  private currency = '';
  private plan: NumberPlan | null = null;

  constructor(readonly options: CurrencyFormatOptions) {}

  planFor(cldr: CLDR, locale: string, currency: string): NumberPlan | null {
    if (currency === this.currency && locale === this.locale) return this.plan;
    if (currency.length > MAX_CURRENCY) return null;
    const key = (this.key ??= JSON.stringify(this.options));
    const plan = sharedPlan(`c\u0000${locale}\u0000${currency}\u0000${key}`, () => currencyPlanFor(cldr, currency, this.options));
    this.locale = locale;
    this.currency = currency;
    this.plan = plan;
    return plan;
  }

  /** An amount text in `currency`: through the plan when it has one, else the engine; undefined when the text does not parse. */
  format(cldr: CLDR, locale: string, currency: string, text: string): string | undefined {
    const plan = this.planFor(cldr, locale, currency);
    const planned = plan === null ? undefined : formatPlanned(plan, text);
    if (planned !== undefined) return planned;
    const n = parseDecimal(text);
    return n === null ? undefined : cldr.Numbers.formatCurrency(n, currency as never, this.options);
  }
}

/** A `decimal` call site: as `CurrencySite`, keyed by locale only. */
export class DecimalSite {
  /** As `CurrencySite.key`. */
  private key: string | null = null;
  private locale = '';
  private plan: NumberPlan | null = null;

  constructor(readonly options: DecimalFormatOptions) {}

  planFor(cldr: CLDR, locale: string): NumberPlan | null {
    if (locale === this.locale) return this.plan;
    const key = (this.key ??= JSON.stringify(this.options));
    const plan = sharedPlan(`d\u0000${locale}\u0000${key}`, () => decimalPlanFor(cldr, this.options));
    this.locale = locale;
    this.plan = plan;
    return plan;
  }

  /** As `CurrencySite.format`, for a plain number. */
  format(cldr: CLDR, locale: string, text: string): string | undefined {
    const plan = this.planFor(cldr, locale);
    const planned = plan === null ? undefined : formatPlanned(plan, text);
    if (planned !== undefined) return planned;
    const n = parseDecimal(text);
    return n === null ? undefined : cldr.Numbers.formatDecimal(n, this.options);
  }
}

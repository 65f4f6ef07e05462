// Seed 001 §5: in a `message` pattern, plural keys are `=N` (an exact number) or one of the
// plural categories of the locale ("other keys must be valid for the locale"). The formatter
// itself follows PLUGINS §11 and simply never matches an unknown key; this check finds such
// keys where patterns are authored (site.json `localizedStrings`, by `quire check`), with the
// engine's own message parser, so what it reads is what `message` runs.
import { buildMessageMatcher, parseMessagePattern, type MessageCode } from '@phensley/cldr';

/** The argument formatters `message` patterns may name (util/i18n-message.ts). */
const MATCHER = buildMessageMatcher(['money', 'currency', 'number', 'decimal', 'datetime', 'datetime-interval']);

const OP = { plural: 2, select: 3, block: 4 } as const;
const CHOICE_CATEGORY = 1;
const ORDINAL = 1;

function categories(locale: string, type: 'cardinal' | 'ordinal'): readonly string[] | null {
  try {
    return new Intl.PluralRules(locale, { type }).resolvedOptions().pluralCategories;
  } catch {
    return null;
  }
}

/** One message per plural key the locale does not have; [] for a locale without data. */
export function pluralKeyProblems(pattern: string, locale: string): string[] {
  if (locale === 'none' || !pattern.includes('plural') && !pattern.includes('selectordinal')) return [];
  let code: MessageCode;
  try {
    code = parseMessagePattern(pattern, MATCHER);
  } catch {
    return [];
  }
  const problems: string[] = [];
  const visit = (node: unknown): void => {
    if (!Array.isArray(node)) return;
    const op = node[0];
    if (op === OP.block) for (const child of node[1] as unknown[]) visit(child);
    else if (op === OP.select) for (const choice of node[2] as unknown[][]) visit(choice[1]);
    else if (op === OP.plural) {
      const type = node[3] === ORDINAL ? 'ordinal' : 'cardinal';
      const valid = categories(locale, type);
      for (const choice of node[4] as unknown[][]) {
        const key = String(choice[1]);
        if (choice[0] === CHOICE_CATEGORY && valid && !valid.includes(key)) {
          problems.push(`${type === 'ordinal' ? 'selectordinal' : 'plural'} key "${key}" is not a plural category of ${locale} (${valid.join(', ')}); use =N for an exact number`);
        }
        visit(choice[2]);
      }
    }
  };
  visit(code);
  return problems;
}

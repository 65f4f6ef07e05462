import { describe, expect, it } from 'vitest';
import { pluralKeyProblems } from './message-plural-keys.ts';

describe('pluralKeyProblems (seed §5: =N, or a category of the locale)', () => {
  it('accepts =N keys and the categories of the locale', () => {
    expect(pluralKeyProblems('{0 plural =0{none} one{# item} other{# items}}', 'en-US')).toEqual([]);
    expect(pluralKeyProblems('{0 plural one{#} few{#} many{#} other{#}}', 'pl-PL')).toEqual([]);
    expect(pluralKeyProblems('{0 selectordinal one{#st} two{#nd} few{#rd} other{#th}}', 'en-US')).toEqual([]);
    expect(pluralKeyProblems('No plural here {0}', 'en-US')).toEqual([]);
  });

  it('names each key the locale lacks, inside selects and nested plurals too', () => {
    expect(pluralKeyProblems('{0 plural one{# item} few{# items} other{# items}}', 'en-US')).toEqual([
      'plural key "few" is not a plural category of en-US (one, other); use =N for an exact number',
    ]);
    expect(pluralKeyProblems('{g select a{{0 plural zero{none} other{#}}} other{x}}', 'de-DE')).toEqual([
      'plural key "zero" is not a plural category of de-DE (one, other); use =N for an exact number',
    ]);
    expect(pluralKeyProblems('{0 selectordinal few{#} other{#}}', 'fr-FR')).toEqual([
      'selectordinal key "few" is not a plural category of fr-FR (one, other); use =N for an exact number',
    ]);
  });

  it('checks nothing without locale data or for a pattern that does not parse', () => {
    expect(pluralKeyProblems('{0 plural few{#} other{#}}', 'none')).toEqual([]);
    expect(pluralKeyProblems('{0 plural few{# other{#}', 'en-US')).toEqual([]);
  });
});

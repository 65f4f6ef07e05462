// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { announcer, attentionText, clearAttention, focusWithError, saidWith } from './announce.ts';

afterEach(() => {
  document.body.innerHTML = '';
});

const said = () => announcer(document.body).textContent;

describe('a wrong field said to a screen reader', () => {
  test('the count is said for several fields, nothing for one', () => {
    expect(attentionText(0)).toBe('');
    expect(attentionText(1)).toBe('');
    expect(attentionText(2)).toBe('2 fields need attention.');
    expect(attentionText(7)).toBe('7 fields need attention.');
    expect(saidWith('Required', 2)).toBe('Required. 2 fields need attention.');
    expect(saidWith('Enter a valid email address.', 3)).toBe('Enter a valid email address. 3 fields need attention.');
    expect(saidWith('Required', 1)).toBe('Required');
    expect(saidWith('', 2)).toBe('2 fields need attention.');
  });

  test('focus moved to the first of several wrong fields: the region says only the count (the field reads its own error)', () => {
    document.body.innerHTML = '<input id="a"><input id="b"><button id="go">Go</button>';
    announcer(document.body);
    document.getElementById('go')!.focus();
    focusWithError(document.getElementById('a')!, 'Required', 2);
    expect(document.activeElement!.id).toBe('a');
    expect(said()).toBe('2 fields need attention.');
  });

  test('focus already in the first wrong field: its error, then the count', () => {
    document.body.innerHTML = '<input id="a"><input id="b">';
    const a = document.getElementById('a')!;
    a.focus();
    focusWithError(a, 'Required', 2);
    expect(said()).toBe('Required. 2 fields need attention.');
    focusWithError(a, 'Required');
    expect(said()).toBe('Required');
  });

  test('a later submit with one field wrong leaves no count of the earlier one behind; a corrected field empties the region', () => {
    document.body.innerHTML = '<input id="a"><input id="b"><button id="go">Go</button>';
    const go = document.getElementById('go')!;
    go.focus();
    focusWithError(document.getElementById('a')!, 'Required', 3);
    go.focus();
    focusWithError(document.getElementById('b')!, 'Required', 1);
    expect(said()).toBe('');
    focusWithError(document.getElementById('a')!, 'Required', 2);
    clearAttention(document.getElementById('a')!);
    expect(said()).toBe('');
  });
});

// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { focusableIn, trapTab } from './focus.ts';

afterEach(() => {
  document.body.innerHTML = '';
});

function tab(shiftKey = false): KeyboardEvent {
  return new KeyboardEvent('keydown', { key: 'Tab', shiftKey });
}

describe('the Tab loop of a modal', () => {
  test('controls under a hidden or inert ancestor are not ends of the loop', () => {
    document.body.innerHTML =
      '<div id="d"><button id="a">x</button><div hidden><input id="h"></div><a id="b" href="/p">More</a><div inert><button id="i">no</button></div></div>';
    const root = document.getElementById('d')!;
    expect(focusableIn(root).map((el) => el.id)).toEqual(['a', 'b']);
    document.getElementById('b')!.focus();
    expect(trapTab(root, tab())).toBe(true);
    expect(document.activeElement?.id).toBe('a');
    expect(trapTab(root, tab(true))).toBe(true);
    expect(document.activeElement?.id).toBe('b');
  });

  test('a control added after the loop was first walked becomes its end', () => {
    document.body.innerHTML = '<div id="d"><button id="a">x</button><a id="b" href="/p">More</a></div>';
    const root = document.getElementById('d')!;
    const late = document.createElement('button');
    late.id = 'c';
    root.append(late);
    late.focus();
    expect(trapTab(root, tab())).toBe(true);
    expect(document.activeElement?.id).toBe('a');
  });
});

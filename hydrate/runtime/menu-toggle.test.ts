// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { startMenuToggles } from './menu-toggle.ts';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('menu buttons (issue 16: the phone navigation)', () => {
  test('revealed by the script, toggles aria-expanded, Escape inside the menu closes it and focuses the button', () => {
    document.body.innerHTML =
      '<button type="button" data-menu-toggle aria-controls="nav" aria-expanded="false" hidden>Menu</button><nav id="nav"><a href="/shop">Shop</a></nav>';
    const button = document.querySelector('button')!;
    const stop = startMenuToggles(document);
    expect(button.hidden).toBe(false);
    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const link = document.querySelector('a')!;
    link.focus();
    link.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
    button.click();
    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    stop();
    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  test('a button whose target is missing stays hidden', () => {
    document.body.innerHTML = '<button type="button" data-menu-toggle aria-controls="nope" aria-expanded="false" hidden>Menu</button>';
    startMenuToggles(document);
    expect(document.querySelector('button')!.hidden).toBe(true);
  });
});

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

  test('focus leaving the button and the menu, or a click elsewhere, closes it; focus and clicks inside keep it open', () => {
    document.body.innerHTML =
      '<button type="button" data-menu-toggle aria-controls="nav" aria-expanded="false" hidden>Menu</button><nav id="nav"><a href="/shop">Shop</a><a href="/journal">Journal</a></nav><main><a href="/after">After</a><p>Text</p></main>';
    const button = document.querySelector('button')!;
    const [shop, journal, after] = [...document.querySelectorAll('a')];
    const stop = startMenuToggles(document);
    button.focus();
    button.click();
    shop!.focus();
    journal!.focus();
    journal!.click();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    // Tab past the last link.
    after!.focus();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(after);
    // A click on the page's text.
    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    document.querySelector('p')!.click();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    stop();
  });

  test('Escape closes the menu while focus is still on the button that opened it', () => {
    document.body.innerHTML =
      '<button type="button" data-menu-toggle aria-controls="nav" aria-expanded="false" hidden>Menu</button><nav id="nav"><a href="/shop">Shop</a></nav>';
    const button = document.querySelector('button')!;
    const stop = startMenuToggles(document);
    button.focus();
    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
    stop();
  });

  test('an open menu closes when the window leaves the phone layout (the seed\'s 432/433 px breakpoint)', () => {
    // A MediaQueryList the test can move across the breakpoint.
    const list = Object.assign(new EventTarget(), { matches: true, media: '' });
    const asked: string[] = [];
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => {
      asked.push(query);
      list.media = query;
      return list;
    }) as unknown as typeof window.matchMedia;
    try {
      document.body.innerHTML = '<button type="button" data-menu-toggle aria-controls="nav" aria-expanded="false" hidden>Menu</button><nav id="nav"></nav>';
      const button = document.querySelector('button')!;
      const stop = startMenuToggles(document);
      expect(asked).toEqual(['(max-width: 432px)']);
      button.click();
      expect(button.getAttribute('aria-expanded')).toBe('true');
      // Still a phone (a rotation within 432 px): the menu stays open.
      list.dispatchEvent(new Event('change'));
      expect(button.getAttribute('aria-expanded')).toBe('true');
      list.matches = false;
      list.dispatchEvent(new Event('change'));
      expect(button.getAttribute('aria-expanded')).toBe('false');
      stop();
      list.matches = true;
      button.setAttribute('aria-expanded', 'true');
      list.matches = false;
      list.dispatchEvent(new Event('change'));
      expect(button.getAttribute('aria-expanded')).toBe('true');
    } finally {
      window.matchMedia = original;
    }
  });

  test('aria-controls names several parts of one menu: focus and clicks in any keep it open, Escape in any closes it', () => {
    document.body.innerHTML =
      '<button type="button" data-menu-toggle aria-controls="nav search" aria-expanded="false" hidden>Menu</button><nav id="nav"><a href="/shop">Shop</a></nav>' +
      '<form id="search"><input type="search" name="q"></form><main><a href="/after">After</a></main>';
    const button = document.querySelector('button')!;
    const [shop, after] = [...document.querySelectorAll('a')];
    const input = document.querySelector('input')!;
    const stop = startMenuToggles(document);
    button.click();
    shop!.focus();
    input.focus();
    input.click();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
    button.click();
    input.focus();
    after!.focus();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    stop();
  });

  test('a button after its menu in the markup (where the phone row shows it): while open, Tab goes button, menu, then what follows the button', () => {
    document.body.innerHTML =
      '<header><a href="/">Brand</a><nav id="nav"><a href="/shop">Shop</a><a href="/journal">Journal</a></nav><a href="/cart">Cart</a>' +
      '<button type="button" data-menu-toggle aria-controls="nav" aria-expanded="false" hidden>Menu</button></header><main><a href="/after">After</a></main>';
    // Everything is laid out here (the test DOM has no layout to ask).
    const rects = Element.prototype.getClientRects;
    Element.prototype.getClientRects = function () {
      return [{}] as unknown as DOMRectList;
    };
    try {
      const button = document.querySelector('button')!;
      const stop = startMenuToggles(document);
      const tab = (shiftKey = false) => {
        const event = new KeyboardEvent('keydown', { key: 'Tab', shiftKey, bubbles: true, cancelable: true });
        document.activeElement!.dispatchEvent(event);
        return event.defaultPrevented;
      };
      const link = (href: string) => document.querySelector<HTMLElement>(`a[href="${href}"]`)!;
      // Closed: the browser's own order (Brand, Cart, Menu as the row reads).
      button.focus();
      expect(tab()).toBe(false);
      button.click();
      expect(tab()).toBe(true);
      expect(document.activeElement).toBe(link('/shop'));
      expect(tab(true)).toBe(true);
      expect(document.activeElement).toBe(button);
      link('/shop').focus();
      expect(tab()).toBe(false); // Shop to Journal: the browser's own step
      link('/journal').focus();
      expect(tab()).toBe(true);
      expect(document.activeElement).toBe(link('/after'));
      expect(button.getAttribute('aria-expanded')).toBe('false');
      // Shift+Tab from the open button is the browser's (back to Cart, closing the menu).
      button.click();
      button.focus();
      expect(tab(true)).toBe(false);
      stop();
    } finally {
      Element.prototype.getClientRects = rects;
    }
  });

  test('a button whose target is missing stays hidden', () => {
    document.body.innerHTML = '<button type="button" data-menu-toggle aria-controls="nope" aria-expanded="false" hidden>Menu</button>';
    startMenuToggles(document);
    expect(document.querySelector('button')!.hidden).toBe(true);
  });
});

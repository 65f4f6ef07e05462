// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { updateCartLinks } from './cart-link.ts';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the header cart link count (issue 16)', () => {
  test('shows the count and says it in the link name; an empty cart removes both', () => {
    document.body.innerHTML = '<header><a class="sf-cart-link" href="/cart">Cart</a></header>';
    const link = document.querySelector('.sf-cart-link')!;
    updateCartLinks(document, 1);
    expect(link.textContent).toBe('Cart1');
    expect(link.querySelector('.sf-cart-link-count')!.getAttribute('aria-hidden')).toBe('true');
    expect(link.getAttribute('aria-label')).toBe('Cart, 1 item');
    updateCartLinks(document, 3);
    expect(link.querySelectorAll('.sf-cart-link-count')).toHaveLength(1);
    expect(link.getAttribute('aria-label')).toBe('Cart, 3 items');
    updateCartLinks(document, 0);
    expect(link.textContent).toBe('Cart');
    expect(link.hasAttribute('aria-label')).toBe(false);
  });
});

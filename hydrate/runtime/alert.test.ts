// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { closeAlert, showAlert } from './alert.ts';
import { DIALOG_OPEN_CLASS } from './dialog.ts';

afterEach(() => {
  closeAlert();
  document.body.innerHTML = '';
});

const held = () => document.documentElement.classList.contains(DIALOG_OPEN_CLASS);

describe('A0.3 alert as a modal over the page', () => {
  test('it comes with a backdrop that takes the page clicks and holds the page still; closing removes both and gives focus back', () => {
    const opener = document.createElement('button');
    document.body.append(opener);
    opener.focus();
    const alert = showAlert({ title: 'Unable to Add Item', message: 'Please select the Size option.' });
    const backdrop = document.querySelector('.sf-alert-backdrop')!;
    expect(backdrop.nextElementSibling).toBe(alert);
    expect(alert.getAttribute('role')).toBe('alertdialog');
    expect(document.getElementById(alert.getAttribute('aria-labelledby')!)!.textContent).toBe('Unable to Add Item');
    expect(held()).toBe(true);
    alert.querySelector<HTMLElement>('.sf-alert-ok')!.click();
    expect(document.querySelector('.sf-alert, .sf-alert-backdrop')).toBeNull();
    expect(held()).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  test('a new alert replaces the old one with its backdrop: one of each, ever', () => {
    showAlert({ title: 'A', message: 'a' });
    showAlert({ title: 'B', message: 'b' });
    expect(document.querySelectorAll('.sf-alert')).toHaveLength(1);
    expect(document.querySelectorAll('.sf-alert-backdrop')).toHaveLength(1);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(document.querySelector('.sf-alert, .sf-alert-backdrop')).toBeNull();
    expect(held()).toBe(false);
  });
});

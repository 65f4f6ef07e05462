// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { DIALOG_OPEN_CLASS, holdPage } from './dialog.ts';

describe('holdPage', () => {
  test('the page stays held until the last open dialog closes, and a second release changes nothing', () => {
    const doc = document;
    const held = () => doc.documentElement.classList.contains(DIALOG_OPEN_CLASS);
    const lightbox = holdPage(doc);
    const alert = holdPage(doc);
    expect(held()).toBe(true);
    alert();
    alert();
    expect(held()).toBe(true);
    lightbox();
    expect(held()).toBe(false);
  });
});

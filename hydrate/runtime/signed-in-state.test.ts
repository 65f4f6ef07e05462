// @vitest-environment happy-dom
// Signing out (or in) in another tab: this tab's page, served signed in (or out), is loaded
// again when the visitor comes back to it, unless they have typed something on it.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPage, setCookies, type Page } from '../test-support/page.ts';

let page: Page;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  page?.cleanup();
  vi.useRealTimers();
});

const SIGNED_IN_INFO = encodeURIComponent(JSON.stringify({ authenticated: true, siteUserId: 'u1' }));
const SIGNED_IN_CONTEXT = { pageType: 1, siteUser: { authenticated: true, siteUserId: 'u1', xsrfToken: 'X1' } };
const BODY = '<main><h1>Members</h1><form><label for="q">Note</label><input id="q" name="q" value=""><textarea name="t"></textarea></form></main>';

async function open(signedIn: boolean, body = BODY) {
  page = createPage({ body, context: signedIn ? SIGNED_IN_CONTEXT : { pageType: 1 }, cookies: signedIn ? { SiteUserInfo: SIGNED_IN_INFO, crumb: 'c' } : { crumb: 'c' } });
  await page.boot();
  await page.advance(0);
}

function setVisibility(state: 'visible' | 'hidden'): Promise<void> {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  return page.act(() => void document.dispatchEvent(new Event('visibilitychange')));
}
const signOutElsewhere = () => void (document.cookie = 'SiteUserInfo=; path=/; max-age=0');

describe('the signed-in state across tabs', () => {
  test('served signed in, signed out in another tab: coming back to the tab loads the page again, once', async () => {
    await open(true);
    await setVisibility('hidden');
    signOutElsewhere();
    await setVisibility('visible');
    expect(page.reload).toHaveBeenCalledTimes(1);
    await setVisibility('hidden');
    await setVisibility('visible');
    expect(page.reload).toHaveBeenCalledTimes(1);
  });

  test('the window losing focus and getting it back does the same; SiteUserInfo {authenticated:false} counts as signed out', async () => {
    await open(true);
    await page.act(() => void window.dispatchEvent(new Event('blur')));
    setCookies({ SiteUserInfo: encodeURIComponent(JSON.stringify({ authenticated: false })) });
    await page.act(() => void window.dispatchEvent(new Event('focus')));
    expect(page.reload).toHaveBeenCalledTimes(1);
  });

  test('served signed out, signed in in another tab: loaded again on coming back', async () => {
    await open(false);
    await setVisibility('hidden');
    setCookies({ SiteUserInfo: SIGNED_IN_INFO });
    await setVisibility('visible');
    expect(page.reload).toHaveBeenCalledTimes(1);
  });

  test('a page shown again from the back/forward cache is checked at once', async () => {
    await open(true);
    signOutElsewhere();
    await page.act(() => void window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true })));
    expect(page.reload).toHaveBeenCalledTimes(1);
  });

  test('nothing changed elsewhere, or no return to the tab: no reload', async () => {
    await open(true);
    await setVisibility('hidden');
    await setVisibility('visible');
    // The cookie changes, but the visitor has not left the tab: the check waits for a return.
    signOutElsewhere();
    await page.act(() => void window.dispatchEvent(new Event('focus')));
    expect(page.reload).not.toHaveBeenCalled();
  });

  test('what the visitor typed is never lost to it: a changed field or box keeps the page as it is', async () => {
    await open(true);
    const note = document.querySelector<HTMLTextAreaElement>('textarea')!;
    note.value = 'half a message';
    await setVisibility('hidden');
    signOutElsewhere();
    await setVisibility('visible');
    expect(page.reload).not.toHaveBeenCalled();
    expect(note.value).toBe('half a message');
  });

  test('a ticked box counts as typed too', async () => {
    await open(false, '<form><label><input type="checkbox" name="b"> B</label></form>');
    document.querySelector<HTMLInputElement>('input[type=checkbox]')!.checked = true;
    await setVisibility('hidden');
    setCookies({ SiteUserInfo: SIGNED_IN_INFO });
    await setVisibility('visible');
    expect(page.reload).not.toHaveBeenCalled();
  });
});

// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { mountCaptcha, type CaptchaProvider } from './captcha.ts';
import { installLocalCaptcha } from './captcha-local.ts';
import { createErrorReporter } from './error-reporter.ts';
import { createHttpClient } from './http-client.ts';
import { overrideEnv } from './env.ts';
import { createPage, type Page } from '../test-support/page.ts';
import { contextProducts, product, productPage, variant } from '../test-support/products.ts';

let restoreEnv: () => void = () => undefined;
let page: Page | null = null;
beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response('{}'))));
});
afterEach(() => {
  restoreEnv();
  page?.cleanup();
  page = null;
  delete window.sfCaptchaProvider;
  vi.unstubAllGlobals();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

function container(width = 400): HTMLElement {
  restoreEnv = overrideEnv({ measure: () => ({ width, height: 80 }) });
  const el = document.createElement('div');
  el.className = 'captcha-container';
  document.body.appendChild(el);
  return el;
}

function recordingProvider() {
  const render = vi.fn<CaptchaProvider['render']>(() => 'w1');
  const reset = vi.fn();
  let response = '';
  const provider: CaptchaProvider = { render, reset, getResponse: () => response };
  return { provider, render, reset, setResponse: (r: string) => (response = r) };
}

const reporter = () => createErrorReporter(createHttpClient());

describe('A13 captcha', () => {
  test('CAP-1 no site key: nothing rendered in a restock box and no provider script loaded', async () => {
    const item = product({ variants: [variant('S1', {}, { id: 'v1', qtyInStock: 0 })] });
    page = createPage({
      body: productPage(item, {
        merchandising: { restockNotificationViews: [{ variantId: 'v1' }], restockNotificationMessages: {} },
        captchaSiteKey: null,
      }),
      context: { products: contextProducts(item), captcha: { siteKey: null } },
    });
    await page.boot();
    expect(document.querySelector('.captcha-container')).toBeNull();
    expect(document.querySelector('script[src*="captcha-local"]')).toBeNull();
  });

  test('CAP-2 compact under 320 px, normal at 320', async () => {
    for (const [width, size] of [
      [319, 'compact'],
      [320, 'normal'],
    ] as const) {
      const p = recordingProvider();
      window.sfCaptchaProvider = p.provider;
      await mountCaptcha(container(width), { siteKey: 'k', reporter: reporter() }).ready;
      expect(p.render.mock.calls[0]![1].size).toBe(size);
      restoreEnv();
    }
  });

  test('CAP-3 theme and site key are passed', async () => {
    const p = recordingProvider();
    window.sfCaptchaProvider = p.provider;
    await mountCaptcha(container(), { siteKey: 'key-1', theme: 'dark', reporter: reporter() }).ready;
    expect(p.render.mock.calls[0]![1]).toMatchObject({ theme: 'dark', sitekey: 'key-1' });
  });

  test('CAP-4 rendered state and default alignment', async () => {
    window.sfCaptchaProvider = recordingProvider().provider;
    const el = container();
    await mountCaptcha(el, { siteKey: 'k', reporter: reporter() }).ready;
    expect(el.getAttribute('data-captcha-state')).toBe('rendered');
    expect(el.classList.contains('sf-captcha-align-center')).toBe(true);
  });

  test('CAP-5 a missing provider rejects, reports once and marks the error', async () => {
    const el = container();
    const r = reporter();
    const handle = mountCaptcha(el, { siteKey: 'k', reporter: r });
    await expect(handle.ready).rejects.toThrow('ReCaptcha has not been set up!');
    expect(r.queued()).toHaveLength(1);
    expect(el.getAttribute('data-captcha-state')).toBe('error');
    expect(handle.solved()).toBe(false);
  });

  test('CAP-6 the local provider solves with a local-ok token', async () => {
    installLocalCaptcha(window);
    const el = container();
    const handle = mountCaptcha(el, { siteKey: 'sk', reporter: reporter() });
    await handle.ready;
    expect(el.querySelector('label')!.textContent).toBe(" I'm not a robot");
    el.querySelector<HTMLInputElement>('input.sf-captcha-local')!.click();
    expect(handle.solved()).toBe(true);
    expect(handle.token().startsWith('local-ok:sk:')).toBe(true);
  });

  test('CAP-7 expiry makes it unsolved again', async () => {
    installLocalCaptcha(window);
    const el = container();
    const changes: boolean[] = [];
    const handle = mountCaptcha(el, { siteKey: 'sk', reporter: reporter(), onChange: (s) => changes.push(s) });
    await handle.ready;
    const box = el.querySelector<HTMLInputElement>('input.sf-captcha-local')!;
    box.click();
    box.click();
    expect(handle.solved()).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  test('CAP-8 reset calls the provider with the widget id and clears the answer', async () => {
    const p = recordingProvider();
    window.sfCaptchaProvider = p.provider;
    const handle = mountCaptcha(container(), { siteKey: 'k', reporter: reporter() });
    await handle.ready;
    p.render.mock.calls[0]![1].callback('tok');
    expect(handle.solved()).toBe(true);
    handle.reset();
    expect(p.reset).toHaveBeenCalledWith('w1');
    expect(handle.solved()).toBe(false);
  });

  test('CAP-9 destroy empties the container', async () => {
    installLocalCaptcha(window);
    const el = container();
    const handle = mountCaptcha(el, { siteKey: 'k', reporter: reporter() });
    await handle.ready;
    handle.destroy();
    expect(el.childNodes).toHaveLength(0);
    expect(el.hasAttribute('data-captcha-state')).toBe(false);
  });
});

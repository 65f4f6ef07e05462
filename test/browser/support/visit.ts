// Page-level helpers shared by the browser scenarios.
import type { Page } from 'playwright-core';
import { FORMATTER_ISLANDS, ISLAND_ATTR } from '../../../hydrate/protocol/markers.ts';

/** Every island container kind: renderer-made (`data-island`) and formatter-made. */
const CONTAINERS = [`[${ISLAND_ATTR}]`, ...Object.values(FORMATTER_ISLANDS)].join(', ');

/**
 * Opens `path` and waits until the boot is over: every island container carries
 * `data-hydrated="true"` and the cart store has added `sf-cart-ready` to `<html>`.
 * Returns the HTTP status of the page.
 */
export async function visit(page: Page, path: string): Promise<number> {
  const response = await page.goto(path, { waitUntil: 'load' });
  await waitForBoot(page);
  return response?.status() ?? 0;
}

export async function waitForBoot(page: Page): Promise<void> {
  await page.waitForFunction(
    (selector) => {
      const containers = [...document.querySelectorAll(selector)];
      return document.documentElement.classList.contains('sf-cart-ready') && containers.every((c) => c.getAttribute('data-hydrated') === 'true');
    },
    CONTAINERS,
    // A hang guard, generous for a busy machine: the boot is waited for, not timed.
    { timeout: 60_000 },
  );
}

/**
 * The tee in `size` added to the cart from its product page, as a visitor does it: the page
 * opened (200), the size chosen, Add To Cart pressed and its entry stored.
 */
export async function addTeeToCart(page: Page, size: string): Promise<void> {
  const status = await visit(page, '/shop/tee');
  if (status !== 200) throw new Error(`/shop/tee answered ${status}`);
  await page.selectOption('.product-variants select[data-variant-option-name="Size"]', size);
  await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/shopping-cart/entries' && r.status() === 200),
    page.click('.sqs-add-to-cart-button'),
  ]);
}

/**
 * From the tee's product page to a ready checkout, as a visitor goes: the tee in `size` added,
 * the cart page, its Checkout button, the checkout island ready.
 */
export async function teeToCheckout(page: Page, size: string): Promise<void> {
  await addTeeToCart(page, size);
  const status = await visit(page, '/cart');
  if (status !== 200) throw new Error(`/cart answered ${status}`);
  await pressCheckout(page);
}

/** From the cart page, the Checkout link pressed: the checkout booted and ready for input. */
export async function pressCheckout(page: Page): Promise<void> {
  await Promise.all([page.waitForURL(/\/checkout\?cartToken=/), page.getByRole('link', { name: 'Checkout' }).click()]);
  await waitForBoot(page);
  await page.locator('[data-island="checkout"][data-checkout-state="ready"]').waitFor();
}

/**
 * Fills every checkout field by its visible label, as a visitor would: leaving the country
 * prices the address, then the first shipping option is chosen and, unless `card` is '', the
 * card's fields are filled (expiry 12/34, CVC 123).
 */
export async function fillCheckout(page: Page, card: string): Promise<void> {
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByRole('textbox', { name: /^Address/ }).fill('1 Analytical Way');
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('State / region').fill('IL');
  await page.getByLabel('Postal code').fill('62701');
  await page.getByLabel('Country').selectOption('US');
  await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/checkout/quote'), page.getByLabel('Country').press('Tab')]);
  const first = page.locator('.sf-checkout-shipping').getByRole('radio').first();
  await first.waitFor();
  await first.check();
  if (!(await first.isChecked())) throw new Error('the first shipping option could not be chosen');
  if (card === '') return;
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('Security code (CVC)').fill('123');
}

/**
 * Holds the islands' script back, so the page is there and its forms are not yet taken by
 * the islands (a slow script); `release` lets it load. `navigations` records every URL the
 * main frame navigates to from now on (an early press that went as a GET adds one).
 */
export async function holdIslands(page: Page): Promise<{ release: () => void; navigations: string[] }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/islands.js', async (route) => {
    await held;
    // A page the form navigated away from drops its request: nothing to continue.
    await route.continue().catch(() => undefined);
  });
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
  return { release, navigations };
}

/**
 * Lets the page run whatever a fired timer queued (React renders in a message task): resolves
 * after one message-channel round trip in the page. With the fake page clock stepped by the
 * test, this is how a scenario waits for the effects of an exact step, never for a time.
 */
export function settle(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  }));
}

/** The page's `sf-context` block (A0.1). */
export function pageContext(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(() => JSON.parse(document.getElementById('sf-context')?.textContent ?? 'null') as Record<string, unknown>);
}

export interface SeenText {
  text: string;
}

/**
 * Records every text the element matching `selector` shows, in order, from now on. A
 * MutationObserver sees each change as it happens, which polling from the test process could
 * miss; UI order is checked by this sequence of states, never by when they came.
 */
export async function recordTexts(page: Page, selector: string): Promise<() => Promise<SeenText[]>> {
  const key = `__texts_${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ({ selector, key }) => {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`no element matches ${selector}`);
      const seen: Array<{ text: string }> = [{ text: element.textContent ?? '' }];
      (window as unknown as Record<string, unknown>)[key] = seen;
      new MutationObserver(() => {
        const text = element.textContent ?? '';
        if (seen[seen.length - 1]!.text !== text) seen.push({ text });
      }).observe(element, { childList: true, characterData: true, subtree: true });
    },
    { selector, key },
  );
  return () => page.evaluate((key) => (window as unknown as Record<string, SeenText[]>)[key]!, key);
}

import { createElement } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { FORMATTER_ISLANDS, RENDERER_ISLANDS, rendererIslandSelector, type IslandKind } from '../protocol/markers.ts';
import { holdPage } from '../runtime/dialog.ts';
import { env } from '../runtime/env.ts';
import { HydratedMarker } from '../runtime/hydrated-marker.ts';
import { errorMessage } from '../runtime/error-reporter.ts';
import { isActivationKey, modalKey } from '../runtime/focus.ts';
import { normalizePageContext } from '../runtime/page-context.ts';
import { parseProps } from '../protocol/props.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { ISLAND_LOADERS } from './registry.ts';

/**
 * Quick view (issue 16): the `Quick View` button of a shop card opens the product's buying
 * parts (images, title, status, price, variants, quantity, Add To Cart, the restock box of a
 * sold-out variant and the pay-later line) in a modal dialog, like the other pop-ups (`runtime/dialog.ts` holds the page, Tab stays inside,
 * Escape and the x button close it and focus returns to the button).
 *
 * The parts are the product page's own server markup, fetched from the card's link (a page
 * the site already serves, so nothing new is exposed) and hydrated with the same islands as on
 * that page. The product's `sf-context.products` entry comes along, so a one-variant product
 * is selected as on its page.
 */
export const QUICK_VIEW_BUTTON = '.sqs-product-quick-view-button[data-id]';
export const QUICK_VIEW_TITLE_ID = 'sf-quick-view-title';
/**
 * Parts of the product page that stay on the product page: the long description, the reviews
 * and scripts (the JSON data blocks of islands, such as the BNPL context, come along).
 */
const LEFT_OUT = '.sf-reviews, .sf-product-body, script:not([type="application/json"])';
/** Every island root a product part may hold: the formatter-made ones and the BNPL pill. */
const PART_ISLANDS: Array<[IslandKind, string]> = [
  ...(Object.entries(FORMATTER_ISLANDS) as Array<[IslandKind, string]>),
  ...RENDERER_ISLANDS.map((kind): [IslandKind, string] => [kind, rendererIslandSelector(kind)]),
];

/**
 * The accessible name of a card's Quick View button: its own words first (what is seen, and
 * what a voice-control user says), then the product, so that a grid of them is not a dozen
 * buttons all called `Quick View`.
 */
export function quickViewLabel(text: string, title: string): string {
  return `${text}, ${title}`;
}

/**
 * Names each Quick View button after its card's product. Set here, not in the markup: the
 * button is the `product-quick-view` formatter's output, whose bytes PLUGINS.md fixes. The
 * product's title is the card's title (`.sf-product-card-title`), else its link's text.
 */
export function nameQuickViewButtons(doc: Document): void {
  const words = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
  for (const button of doc.querySelectorAll<HTMLElement>(QUICK_VIEW_BUTTON)) {
    if (button.hasAttribute('aria-label')) continue;
    const scope = button.closest('[data-product-scope]');
    const title = words(scope?.querySelector('.sf-product-card-title')) || words(scope?.querySelector('a[href]'));
    const text = words(button);
    if (title && text) button.setAttribute('aria-label', quickViewLabel(text, title));
  }
}

interface OpenQuickView {
  close(restoreFocus: boolean): void;
}

/** Builds the dialog around the fetched product part; returns null when the page has none. */
function buildDialog(doc: Document, html: string, url: string): { root: HTMLElement; panel: HTMLElement; products: unknown; scripts: string[] } | null {
  const fetched = new DOMParser().parseFromString(html, 'text/html');
  const article = fetched.querySelector<HTMLElement>('.sf-product[data-product-scope]');
  if (!article) return null;
  for (const el of article.querySelectorAll(LEFT_OUT)) el.remove();
  const heading = article.querySelector('h1');
  if (heading) {
    // One h1 per page: inside the dialog the product title is the dialog's h2 and its name.
    const h2 = fetched.createElement('h2');
    h2.className = heading.className;
    h2.id = QUICK_VIEW_TITLE_ID;
    h2.append(...heading.childNodes);
    heading.replaceWith(h2);
  }
  const context = fetched.getElementById('sf-context');
  const parsed = context ? parseProps(context.textContent ?? '') : null;

  const root = doc.createElement('div');
  root.className = 'sf-quick-view';
  root.setAttribute('role', 'dialog');
  root.setAttribute('aria-modal', 'true');
  if (heading) root.setAttribute('aria-labelledby', QUICK_VIEW_TITLE_ID);
  else root.setAttribute('aria-label', 'Quick View');
  const panel = doc.createElement('div');
  panel.className = 'sf-quick-view-content';
  const close = doc.createElement('button');
  close.type = 'button';
  close.className = 'sf-quick-view-close';
  close.setAttribute('aria-label', 'Close');
  close.textContent = '×';
  const more = doc.createElement('a');
  more.className = 'sf-quick-view-more';
  more.href = url;
  more.textContent = 'View full details';
  panel.append(close, doc.importNode(article, true), more);
  root.append(panel);
  // The product page's own module scripts (the captcha provider of its restock box).
  const scripts = [...fetched.querySelectorAll('script[type="module"][src]')].map((script) => script.getAttribute('src')!);
  return { root, panel, products: parsed && parsed.ok ? (parsed.value as { products?: unknown }).products : null, scripts };
}

/**
 * The restock box's captcha needs the provider the product page loads (`captcha-local.js`) and
 * a shop page may not: the product page's module scripts this page lacks are added before the
 * parts hydrate. Same-origin `/assets/` scripts, as the page's Content-Security-Policy wants.
 */
function loadMissingScripts(doc: Document, panel: HTMLElement, sources: readonly string[]): Promise<unknown> {
  if (!panel.querySelector('.captcha-container') || doc.defaultView?.sfCaptchaProvider) return Promise.resolve();
  const have = new Set([...doc.querySelectorAll('script[src]')].map((script) => script.getAttribute('src')));
  const missing = sources.filter((src) => src.startsWith('/assets/') && !have.has(src));
  return Promise.all(
    missing.map(
      (src) =>
        new Promise<void>((resolve) => {
          const script = doc.createElement('script');
          script.type = 'module';
          script.src = src;
          script.addEventListener('load', () => resolve());
          script.addEventListener('error', () => resolve());
          doc.head.append(script);
        }),
    ),
  );
}

async function hydrateParts(runtime: Runtime, panel: HTMLElement): Promise<Root[]> {
  const targets: Array<{ kind: IslandKind; container: HTMLElement }> = [];
  for (const [kind, selector] of PART_ISLANDS) {
    for (const container of panel.querySelectorAll<HTMLElement>(selector)) targets.push({ kind, container });
  }
  const definitions = new Map(await Promise.all([...new Set(targets.map((t) => t.kind))].map(async (kind) => [kind, await ISLAND_LOADERS[kind]()] as const)));
  await Promise.all(targets.map(({ kind, container }) => definitions.get(kind)?.preload?.(container)));
  // Every island snapshots its container before any root commits, as boot does.
  const prepared = targets.map(({ kind, container }) => ({ kind, container, element: definitions.get(kind)?.prepare(container, runtime) ?? null }));
  const roots: Root[] = [];
  for (const { kind, container, element } of prepared) {
    if (!element) continue;
    roots.push(
      hydrateRoot(container, createElement(HydratedMarker, { container, children: element }), {
        onRecoverableError(error) {
          runtime.reporter.reportError('hydration', { kind, where: 'quick-view', message: errorMessage(error) });
        },
      }),
    );
  }
  return roots;
}

/**
 * Listens for the shop cards' Quick View buttons. Returns the function that stops listening
 * (and closes an open quick view).
 */
export function startQuickView(runtime: Runtime): () => void {
  const doc = runtime.doc;
  let current: OpenQuickView | null = null;
  let opening = false;
  nameQuickViewButtons(doc);

  async function open(button: HTMLElement): Promise<void> {
    if (opening || current) return;
    const link = button.closest('[data-product-scope]')?.querySelector<HTMLAnchorElement>('a[href]');
    const url = link?.getAttribute('href');
    if (!url) return;
    opening = true;
    try {
      const result = await runtime.client.request('GET', url, { rawText: true });
      const built = result.ok && typeof result.body === 'string' ? buildDialog(doc, result.body, url) : null;
      if (!built) {
        // Without the product's parts the product page itself is the way to buy it.
        env.navigate(url);
        return;
      }
      const itemId = button.getAttribute('data-id') ?? '';
      const fetchedProducts = normalizePageContext({ products: built.products }).products;
      if (fetchedProducts[itemId] && !runtime.context.products[itemId]) runtime.context.products[itemId] = fetchedProducts[itemId];

      const { root, panel } = built;
      const release = holdPage(doc);
      doc.body.append(root);
      await loadMissingScripts(doc, panel, built.scripts);
      const roots = await hydrateParts(runtime, panel).catch((err: unknown) => {
        runtime.reporter.reportError('quick_view', { message: errorMessage(err) });
        return [] as Root[];
      });

      const onKeyDown = (event: KeyboardEvent) => {
        // An alert opened over the quick view handles its own keys.
        if (doc.querySelector('.sf-alert, .sf-lightbox') && !root.contains(event.target as Node)) return;
        modalKey(panel, event, () => current?.close(true));
      };
      const onClick = (event: MouseEvent) => {
        const target = event.target as Element;
        if (target === root || target.closest('.sf-quick-view-close')) current?.close(true);
      };
      root.addEventListener('keydown', onKeyDown);
      root.addEventListener('click', onClick);
      current = {
        close(restoreFocus) {
          root.removeEventListener('keydown', onKeyDown);
          root.removeEventListener('click', onClick);
          for (const r of roots) r.unmount();
          root.remove();
          release();
          current = null;
          if (restoreFocus) button.focus();
        },
      };
      panel.querySelector<HTMLElement>('.sf-quick-view-close')?.focus();
    } finally {
      opening = false;
    }
  }

  const onClick = (event: MouseEvent) => {
    const button = (event.target as Element | null)?.closest?.<HTMLElement>(QUICK_VIEW_BUTTON);
    if (!button) return;
    open(button).catch((err: unknown) => runtime.reporter.reportError('quick_view', { message: errorMessage(err) }));
  };
  // The button is a role="button" span: Enter and Space click it, so the census (A12.7) counts it too.
  const onKeyDown = (event: KeyboardEvent) => {
    const button = (event.target as Element | null)?.closest?.<HTMLElement>(QUICK_VIEW_BUTTON);
    if (!button || !isActivationKey(event)) return;
    event.preventDefault();
    button.click();
  };
  doc.addEventListener('click', onClick);
  doc.addEventListener('keydown', onKeyDown);
  return () => {
    doc.removeEventListener('click', onClick);
    doc.removeEventListener('keydown', onKeyDown);
    current?.close(false);
  };
}

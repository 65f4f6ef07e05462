import { createElement, type ErrorInfo, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { ISLAND_LOADERS } from './islands/registry.ts';
import type { IslandDefinition } from './islands/island.ts';
import {
  FORMATTER_ISLANDS,
  HYDRATED_ATTR,
  RENDERER_ISLANDS,
  rendererIslandSelector,
  type IslandKind,
} from './protocol/markers.ts';
import { readPlatformContext } from './platform/platform-config.ts';
import type { PlatformHandle } from './platform/start-platform.ts';
import { startAnalytics } from './runtime/analytics.ts';
import { featureOn } from './runtime/features.ts';
import { FEATURE } from './shared/feature-toggles.ts';
import { platformWanted } from './shared/platform-context.ts';
import { HydratedMarker } from './runtime/hydrated-marker.ts';
import { createRuntime, type Runtime } from './runtime/runtime.ts';
import { startRelativeTimes } from './runtime/relative-times.ts';
import { startCartLink } from './runtime/cart-link.ts';
import { reloadCartOnRestore } from './runtime/cart-store.ts';
import { startMenuToggles } from './runtime/menu-toggle.ts';
import { startEmptyCartPage } from './runtime/empty-cart-page.ts';
import { startSignedInState } from './runtime/signed-in-state.ts';

export interface BootOptions {
  doc?: Document;
  /** Called for every recoverable hydration error (tests fail on any). */
  onRecoverableError?: (error: unknown, info: ErrorInfo) => void;
  /** Page-level analytics (A12); on by default. */
  analytics?: boolean;
  /** Platform runtime (hydrate/platform/), as `sf-context.platform` asks; on by default. */
  platform?: boolean;
}

export interface HydratedIsland {
  kind: IslandKind;
  container: HTMLElement;
  root: Root;
}

export interface BootHandle {
  runtime: Runtime;
  islands: HydratedIsland[];
  /** The platform runtime once its chunk is loaded; null when the page asks for none. */
  platform: Promise<PlatformHandle | null>;
  unmount(): void;
}

/** Containers per kind, in document order; already hydrated ones are skipped. */
export function findIslands(doc: Document): Array<{ kind: IslandKind; container: HTMLElement }> {
  const found: Array<{ kind: IslandKind; container: HTMLElement }> = [];
  const take = (kind: IslandKind, selector: string) => {
    for (const container of doc.querySelectorAll<HTMLElement>(selector)) {
      if (container.getAttribute(HYDRATED_ATTR) !== 'true') found.push({ kind, container });
    }
  };
  for (const [kind, selector] of Object.entries(FORMATTER_ISLANDS)) take(kind as IslandKind, selector);
  for (const kind of RENDERER_ISLANDS) take(kind, rendererIslandSelector(kind));
  return found;
}

/**
 * Added to `<html>` when an island's script could not be loaded (a lost connection, or a page
 * from before a deploy asking for a chunk that is gone): its controls stay as the server wrote
 * them (a form's button disabled), so the theme can say why and offer a reload, as it does
 * while `sf-cart-ready` is late.
 */
export const ISLAND_LOST_CLASS = 'sf-island-lost';

function describe(err: unknown): Record<string, unknown> {
  return err instanceof Error ? { message: err.message, stack: err.stack } : { message: String(err) };
}

/**
 * Hydrates every island on the page: loads only the kinds whose markers appear, hydrates
 * each container in place, then starts the cart store and analytics.
 */
export async function boot(options: BootOptions = {}): Promise<BootHandle> {
  const doc = options.doc ?? document;
  const runtime = createRuntime(doc);
  const detachErrors = runtime.reporter.attach(runtime.win);
  const lost = (kind: string, err: unknown) => {
    doc.documentElement.classList.add(ISLAND_LOST_CLASS);
    runtime.reporter.reportError('island_load', { kind, ...describe(err) });
  };
  const targets = findIslands(doc);

  const kinds = [...new Set(targets.map((t) => t.kind))];
  const definitions = new Map<IslandKind, IslandDefinition>();
  await Promise.all(
    kinds.map(async (kind) => {
      try {
        definitions.set(kind, await ISLAND_LOADERS[kind]());
      } catch (err) {
        lost(kind, err);
      }
    }),
  );

  await Promise.all(
    targets.map(({ kind, container }) =>
      Promise.resolve(definitions.get(kind)?.preload?.(container)).catch((err: unknown) => {
        runtime.reporter.reportError('island_preload', { kind, ...describe(err) });
      }),
    ),
  );

  // Prepare everything first: each island snapshots its container before any root commits.
  const prepared: Array<{ kind: IslandKind; container: HTMLElement; element: ReactNode }> = [];
  for (const { kind, container } of targets) {
    const definition = definitions.get(kind);
    if (!definition) continue;
    try {
      const element = definition.prepare(container, runtime);
      if (element) prepared.push({ kind, container, element });
    } catch (err) {
      runtime.reporter.reportError('island_prepare', { kind, ...describe(err) });
    }
  }

  const islands: HydratedIsland[] = [];
  for (const { kind, container, element } of prepared) {
    const root = hydrateRoot(container, createElement(HydratedMarker, { container, children: element }), {
      onRecoverableError(error, info) {
        options.onRecoverableError?.(error, info);
        runtime.reporter.reportError('hydration', { kind, ...describe(error) });
      },
    });
    islands.push({ kind, container, root });
  }

  if (doc.querySelector('.sqs-add-to-cart-button.use-form')) {
    // A6: one schema fetch per page, whatever the number of form buttons; failures are only reported.
    runtime.client.request('GET', '/api/template/GetTemplateSchema?type=form').then((result) => {
      if (!result.ok) runtime.reporter.reportError('form_schema', { status: result.status, message: result.message });
    });
  }

  let stopCartEditing = () => undefined as void;
  if (doc.querySelector('.sf-entry-edit-form')) {
    try {
      stopCartEditing = (await import('./islands/additional-fields.tsx')).startCartEditing(runtime);
    } catch (err) {
      lost('cart-edit', err);
    }
  }

  // Quick view (issue 16), its own chunk: only pages with a shop card's Quick View load it.
  // Started before the cart store, so `sf-cart-ready` also means the button listens.
  let stopQuickView = () => undefined as void;
  // The `quick-view` toggle off: the renderer writes no button; one in a cached page does nothing.
  if (featureOn(runtime.context, FEATURE.quickView) && doc.querySelector('.sqs-product-quick-view-button[data-id]')) {
    try {
      stopQuickView = (await import('./islands/quick-view.tsx')).startQuickView(runtime);
    } catch (err) {
      lost('quick-view', err);
    }
  }

  // Before the cart loads, so the header's count appears with the first cart the store announces.
  const stopCartLink = startCartLink(runtime);
  const stopMenus = startMenuToggles(doc);
  const stopEmptyCart = startEmptyCartPage(runtime);
  const stopSignedInState = startSignedInState(runtime);
  runtime.cart.start();
  const stopCartRestore = reloadCartOnRestore(runtime.cart, doc);
  const stopAnalytics = options.analytics === false ? () => undefined : startAnalytics(runtime);
  const stopRelativeTimes = startRelativeTimes(doc);

  // The popup overlay (type 104), its own chunk: only pages that carry one download it.
  let stopOverlay = () => undefined as void;
  const overlayRoot = doc.querySelector<HTMLElement>('.sf-popup-overlay[data-overlay-id]');
  if (overlayRoot) {
    try {
      stopOverlay = (await import('./islands/popup-overlay.ts')).startPopupOverlay(runtime, overlayRoot);
    } catch (err) {
      lost('popup-overlay', err);
    }
  }

  // A lazy chunk: pages that enable no platform client download none of its code.
  let unmounted = false;
  const platformContext = options.platform === false ? null : readPlatformContext(doc);
  const platform: Promise<PlatformHandle | null> =
    platformContext && platformWanted(platformContext)
      ? import('./platform/start-platform.ts')
          .then(({ startPlatform }) => (unmounted ? null : startPlatform(runtime, platformContext)))
          .catch((err: unknown) => {
            runtime.reporter.reportError('island_load', { kind: 'platform', ...describe(err) });
            return null;
          })
      : Promise.resolve(null);

  return {
    runtime,
    islands,
    platform,
    unmount() {
      unmounted = true;
      void platform.then((handle) => handle?.stop());
      stopAnalytics();
      stopOverlay();
      stopQuickView();
      stopCartLink();
      stopMenus();
      stopEmptyCart();
      stopSignedInState();
      stopCartRestore();
      stopRelativeTimes();
      stopCartEditing();
      detachErrors();
      for (const island of islands) island.root.unmount();
    },
  };
}

/** Browser entry: boots once the document is parsed. */
export function start(doc: Document = document): void {
  const run = () => {
    boot({ doc }).catch(() => undefined);
  };
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}

import { createCartStore, type CartStore } from './cart-store.ts';
import { createErrorReporter, type ErrorReporter } from './error-reporter.ts';
import { createHttpClient, type HttpClient } from './http-client.ts';
import { readPageContext, type PageContext } from './page-context.ts';
import { selectionStore, type Scope, type SelectionStore } from './product-scope.ts';

/**
 * Everything one page's islands share: one context, one HTTP client, one error reporter,
 * one cart store. Passed to islands explicitly (never through globals) so that each test
 * builds a fresh page.
 */
/** The page's window with its constructors (CustomEvent, HTMLElement, …), as a browser has them. */
export type PageWindow = Window & typeof globalThis;

export interface Runtime {
  doc: Document;
  win: PageWindow;
  context: PageContext;
  client: HttpClient;
  reporter: ErrorReporter;
  cart: CartStore;
  selection(scope: Scope, itemId: string): SelectionStore;
}

export function createRuntime(doc: Document = document): Runtime {
  const win = doc.defaultView as PageWindow;
  const { context, problem } = readPageContext(doc);
  const client = createHttpClient({ doc, siteUserXsrf: context.siteUser?.xsrfToken ?? null });
  const reporter = createErrorReporter(client);
  if (problem) reporter.reportError('page_context', { code: problem.code, message: problem.message });
  const cart = createCartStore(client, reporter, doc);
  return {
    doc,
    win,
    context,
    client,
    reporter,
    cart,
    selection: (scope, itemId) => selectionStore(scope, itemId, context),
  };
}

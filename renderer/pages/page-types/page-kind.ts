import type { LoadedSite } from '../../site/site-types.ts';
import type { Json, PageJob, Resolved } from '../page-context.ts';
import type { EntryRoute } from './content.ts';

/** What a route names; `kind` picks the page-type entry that loads it. */
export interface RouteShape {
  kind: string;
}

/** What a loader gets: the request's job, its route, the context to fill, the path and query. */
export interface PageLoad<R extends RouteShape> {
  job: PageJob;
  route: R;
  /** The template context, holding the shared members (page-context.ts baseContext) already. */
  ctx: Json;
  path: string;
  query: Json;
}

/**
 * One entry of the page-type table (table.ts): everything the renderer knows about a kind of
 * page. The renderer itself names no page type; it matches the URL against each entry's
 * `match`, calls the entry's `load`, and renders the template named for the page type the
 * loader settled.
 */
export interface PageKind<R extends RouteShape = RouteShape> {
  /** A name for logs and the README. */
  name: string;
  /** The route kinds this entry loads (`route.kind`). */
  kinds: readonly R['kind'][];
  /**
   * Claims a URL: its decoded path segments (never `//` or bad escapes) → the route, or null
   * to leave it to the next entry. Returning `{ kind: 'not-found' }` claims it as missing.
   * Tried in table order, so fixed URLs come before the site's content slugs.
   */
  match?: (segments: readonly string[], site: LoadedSite) => R | { kind: 'not-found' } | null;
  /** Page types this entry renders → the template names tried for it, most specific first. */
  templates: Readonly<Record<number, readonly string[]>>;
  /**
   * Content files whose `pageType` is one of these are loaded by this entry (the content
   * route checks member areas and passwords first), as route `{ kind: 'entry', entry }`.
   */
  contentPageTypes?: readonly number[];
  /** False: a page reached only from a link (a mail, a form's answer), left out of the sitemap. */
  listed?: boolean;
  /** The template-context members this entry adds to the shared ones, for template authors (README.md). */
  context: readonly string[];
  /**
   * Loads the route's data into `ctx`; throws `NotFound` when the route names nothing, and
   * `PageRedirect` when what it names now lives at another page of this site.
   */
  load(page: PageLoad<R>): Promise<Resolved>;
}

/** A same-site path: one `/`, then no second `/` or `\\` (a browser reads `//host` and `/\\host` as another site), no spaces or controls. */
const SAME_SITE_PATH = /^\/(?![/\\])[^\s\\]*$/;

/**
 * A loader's outcome when the URL's page now lives elsewhere on the site (a bought cart's
 * checkout → its order's confirmation): thrown like `NotFound`, answered with `status` and a
 * Location of `location`. Only a same-site path: a loader never sends a visitor off the site.
 */
export class PageRedirect extends Error {
  constructor(
    readonly location: string,
    readonly status: 302 | 303 = 303,
  ) {
    super(`page moved to ${location}`);
    if (!SAME_SITE_PATH.test(location)) throw new Error(`a page redirects only to a same-site path, not ${JSON.stringify(location)}`);
  }
}

/** The route type of an entry. */
export type RouteOf<K> = K extends PageKind<infer R> ? R : never;

/** Declares an entry with its route type inferred from `kinds` and `load`. */
export const pageKind = <R extends RouteShape>(kind: PageKind<R>): PageKind<R> => kind;

/** What a content-file page type (C1 203–301) declares; `contentFilePage` makes its entry. */
export interface ContentFilePageSpec {
  name: string;
  /** The `pageType` of the content files it loads. */
  pageType: number;
  /** Its template name (the site's, else the built-in of that name). */
  template: string;
  context: readonly string[];
  /** False: reached only from a link, left out of the sitemap. Default true. */
  listed?: boolean;
  load: PageKind<EntryRoute>['load'];
}

/** The entry of a special page made from a content file: no URL of its own, one page type, one template. */
export const contentFilePage = (spec: ContentFilePageSpec): PageKind<EntryRoute> => ({
  name: spec.name,
  kinds: [],
  listed: spec.listed,
  contentPageTypes: [spec.pageType],
  templates: { [spec.pageType]: [spec.template] },
  context: spec.context,
  load: spec.load,
});

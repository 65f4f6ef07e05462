import { lockMessage } from '../visitor.ts';
import { fixedPage, NotFound } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { pageKind } from './page-kind.ts';

// Pages the renderer settles itself rather than a URL: a URL nothing claims (100) and the
// site lock (103). The error page (101) uses no template at all (document-writer.ts).

/** C1 type 100: what a route that names nothing renders, status 404. */
export const notFoundPage = pageKind<{ kind: 'not-found' }>({
  name: 'not found',
  kinds: ['not-found'],
  templates: { [PAGE_TYPE.notFound]: ['not-found'] },
  context: [],
  load: () => Promise.reject(new NotFound()),
});

/** The not-found page's own `Resolved`, used whenever a loader throws `NotFound`. */
export const notFoundResolved = () => fixedPage(PAGE_TYPE.notFound, 404, 'not-found', 'Page Not Found');

/** C1 type 103: every page of a locked site, until the visitor unlocks it (`POST /unlock`). */
export const lockScreenPage = pageKind<{ kind: 'lock-screen' }>({
  name: 'lock screen',
  kinds: [],
  templates: { [PAGE_TYPE.lockScreen]: ['lock-screen'] },
  context: ['lock'],
  async load({ job, ctx, path, query }) {
    const title = job.site.config.title;
    ctx.lock = { returnTo: path, scope: 'site', scopeKind: 'site', heading: title, message: lockMessage('This site is password protected.', query) };
    return fixedPage(PAGE_TYPE.lockScreen, 200, 'lock-screen', title);
  },
});

import { PAGE_TYPE } from '../page-type-numbers.ts';
import { displayNameOf } from '../signed-in-user.ts';
import { loadEntryPage, type EntryRoute } from './content.ts';
import { pageKind } from './page-kind.ts';

/**
 * C1 208: where a new member lands. A signed-in member is greeted by name and shown the
 * member-area pages now open to them; anyone else is asked to sign in.
 */
export const membershipConfirmedPage = pageKind<EntryRoute>({
  name: 'membership confirmed',
  kinds: [],
  listed: false,
  contentPageTypes: [PAGE_TYPE.membershipConfirmed],
  templates: { [PAGE_TYPE.membershipConfirmed]: ['membership-confirmed'] },
  context: ['page', 'membership'],
  async load({ job, route, ctx }) {
    const resolved = await loadEntryPage(job, route.entry, ctx);
    const session = job.session;
    const user = session ? await job.deps.store.read.getUser(session.siteUserId).catch(() => null) : null;
    ctx.membership = {
      active: session !== null,
      name: session ? displayNameOf(user?.email ?? '') : '',
      pages: session ? job.site.entries.filter((entry) => entry.memberArea).map((entry) => ({ title: entry.title, path: entry.home ? '/' : `/${entry.slug}` })) : [],
    };
    return resolved;
  },
});

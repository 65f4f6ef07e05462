import { PAGE_TYPE } from '../page-type-numbers.ts';
import { displayNameOf } from '../signed-in-user.ts';
import { loadEntryPage } from './content.ts';
import { contentFilePage } from './page-kind.ts';

/**
 * C1 208: where a new member lands. A signed-in member is greeted by name and shown the
 * member-area pages now open to them; anyone else is asked to sign in.
 */
export const membershipConfirmedPage = contentFilePage({
  name: 'membership confirmed',
  pageType: PAGE_TYPE.membershipConfirmed,
  template: 'membership-confirmed',
  listed: false,
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

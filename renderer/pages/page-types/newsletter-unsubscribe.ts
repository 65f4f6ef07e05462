import { isValidEmail } from '../../api/form-validation.ts';
import { isUnsubscribeToken, unsubscribeSecret } from '../../mail/newsletter-unsubscribe.ts';
import { firstString } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { loadEntryPage } from './content.ts';
import { contentFilePage } from './page-kind.ts';

/** Longest token accepted (an HMAC-SHA256 in base64url is 43 characters). */
const MAX_TOKEN = 100;

/**
 * C1 300, opened from a mail's unsubscribe link (`?email=&token=`, mail/newsletter-unsubscribe.ts).
 * With a valid token it shows the address and, while it is on the mailing list, a button that
 * POSTs `/newsletter/unsubscribe` (pages/index.ts), which removes it and returns here to say
 * so. Without one it says the link is not valid and touches nothing.
 */
export const newsletterUnsubscribePage = contentFilePage({
  name: 'newsletter unsubscribe',
  pageType: PAGE_TYPE.newsletterUnsubscribe,
  template: 'newsletter-unsubscribe',
  listed: false,
  context: ['page', 'unsubscribe'],
  async load({ job, route, ctx, path, query }) {
    const resolved = await loadEntryPage(job, route.entry, ctx);
    const email = (firstString(query.email) ?? '').trim();
    const token = firstString(query.token) ?? '';
    let valid = false;
    if (isValidEmail(email) && token !== '' && token.length <= MAX_TOKEN) {
      const secret = await unsubscribeSecret(job.deps.store.read, job.deps.now());
      valid = isUnsubscribeToken(secret, job.row.websiteId, email, token);
    }
    const subscribed = valid && (await job.deps.store.read.isOnMailingList(email));
    ctx.unsubscribe = {
      valid,
      email: valid ? email : '',
      token: valid ? token : '',
      subscribed,
      unsubscribed: valid && !subscribed,
      returnTo: `${path}?${new URLSearchParams({ email, token }).toString()}`,
      siteTitle: job.site.config.title,
    };
    return resolved;
  },
});

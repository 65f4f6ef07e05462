import { formatMoney } from '../money.ts';
import { firstString, type Json } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { loadEntryPage } from './content.ts';
import { contentFilePage } from './page-kind.ts';

// Donations (C1 203 donate, 204 contribution confirmed). A donate page offers the amounts its
// content file names (`donation: {fund, amounts: [cents…], confirmPath}`); choosing one leads
// to the contribution-confirmed page with `?amount=<cents>`, which thanks the visitor for it.
// No payment is taken for a donation yet: the checkout's payment providers would take it.

/** The largest amount a page offers or confirms: ten million in the currency's minor unit. */
const MAX_AMOUNT_CENTS = 1_000_000_000;

const isAmount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_AMOUNT_CENTS;

function donationSettings(data: Json): Json {
  return typeof data.donation === 'object' && data.donation !== null ? (data.donation as Json) : {};
}

/** C1 203: the page's blocks, then its amounts as choices of one form. */
export const donatePage = contentFilePage({
  name: 'donate',
  pageType: PAGE_TYPE.donate,
  template: 'donate',
  context: ['page', 'donation'],
  async load({ job, route, ctx }) {
    const resolved = await loadEntryPage(job, route.entry, ctx);
    const settings = donationSettings(route.entry.data);
    const amounts = (Array.isArray(settings.amounts) ? settings.amounts : []).filter(isAmount).slice(0, 12);
    const confirmPath = typeof settings.confirmPath === 'string' && /^\/[^/]/.test(settings.confirmPath) ? settings.confirmPath : null;
    if (amounts.length === 0 || confirmPath === null) job.problems.push(`${route.entry.file}: a donate page needs donation.amounts (cents) and donation.confirmPath`);
    ctx.donation = {
      fund: typeof settings.fund === 'string' ? settings.fund : '',
      confirmPath: confirmPath ?? '/',
      amounts: amounts.map((cents, index) => ({ cents, text: formatMoney(cents, job.currency), checked: index === 0 })),
    };
    return resolved;
  },
});

/** C1 204: thanks the visitor for the amount in `?amount=` (a bad or missing amount is left out). */
export const contributionConfirmedPage = contentFilePage({
  name: 'contribution confirmed',
  pageType: PAGE_TYPE.contributionConfirmed,
  template: 'contribution-confirmed',
  listed: false,
  context: ['page', 'contribution'],
  async load({ job, route, ctx, query }) {
    const resolved = await loadEntryPage(job, route.entry, ctx);
    const raw = firstString(query.amount);
    const cents = raw !== null && /^\d{1,10}$/.test(raw) ? Number(raw) : null;
    const settings = donationSettings(route.entry.data);
    ctx.contribution = {
      amountText: cents !== null && isAmount(cents) ? formatMoney(cents, job.currency) : '',
      fund: typeof settings.fund === 'string' ? settings.fund : '',
    };
    return resolved;
  },
});

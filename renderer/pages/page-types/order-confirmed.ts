import { PAGE_TYPE } from '../page-type-numbers.ts';
import { loadOrderPage } from './order-pages.ts';
import { pageKind } from './page-kind.ts';

/** C1 type 202, `/commerce/orders/<orderId>/confirmed`: an order of this site, its lines and totals. */
export const orderConfirmedPage = pageKind<{ kind: 'order-confirmed'; orderId: string }>({
  name: 'order confirmed',
  kinds: ['order-confirmed'],
  match: (segments) => {
    const [first, second, third, fourth] = segments;
    return segments.length === 4 && first === 'commerce' && second === 'orders' && fourth === 'confirmed' && third ? { kind: 'order-confirmed', orderId: third } : null;
  },
  templates: { [PAGE_TYPE.orderConfirmed]: ['order-confirmed'] },
  context: ['order'],
  load({ job, route, ctx }) {
    return loadOrderPage(job, route.orderId, PAGE_TYPE.orderConfirmed, 'Order Confirmed', ctx);
  },
});

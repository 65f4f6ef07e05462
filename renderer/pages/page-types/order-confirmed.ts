import { NotFound, resolvedPage } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { orderView } from '../page-views.ts';
import { isStorable } from '../visitor.ts';
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
  async load({ job, route, ctx }) {
    const order = route.orderId.length <= 200 && isStorable(route.orderId) ? await job.deps.store.read.getOrder(route.orderId) : null;
    if (!order || order.websiteId !== job.row.websiteId) throw new NotFound();
    const resolved = resolvedPage(job, PAGE_TYPE.orderConfirmed, null, 'Order Confirmed');
    ctx.order = orderView(order, job.currency);
    resolved.order = {
      id: order.id,
      purchasedCartId: order.purchasedCartId,
      websiteId: order.websiteId,
      testMode: order.testMode,
      items: order.items,
      grandTotal: order.grandTotal,
      shippingTotal: order.shippingTotal,
      taxTotal: order.taxTotal,
    };
    return resolved;
  },
});

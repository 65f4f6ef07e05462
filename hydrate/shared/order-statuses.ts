/**
 * An order's statuses and the moves an owner may make between them: one table for the server,
 * which refuses any other move (409 INVALID_ORDER_STATUS, renderer/orders/order-status.ts),
 * and the admin's orders panel, which offers only these (it listed every other status, so a
 * fulfilled order offered "Paid" and the owner met the 409).
 */
export type OrderStatus = 'awaiting-payment' | 'paid' | 'fulfilled' | 'cancelled';

/** The statuses an owner may move an order to, from each status. Cancelling restocks the lines, once. */
export const NEXT_STATUSES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  'awaiting-payment': ['paid', 'cancelled'],
  paid: ['fulfilled', 'cancelled'],
  fulfilled: [],
  cancelled: [],
};

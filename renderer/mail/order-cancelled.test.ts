import { describe, expect, it } from 'vitest';
import type { PlacedOrder } from '../store/types.ts';
import { orderCancelledMail } from './order-cancelled.ts';

// The buyer's cancellation mail says what happens to the money, and never more than happened.

const order = (over: Partial<PlacedOrder>): PlacedOrder =>
  ({
    orderNumber: 7,
    currency: 'USD',
    grandTotal: 4500,
    testMode: false,
    payment: { provider: 'card', reference: 'ref-1', label: 'Visa ending 4242' },
    items: [{ productName: 'Classic Tee', variantLabel: 'S', quantity: 2 }],
    ...over,
  }) as PlacedOrder;

describe('orderCancelledMail', () => {
  it('lists the order and, for a paid order, that the shop refunds it', () => {
    const mail = orderCancelledMail(order({}), { title: 'Tee <Shop>' }, true);
    expect(mail.subject).toBe('Your order #7 from Tee <Shop> is cancelled');
    expect(mail.text).toBe(
      'Tee <Shop> has cancelled your order #7.\n\n2 × Classic Tee (S)\nTotal: $45.00\n\nYou paid $45.00 (Visa ending 4242); Tee <Shop> will refund it. Reply to this mail with any question.\n',
    );
    expect(mail.html).toContain('<p>Tee &lt;Shop&gt; has cancelled your order #7.</p>');
  });

  it('an unpaid order owes nothing; a test order took no money', () => {
    expect(orderCancelledMail(order({}), {}, false).text).toContain('Nothing is owed: please do not send a payment for it.');
    expect(orderCancelledMail(order({ testMode: true }), {}, true).text).toContain('This was a test order: no payment was taken.');
  });
});

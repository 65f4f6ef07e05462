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
  it('lists the order and, for a refunded card order, how much went back to which card', () => {
    const refund = { kind: 'refunded', amountCents: 4500, reference: 're_1', label: 'Visa ending 4242', on: 0 } as const;
    const mail = orderCancelledMail(order({ refund }), { title: 'Tee <Shop>' });
    expect(mail.subject).toBe('Your order #7 from Tee <Shop> is cancelled');
    expect(mail.text).toBe(
      'Tee <Shop> has cancelled your order #7.\n\n2 × Classic Tee (S)\nTotal: $45.00\n\nTee <Shop> refunded $45.00 to Visa ending 4242. It can take a few days to show on your statement. Reply to this mail with any question.\n',
    );
    expect(mail.html).toContain('<p>Tee &lt;Shop&gt; has cancelled your order #7.</p>');
    expect(mail.text).not.toContain('re_1');
  });

  it('a test order refunded says no real money moved', () => {
    const refund = { kind: 'refunded', amountCents: 2500, reference: 're_2', label: 'Visa ending 4242 (test)', on: 0 } as const;
    expect(orderCancelledMail(order({ testMode: true, refund }), { title: 'Shop' }).text).toContain(
      'Shop refunded $25.00 to Visa ending 4242 (test). This was a test order: no real money moved.',
    );
  });

  it('an offline payment the owner gives back by hand; an unpaid order owes nothing', () => {
    const refund = { kind: 'by-hand', amountCents: 4500, reference: null, label: 'Bank transfer or pay on pickup', on: 0 } as const;
    expect(orderCancelledMail(order({ refund }), { title: 'Shop' }).text).toContain(
      'You paid $45.00 (Bank transfer or pay on pickup); Shop will pay it back to you directly.',
    );
    expect(orderCancelledMail(order({}), {}).text).toContain('Nothing is owed: please do not send a payment for it.');
    expect(orderCancelledMail(order({ refund: null }), {}).text).not.toContain('refund');
  });
});

import crypto from 'node:crypto';
import { CARD_TEXT } from '../../hydrate/shared/checkout-text.ts';
import type { OrderStatus } from '../store/types.ts';

// Payments behind one interface (README.md here, "Payment providers"). The order path asks
// the provider the checkout named to check its fields, authorize the grand total and, when
// the order then fails to commit, void the authorization; the owner's cancel of a paid order
// asks it to refund (order-status.ts). It never looks at which provider ran. Card numbers are only ever held in memory for the call: never stored, logged or echoed.

/** The provider's part of the place-order body (`payment`), beside its `provider` id. */
export type PaymentDetails = Record<string, unknown>;

export interface PaymentRequest {
  /** The order id the authorization is for (providers use it as their idempotency key). */
  orderId: string;
  amountCents: number;
  currency: string;
  details: PaymentDetails;
  now: number;
  /**
   * The order has no physical line (nothing shipped, nothing to collect): an offline payment's
   * label offers no pickup. A digital order read "Bank transfer or pay on pickup".
   */
  shipsNothing?: boolean;
}

export type PaymentOutcome =
  | {
      kind: 'approved';
      /** The order's status: paid, or awaiting-payment for offline payment. */
      status: Extract<OrderStatus, 'paid' | 'awaiting-payment'>;
      /** The provider's reference of the payment (no card data). */
      reference: string;
      /** How the order was paid, for the buyer and the owner ("Test card ending 4242"). */
      label: string;
      testMode: boolean;
    }
  | { kind: 'declined'; message: string };

/**
 * What a refund came to: the provider gave the money back (with its refund's reference), the
 * payment was offline so the owner gives it back by hand, or the provider refused.
 */
export type RefundOutcome = { kind: 'refunded'; refundReference: string } | { kind: 'by-hand' } | { kind: 'failed'; message: string };

export interface PaymentProvider {
  readonly id: string;
  /** Shown at checkout. */
  readonly label: string;
  /** Shown at checkout instead of `label` for a cart that ships nothing (no pickup to offer). */
  readonly shipsNothingLabel?: string;
  /** `card`: the checkout shows card fields; `offline`: nothing to enter. */
  readonly kind: 'card' | 'offline';
  /** Field errors (keyed as the checkout's fields: cardNumber, expiry, cvc) before anyone is asked. */
  check(details: PaymentDetails, now: number): Record<string, string>;
  /** Asks for the money (or records that it will come). Called only after `check` passed. */
  authorize(request: PaymentRequest): Promise<PaymentOutcome>;
  /** Gives back an approved authorization whose order did not commit (out of stock, a race). */
  void(reference: string): Promise<void>;
  /**
   * Gives a paid order's money back, before its cancel commits. The same `idempotencyKey`
   * again (a retry after the cancel failed to commit) must answer the first refund, never a
   * second one: the way real providers take an Idempotency-Key header.
   */
  refund(reference: string, amountCents: number, idempotencyKey: string): Promise<RefundOutcome>;
}

/** Card messages, one copy shared with the checkout island's own checks. */
export const CARD_MESSAGES = CARD_TEXT;

/** A test number that pays but whose refund is refused (as at card networks' test modes), to try a failed refund. */
export const REFUND_FAILS_CARD = '4000000000005126';

/** The well-known test numbers the `test` provider approves (Visa, Mastercard, American Express). */
export const TEST_CARDS: Readonly<Record<string, string>> = {
  '4242424242424242': 'Visa',
  '5555555555554444': 'Mastercard',
  '378282246310005': 'American Express',
  [REFUND_FAILS_CARD]: 'Visa',
};

/** Digits of a typed card number (spaces and dashes allowed between them), or null. */
export function cardDigits(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 40) return null;
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(digits) ? digits : null;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function wholeNumber(value: unknown, maxDigits: number): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && new RegExp(`^\\d{1,${maxDigits}}$`).test(value.trim())) return Number(value.trim());
  return null;
}

/** Month and four-digit year of a card's expiry (a two-digit year is 20YY), or null. */
function expiryOf(details: PaymentDetails): { month: number; year: number } | null {
  const month = wholeNumber(details.expMonth, 2);
  const rawYear = wholeNumber(details.expYear, 4);
  if (month === null || rawYear === null || month < 1 || month > 12) return null;
  const year = rawYear < 100 ? 2000 + rawYear : rawYear;
  return year >= 2000 && year <= 2100 ? { month, year } : null;
}

function reference(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(9).toString('base64url')}`;
}

/** The test card's word for a refused refund (a real provider names its own reason). */
export const REFUND_REFUSED = "The card's bank refused the refund.";

// The test card's payments paid with REFUND_FAILS_CARD carry this prefix, so their refund is
// refused after a restart too (nothing else of the card is kept).
const REFUND_FAILS_PREFIX = 'testnorefund';

/** A refund the test card provider made, as its books keep it (`testRefunds`). */
export interface TestRefund {
  refundReference: string;
  paymentReference: string;
  amountCents: number;
}

/**
 * The test card provider's books of refunds, by idempotency key: what makes a second refund
 * for the same key answer the first. In memory, as a demo provider's books are; a real
 * provider keeps them on its side.
 */
export const testRefunds = new Map<string, TestRefund>();

/**
 * `test`: card entry that approves the well-known test numbers and declines any other valid
 * number, so a demo store can be bought from without money moving. Its orders are testMode.
 */
export const testCardProvider: PaymentProvider = {
  id: 'test',
  label: 'Card (test mode)',
  kind: 'card',
  check(details, now) {
    const errors: Record<string, string> = {};
    const digits = cardDigits(details.cardNumber);
    if (digits === null || !luhnValid(digits)) errors.cardNumber = CARD_MESSAGES.cardNumber;
    const expiry = expiryOf(details);
    const today = new Date(now);
    if (expiry === null) errors.expiry = CARD_MESSAGES.expiry;
    else if (expiry.year * 12 + expiry.month < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) errors.expiry = CARD_MESSAGES.expired;
    const cvc = typeof details.cvc === 'string' ? details.cvc.trim() : '';
    const cvcLength = digits !== null && digits.startsWith('3') && digits.length === 15 ? 4 : 3;
    if (!new RegExp(`^\\d{${cvcLength}}$`).test(cvc)) errors.cvc = CARD_MESSAGES.cvc;
    return errors;
  },
  async authorize(request) {
    const digits = cardDigits(request.details.cardNumber) ?? '';
    const brand = TEST_CARDS[digits];
    if (!brand) return { kind: 'declined', message: CARD_MESSAGES.declined };
    const prefix = digits === REFUND_FAILS_CARD ? REFUND_FAILS_PREFIX : 'test';
    return { kind: 'approved', status: 'paid', reference: reference(prefix), label: `${brand} ending ${digits.slice(-4)} (test)`, testMode: true };
  },
  async void() {
    // Nothing was charged.
  },
  async refund(paymentReference, amountCents, idempotencyKey) {
    const done = testRefunds.get(idempotencyKey);
    if (done) return { kind: 'refunded', refundReference: done.refundReference };
    if (paymentReference.startsWith(`${REFUND_FAILS_PREFIX}_`)) return { kind: 'failed', message: REFUND_REFUSED };
    const refundReference = reference('test_refund');
    testRefunds.set(idempotencyKey, { refundReference, paymentReference, amountCents });
    return { kind: 'refunded', refundReference };
  },
};

/** `manual`: pay offline (bank transfer or on pickup); the order waits for the owner to mark it paid. */
export const manualProvider: PaymentProvider = {
  id: 'manual',
  label: 'Pay offline (bank transfer or on pickup)',
  shipsNothingLabel: 'Pay offline (bank transfer)',
  kind: 'offline',
  check: () => ({}),
  async authorize({ shipsNothing }) {
    // The label the order keeps (confirmation page, receipt, admin, CSV): pickup only for an order with something to pick up.
    const label = shipsNothing ? 'Bank transfer' : 'Bank transfer or pay on pickup';
    return { kind: 'approved', status: 'awaiting-payment', reference: reference('manual'), label, testMode: false };
  },
  async void() {
    // Nothing was taken.
  },
  async refund() {
    // The money came by bank transfer or at pickup, past any provider: the owner gives it back.
    return { kind: 'by-hand' };
  },
};

const BUILT_IN: readonly PaymentProvider[] = [testCardProvider, manualProvider];

/**
 * The provider that took an order, offered at checkout now or not (a store that stopped
 * offering the test card still refunds the orders paid with it); undefined for an unknown id.
 */
export function providerOf(id: string, registry: readonly PaymentProvider[] = BUILT_IN): PaymentProvider | undefined {
  return registry.find((provider) => provider.id === id);
}

/** The providers a store offers (catalog.json `commerce.paymentProviders`, default manual), in its order. */
export function offeredProviders(ids: readonly string[] | undefined, registry: readonly PaymentProvider[] = BUILT_IN): PaymentProvider[] {
  const wanted = ids && ids.length > 0 ? ids : ['manual'];
  return wanted.map((id) => registry.find((provider) => provider.id === id)).filter((provider): provider is PaymentProvider => provider !== undefined);
}

/** What the checkout shows of each offered provider; `shipsNothing`: the cart has no physical line. */
export function providerViews(providers: readonly PaymentProvider[], shipsNothing = false): { id: string; label: string; kind: 'card' | 'offline' }[] {
  return providers.map((provider) => ({ id: provider.id, label: (shipsNothing && provider.shipsNothingLabel) || provider.label, kind: provider.kind }));
}

import { useId, useRef, useState, type FormEvent } from 'react';
import { invalidAttrs } from '../runtime/form-fields.ts';
import { formatMoney, fractionDigits } from '../shared/currency.ts';
import { AdminDialog } from './admin-dialog.tsx';

// The owner's refund of an order without cancelling it (POST /api/commerce/orders/:id/refunds,
// renderer/orders/order-refund.ts): all of what is left, or part of it, with a note for the
// owner's records. The server bounds the amount again (422 REFUND_TOO_LARGE); here it is only
// said before anything is sent.

/** The longest note kept with a refund (the route's REFUND_REASON_MAX). */
export const REFUND_REASON_MAX = 500;

/**
 * Cents of an amount typed in the order's currency's major units ("12", "12.5", "12.50",
 * "$1,012.50"), or null for anything else (more decimals than the currency has, letters, signs).
 */
export function parseAmount(text: string, currency: string): number | null {
  const digits = fractionDigits(currency);
  const plain = text.trim().replace(/^[^\d.+-]{1,3}/, '').replace(/,(?=\d{3}(\D|$))/g, '');
  const match = new RegExp(`^(\\d{1,9})(?:\\.(\\d{0,${digits}}))?$`).exec(plain);
  if (!match || (digits === 0 && plain.includes('.'))) return null;
  const cents = Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || '0');
  return Number.isSafeInteger(cents) ? cents : null;
}

/** An amount in major units as the field shows it: "20.00" for 2000 cents of USD. */
export function amountField(cents: number, currency: string): string {
  const digits = fractionDigits(currency);
  return (cents / 10 ** digits).toFixed(digits);
}

/** A new idempotency key for one refund: pressing Refund again for the same dialog sends the same one. */
export function newRefundKey(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `rf-${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export interface RefundTarget {
  id: string;
  orderNumber: number;
  email: string;
  currency?: string;
  grandTotal: number;
  refundableCents: number;
  /** A refund that did not finish: the dialog offers that amount, which finishes it. */
  pendingRefundCents?: number | null;
  testMode?: boolean;
  payment?: { label: string; kind?: 'card' | 'offline' };
}

export interface RefundDialogProps {
  order: RefundTarget;
  onClose: () => void;
  /** Sends the refund; resolves with the server's message when refused (the dialog stays open to say it), or null. */
  onRefund: (request: { amountCents: number; reason: string; idempotencyKey: string }) => Promise<string | null>;
}

export function RefundDialog({ order, onClose, onRefund }: RefundDialogProps) {
  const currency = order.currency ?? 'USD';
  const money = (cents: number) => formatMoney(cents, currency);
  const [amount, setAmount] = useState(amountField(order.pendingRefundCents || order.refundableCents, currency));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // One key per dialog: a second press after a lost answer is the same refund, never a second one.
  const key = useRef(newRefundKey());
  const amountId = useId();
  const hintId = useId();
  const errorId = useId();
  const reasonId = useId();
  const input = useRef<HTMLInputElement>(null);

  const where =
    order.payment?.kind === 'offline'
      ? `It was paid offline (${order.payment.label}): give the money back to the buyer yourself; the email tells the buyer you will.`
      : `It goes back to ${order.payment?.label ?? 'the card'}${order.testMode ? ' (a test payment: no real money moves)' : ''}.`;
  const description = `${where} ${order.email} gets an email saying how much was refunded. Nothing goes back into stock.`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const cents = parseAmount(amount, currency);
    if (cents === null || cents < 1 || cents > order.refundableCents) {
      setError(`Enter an amount from ${money(1)} to ${money(order.refundableCents)}.`);
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const refused = await onRefund({ amountCents: cents, reason: reason.trim(), idempotencyKey: key.current });
    setBusy(false);
    if (refused !== null) {
      setError(refused);
      input.current?.focus();
    }
  };

  return (
    <AdminDialog title={`Refund order #${order.orderNumber}`} description={description} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div className="admin-field">
          <label htmlFor={amountId}>Amount to refund ({currency})</label>
          <input
            ref={input}
            id={amountId}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            {...invalidAttrs(error && errorId)}
            aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          />
          <p className="admin-field-hint" id={hintId}>
            {money(order.refundableCents)} of {money(order.grandTotal)} is left to refund.
          </p>
          {error ? (
            <p className="admin-field-error" id={errorId}>
              {error}
            </p>
          ) : null}
        </div>
        <div className="admin-field">
          <label htmlFor={reasonId}>Reason (optional, for your records)</label>
          <input id={reasonId} value={reason} maxLength={REFUND_REASON_MAX} onChange={(e) => setReason(e.target.value)} />
        </div>
        <div className="admin-dialog-actions">
          <button type="button" className="admin-secondary" onClick={onClose}>
            Keep as is
          </button>
          <button type="submit" data-action="confirm-refund" disabled={busy}>
            {busy ? 'Refunding…' : 'Refund'}
          </button>
        </div>
      </form>
    </AdminDialog>
  );
}

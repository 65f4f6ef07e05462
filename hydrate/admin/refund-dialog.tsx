import { useId, useRef, useState, type FormEvent } from 'react';
import { invalidAttrs } from '../runtime/form-fields.ts';
import { formatMoney, fractionDigits } from '../shared/currency.ts';
import { lineIdOf, linesPaidCents, refundedQuantities, restockable, type RefundLine } from '../shared/order-statuses.ts';
import { AdminDialog } from './admin-dialog.tsx';

// The owner's refund of an order without cancelling it (POST /api/commerce/orders/:id/refunds,
// renderer/orders/order-refund.ts): all of what is left, or part of it, with a note for the
// owner's records. The server bounds the amount again (422 REFUND_TOO_LARGE); here it is only
// said before anything is sent. Returned goods: the owner counts what came back of each line, the
// amount follows what was paid for them (lowered by hand if need be), and "Restock items" (on by
// default, offered only when a line with stock is named: goods or a service's seats) puts them
// back into stock with the refund; a counted download or gift card is said to stay out of stock (restockNote). The
// returned items come first, in the order the owner fills the dialog in: what came back, the
// amount it sets, then why.

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
  /** The order's lines and totals, for returned goods; without them the dialog asks an amount only. */
  items?: readonly { productName: string; variantLabel?: string; quantity: number; unitPrice?: number; productType?: number }[];
  subtotal?: number;
  shippingTotal?: number;
  refunds?: readonly { lines?: readonly RefundLine[] }[];
  /** The unfinished refund's lines and restock choice: asked again, they are sent as they were. */
  pendingRefundLines?: readonly RefundLine[];
  pendingRefundRestock?: boolean;
}

export interface RefundRequest {
  amountCents: number;
  reason: string;
  idempotencyKey: string;
  /** Returned lines, when the owner counted any, and whether they go back into stock. */
  lines?: RefundLine[];
  restock?: boolean;
}

export interface RefundDialogProps {
  order: RefundTarget;
  onClose: () => void;
  /** Sends the refund; resolves with the server's message when refused (the dialog stays open to say it), or null. */
  onRefund: (request: RefundRequest) => Promise<string | null>;
}

/** A line the owner may still count as returned: bought, less what earlier refunds gave back. */
export interface ReturnableLine {
  lineId: string;
  name: string;
  left: number;
  /** Its units go back into stock with Restock items (goods, a service's seats). */
  restockable: boolean;
}

/** The order's lines with something left to return (none when the order JSON lacks its totals). */
export function returnableLines(order: RefundTarget): ReturnableLine[] {
  if (!order.items || order.subtotal === undefined || order.shippingTotal === undefined) return [];
  const given = refundedQuantities(order);
  return order.items.flatMap((item, index) => {
    const lineId = lineIdOf(index);
    const left = item.quantity - (given.get(lineId) ?? 0);
    const name = item.variantLabel ? `${item.productName} (${item.variantLabel})` : item.productName;
    return left > 0 ? [{ lineId, name, left, restockable: restockable({ productType: item.productType ?? 0 }) }] : [];
  });
}

/** What was paid for the counted lines, as the server reckons it (hydrate/shared/order-statuses.ts). */
function paidFor(order: RefundTarget, lines: readonly RefundLine[]): number {
  const items = (order.items ?? []).map((item) => ({ quantity: item.quantity, unitPrice: item.unitPrice ?? 0, productType: item.productType ?? 0 }));
  return linesPaidCents({ items, subtotal: order.subtotal ?? 0, grandTotal: order.grandTotal, shippingTotal: order.shippingTotal ?? 0 }, lines);
}

/** A count typed in a line's field: a whole number from 0 to `left`, or null. Empty is 0. */
export function parseCount(text: string, left: number): number | null {
  const plain = text.trim();
  if (plain === '') return 0;
  if (!/^\d{1,6}$/.test(plain)) return null;
  const count = Number(plain);
  return count <= left ? count : null;
}

/**
 * What the dialog says when counted lines hold nothing to put back into stock (downloads,
 * gift cards): restocking them does nothing, so the owner is told rather than left to
 * find the stock unchanged. Null when every counted line has stock to return, or none is counted.
 */
export function restockNote(returnable: readonly ReturnableLine[], counted: readonly RefundLine[], restocking: boolean): string | null {
  const lines = counted.map((line) => returnable.find((entry) => entry.lineId === line.lineId)).filter((line): line is ReturnableLine => line !== undefined);
  const none = lines.filter((line) => !line.restockable).map((line) => line.name);
  if (none.length === 0) return null;
  const names = none.length === 1 ? none[0]! : `${none.slice(0, -1).join(', ')} and ${none[none.length - 1]!}`;
  const what = none.length === 1 ? `${names} is not a physical item, so it does not go back into stock` : `${names} are not physical items, so they do not go back into stock`;
  if (lines.length === none.length) return `${what}: nothing is restocked.`;
  // Restock left off: nothing goes back anyway, and the dialog's description says so.
  return restocking ? `${what}; the other items do.` : null;
}

export function RefundDialog({ order, onClose, onRefund }: RefundDialogProps) {
  const currency = order.currency ?? 'USD';
  const money = (cents: number) => formatMoney(cents, currency);
  const [amount, setAmount] = useState(amountField(order.pendingRefundCents || order.refundableCents, currency));
  const [reason, setReason] = useState('');
  // An unfinished refund is finished as it was asked: its lines are not offered again, but sent.
  const pending = Boolean(order.pendingRefundCents);
  const returnable = pending ? [] : returnableLines(order);
  const [counts, setCounts] = useState<Record<string, string>>({});
  const [countError, setCountError] = useState<string | null>(null);
  const [restock, setRestock] = useState(true);
  const counted: RefundLine[] = returnable.flatMap((line) => {
    const count = parseCount(counts[line.lineId] ?? '', line.left);
    return count ? [{ lineId: line.lineId, quantity: count }] : [];
  });
  const linesBound = counted.length > 0 ? Math.min(paidFor(order, counted), order.refundableCents) : null;
  const offersRestock = counted.some((line) => returnable.find((entry) => entry.lineId === line.lineId)?.restockable);
  const restocking = pending ? Boolean(order.pendingRefundRestock) : offersRestock && restock;
  const bound = linesBound ?? order.refundableCents;
  const note = restockNote(returnable, counted, restocking);
  const linesId = useId();
  const restockId = useId();
  const noteId = useId();
  const countErrorId = useId();
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
  const description = `${where} ${order.email} gets an email saying how much was refunded. ${restocking ? 'The returned items go back into stock.' : 'Nothing goes back into stock.'}`;

  // A count changed: the amount follows what was paid for the lines counted (all that is left when none are).
  const count = (lineId: string, text: string) => {
    const next = { ...counts, [lineId]: text };
    setCounts(next);
    setCountError(null);
    const lines = returnable.flatMap((line) => {
      const value = parseCount(next[line.lineId] ?? '', line.left);
      return value ? [{ lineId: line.lineId, quantity: value }] : [];
    });
    setAmount(amountField(lines.length > 0 ? Math.min(paidFor(order, lines), order.refundableCents) : order.refundableCents, currency));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const wrong = returnable.find((line) => parseCount(counts[line.lineId] ?? '', line.left) === null);
    if (wrong) {
      setCountError(`Enter how many of ${wrong.name} came back: a whole number from 0 to ${wrong.left}.`);
      document.getElementById(`${linesId}-${wrong.lineId}`)?.focus();
      return;
    }
    const cents = parseAmount(amount, currency);
    if (cents === null || cents < 1 || cents > bound) {
      setError(linesBound === null ? `Enter an amount from ${money(1)} to ${money(bound)}.` : `Enter an amount from ${money(1)} to ${money(bound)}, what was paid for those items.`);
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const lines = pending ? order.pendingRefundLines?.map((line) => ({ ...line })) : counted.length > 0 ? counted : undefined;
    const refused = await onRefund({
      amountCents: cents,
      reason: reason.trim(),
      idempotencyKey: key.current,
      ...(lines ? { lines, restock: restocking } : {}),
    });
    setBusy(false);
    if (refused !== null) {
      setError(refused);
      input.current?.focus();
    }
  };

  return (
    <AdminDialog title={`Refund order #${order.orderNumber}`} description={description} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        {/* What came back first: the amount below follows it, and the reason says why. */}
        {returnable.length > 0 ? (
          <fieldset className="admin-refund-lines" aria-describedby={countError ? countErrorId : undefined}>
            <legend>Returned items (optional)</legend>
            {returnable.map((line) => (
              <div className="admin-field admin-refund-line" key={line.lineId}>
                <label htmlFor={`${linesId}-${line.lineId}`}>
                  {line.name} returned (up to {line.left})
                </label>
                <input
                  id={`${linesId}-${line.lineId}`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={line.left}
                  step={1}
                  autoComplete="off"
                  data-line-id={line.lineId}
                  value={counts[line.lineId] ?? ''}
                  placeholder="0"
                  onChange={(e) => count(line.lineId, e.target.value)}
                  {...invalidAttrs(countError && parseCount(counts[line.lineId] ?? '', line.left) === null ? countErrorId : null)}
                />
              </div>
            ))}
            {countError ? (
              <p className="admin-field-error" id={countErrorId}>
                {countError}
              </p>
            ) : null}
            {offersRestock ? (
              <div className="admin-switch">
                <input id={restockId} type="checkbox" checked={restock} onChange={(e) => setRestock(e.target.checked)} aria-describedby={note ? noteId : undefined} />
                <label htmlFor={restockId}>Restock items</label>
              </div>
            ) : null}
            {/* Always in the page, so the sentence is announced as a count makes it appear. */}
            <div aria-live="polite">
              {note ? (
                <p className="admin-field-hint" id={noteId} data-restock-note>
                  {note}
                </p>
              ) : null}
            </div>
          </fieldset>
        ) : null}
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
            {linesBound === null
              ? `${money(order.refundableCents)} of ${money(order.grandTotal)} is left to refund.`
              : `${money(linesBound)} was paid for the returned items; you may refund less.`}
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

import { useEffect, useId, useRef, useState } from 'react';
import { formatMoney } from '../shared/currency.ts';
import { API_ERROR, hasApiError } from '../shared/api-error-codes.ts';
import { EDITOR_MESSAGES } from '../shared/editor-messages.ts';
import { NEXT_STATUSES, ORDER_STATUS_LABELS, lineIndexOf, restockable, type OrderStatus, type RefundLine } from '../shared/order-statuses.ts';
import { addressLines, type ShippingAddress } from '../shared/shipping-address.ts';
import { shortDate, type ApiResult } from './admin-api.ts';
import { AdminDialog } from './admin-dialog.tsx';
import { RefundDialog, type RefundRequest } from './refund-dialog.tsx';
import type { PanelProps } from './admin-app.tsx';
import { LoadError, StatusLine, useCursorList, useFocusRequest } from './panel-parts.tsx';
import { AdminTable } from './table-wrap.tsx';

// Orders (the orders contract's admin API): GET /api/commerce/orders a page at a time and
// POST /api/commerce/orders/:orderId/status to mark an order paid, fulfilled or cancelled
// (cancelling restocks its lines). Each row offers only the moves the server allows from its
// status (NEXT_STATUSES), and shows where the order ships, what the owner needs to send it.
// Refund… (POST …/refunds) gives back all or part of what is left of a paid or sent order
// without cancelling it; the row then says how much was refunded and how much is left.

interface AdminOrder {
  id: string;
  orderNumber: number;
  email: string;
  status: OrderStatus;
  createdOn: string | number;
  currency?: string;
  grandTotal: number;
  testMode?: boolean;
  shippingAddress?: ShippingAddress | null;
  payment?: { provider: string; label: string; kind?: 'card' | 'offline' };
  /** A cancelled paid order's money: refunded by the provider, or (paid offline) the owner's to give back by hand. */
  refund?: OrderRefund | null;
  /** A cancel's refund was asked and its answer is not stored yet (under way, or unknown: cancelling again finishes it). */
  refundPending?: boolean;
  /** The owner's refunds without a cancel, oldest first. */
  refunds?: OwnerRefund[];
  /** Cents given back so far (the refunds and a cancel's), and cents that may still be refunded (0: none). */
  refundedCents?: number;
  refundableCents?: number;
  /** An owner's refund asked and not yet stored (under way, or its answer unknown): its amount; refunding it again finishes it. */
  pendingRefundCents?: number | null;
  /** Each digital product of a paid order: downloads used of the limit (none before payment). */
  downloads?: { itemId: string; title: string; used: number; limit: number }[];
  /** The buyer's links work now (paid or fulfilled): the owner may reset a count or mail them again. */
  downloadsOpen?: boolean;
  items: { productName: string; quantity: number; variantLabel?: string; fieldValues?: { label: string; value: string }[]; unitPrice?: number; productType?: number }[];
  subtotal?: number;
  shippingTotal?: number;
  /** The unfinished refund's returned lines and restock choice: asking it again repeats them. */
  pendingRefundLines?: RefundLine[];
  pendingRefundRestock?: boolean;
}

interface OrderRefund {
  kind: 'refunded' | 'by-hand';
  amountCents: number;
  reference: string | null;
  label: string;
}

interface OwnerRefund extends OrderRefund {
  on: string;
  by: string;
  reason: string | null;
  /** The returned lines it paid back, and whether they went back into stock. */
  lines?: RefundLine[];
  restocked?: boolean;
}

interface OrdersPage {
  orders: AdminOrder[];
  nextCursor: string | null;
}

const STATUS_LABELS: Record<string, string> = ORDER_STATUS_LABELS;

export function OrdersPanel({ api }: PanelProps) {
  // What the list is narrowed to (a status, an order number or part of an email), as sent; the
  // form's fields apply on Find, so typing does not reload the list at each key.
  const [filter, setFilter] = useState({ q: '', status: '' });
  const [findText, setFindText] = useState('');
  const [findStatus, setFindStatus] = useState('');
  const list = useCursorList<AdminOrder, OrdersPage>(
    api,
    (cursor) =>
      `/api/commerce/orders?limit=20${filter.status ? `&status=${encodeURIComponent(filter.status)}` : ''}${filter.q ? `&q=${encodeURIComponent(filter.q)}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    (body) => ({ items: body.orders, cursor: body.nextCursor }),
    // Before the orders API is deployed the route answers 404: the panel says so plainly.
    (status) => (status === 404 ? 'Orders are not available on this server yet.' : EDITOR_MESSAGES.loadResultsFailed),
  );
  const [updated, setUpdated] = useState<Record<string, AdminOrder>>({});
  const orders = list.items?.map((order) => updated[order.id] ?? order) ?? null;
  const [status, setStatus] = useState('');
  const headingId = useId();
  const section = useRef<HTMLElement>(null);
  const focusLater = useFocusRequest();

  // A Find says in the status line what it found: the table redrawn under a screen reader's
  // user said nothing, so a Find that matched nothing or one order sounded the same.
  const finding = useRef(false);
  useEffect(() => {
    if (!finding.current || list.items === null) return;
    finding.current = false;
    const count = list.items.length;
    const narrowed = filter.q !== '' || filter.status !== '';
    if (count === 0) setStatus(narrowed ? 'No orders found.' : 'No orders yet.');
    else setStatus(`${count === 1 ? '1 order' : `${count} orders`} ${narrowed ? 'found' : 'listed'}${list.hasMore ? ', and more after them (More orders)' : ''}.`);
  }, [list.items]);

  const [cancelling, setCancelling] = useState<AdminOrder | null>(null);
  const [refunding, setRefunding] = useState<AdminOrder | null>(null);

  // Orders whose change is on its way: a second press (a double click, Update again before the
  // answer) sends nothing, where it sent the move again and its 409 replaced the first's news.
  const sending = useRef(new Set<string>());

  // Cancelling cannot be undone and the buyer is mailed at once: asked first.
  const choose = (order: AdminOrder, next: string) => {
    if (sending.current.has(order.id)) return;
    if (next === 'cancelled') setCancelling(order);
    else void change(order, next);
  };

  const change = async (order: AdminOrder, next: string) => {
    if (sending.current.has(order.id)) return;
    sending.current.add(order.id);
    // Said at once: a cancel waits for the payment provider's refund, which can take a while.
    setStatus(next === 'cancelled' ? `Cancelling order #${order.orderNumber}…` : `Updating order #${order.orderNumber}…`);
    let result: ApiResult<AdminOrder>;
    try {
      result = await api.send<AdminOrder>('POST', `/api/commerce/orders/${encodeURIComponent(order.id)}/status`, { status: next });
    } finally {
      sending.current.delete(order.id);
    }
    if (!result.ok) {
      setStatus(result.message);
      // Moved meanwhile (another tab, another owner): the row is read again, so it shows the
      // status the message names and offers that status's moves, not the stale ones.
      // REFUND_PENDING: another press or owner's cancel is refunding it; *_UNFINISHED: a refund did
      // not finish; the row read again says so and offers what the server allows.
      if (hasApiError(result, API_ERROR.INVALID_ORDER_STATUS, API_ERROR.REFUND_PENDING, API_ERROR.CANCEL_REFUND_UNFINISHED, API_ERROR.REFUND_UNFINISHED, API_ERROR.REFUND_FAILED, API_ERROR.REFUND_LINE_NOT_FOUND, API_ERROR.REFUND_QUANTITY_TOO_LARGE)) {
        const fresh = await api.get<AdminOrder>(`/api/commerce/orders/${encodeURIComponent(order.id)}`);
        if (fresh.ok) setUpdated((before) => ({ ...before, [order.id]: { ...order, ...fresh.body } }));
      }
      return;
    }
    const changed = { ...order, ...result.body };
    const refund = changed.refund ? ` ${refundText(changed.refund, changed.currency)}.` : '';
    // Marked paid from awaiting payment, the buyer is mailed the receipt again (orders/order-status.ts).
    // Cancelled, the buyer is mailed what happened to the order and the money (mail/order-cancelled.ts), as the confirmation said.
    const told =
      next === 'paid' && order.status === 'awaiting-payment' ? ` ${order.email} is emailed that the payment arrived.` : next === 'cancelled' ? ` ${order.email} is emailed about it.` : '';
    setStatus(`Order #${order.orderNumber} is now ${(STATUS_LABELS[next] ?? next).toLowerCase()}.${refund}${told}`);
    // From the state as it is now: two rows changed at once both keep their news.
    setUpdated((before) => ({ ...before, [order.id]: changed }));
    // A status with no further moves takes the select and the Update button away: the focus
    // goes to the row's new status rather than to the page.
    if ((NEXT_STATUSES[changed.status] ?? []).length === 0) {
      focusLater(() => section.current?.querySelector<HTMLElement>(`tr[data-order-id="${CSS.escape(order.id)}"] .admin-order-status`));
    }
  };

  // A refund without a cancel: the dialog stays open with the server's message when it is
  // refused (over what is left, under way elsewhere), and closes on success.
  const refund = async (order: AdminOrder, request: RefundRequest): Promise<string | null> => {
    if (sending.current.has(order.id)) return null;
    sending.current.add(order.id);
    setStatus(`Refunding order #${order.orderNumber}…`);
    let result: ApiResult<AdminOrder>;
    try {
      result = await api.send<AdminOrder>('POST', `/api/commerce/orders/${encodeURIComponent(order.id)}/refunds`, {
        amountCents: request.amountCents,
        idempotencyKey: request.idempotencyKey,
        ...(request.reason ? { reason: request.reason } : {}),
        ...(request.lines ? { lines: request.lines, restock: request.restock ?? false } : {}),
      });
    } finally {
      sending.current.delete(order.id);
    }
    if (!result.ok) {
      setStatus(result.message);
      // Refunded or moved meanwhile (another tab, another owner): the row read again shows what is left.
      if (hasApiError(result, API_ERROR.REFUND_TOO_LARGE, API_ERROR.NOTHING_TO_REFUND, API_ERROR.ORDER_NOT_PAID, API_ERROR.REFUND_PENDING, API_ERROR.CANCEL_REFUND_UNFINISHED, API_ERROR.REFUND_UNFINISHED, API_ERROR.REFUND_FAILED, API_ERROR.REFUND_LINE_NOT_FOUND, API_ERROR.REFUND_QUANTITY_TOO_LARGE)) {
        const fresh = await api.get<AdminOrder>(`/api/commerce/orders/${encodeURIComponent(order.id)}`);
        if (fresh.ok) setUpdated((before) => ({ ...before, [order.id]: { ...order, ...fresh.body } }));
      }
      return result.message;
    }
    const changed = { ...order, ...result.body };
    const currency = changed.currency ?? 'USD';
    const given = changed.refunds?.[changed.refunds.length - 1];
    const how = given?.kind === 'by-hand' ? `Give ${formatMoney(request.amountCents, currency)} back to the buyer yourself.` : `Refunded ${formatMoney(request.amountCents, currency)} to ${given?.label ?? 'the card'}.`;
    const left = changed.refundableCents ?? 0;
    const back = given?.restocked ? restockedUnits(changed, given.lines ?? []) : 0;
    const stock = back > 0 ? ` ${back === 1 ? '1 item is' : `${back} items are`} back in stock.` : '';
    setStatus(
      `Order #${order.orderNumber} is now ${(STATUS_LABELS[changed.status] ?? changed.status).toLowerCase()}. ${how}${stock} ${left > 0 ? `${formatMoney(left, currency)} is left to refund.` : 'Nothing is left to refund.'} ${order.email} is emailed about it.`,
    );
    setUpdated((before) => ({ ...before, [order.id]: changed }));
    setRefunding(null);
    // Nothing left: the Refund button the dialog gives the focus back to is gone; the row's status takes it.
    if (left <= 0) focusLater(() => section.current?.querySelector<HTMLElement>(`tr[data-order-id="${CSS.escape(order.id)}"] .admin-order-status`));
    return null;
  };

  // A digital product's count started over (the buyer reached the limit), or the links mailed
  // again (a lost receipt). One at a time per order, as status changes are.
  const downloadAction = async (order: AdminOrder, action: { reset: { itemId: string; title: string } } | { resend: true }) => {
    if (sending.current.has(order.id)) return;
    sending.current.add(order.id);
    const base = `/api/commerce/orders/${encodeURIComponent(order.id)}/downloads`;
    let result: ApiResult<AdminOrder>;
    try {
      result = 'reset' in action ? await api.send<AdminOrder>('POST', `${base}/reset`, { itemId: action.reset.itemId }) : await api.send<AdminOrder>('POST', `${base}/resend`);
    } finally {
      sending.current.delete(order.id);
    }
    if (!result.ok) {
      setStatus(result.message);
      // Cancelled meanwhile (another tab): the row read again shows it, with its links closed.
      if (result.code === API_ERROR.DOWNLOADS_CLOSED) {
        const fresh = await api.get<AdminOrder>(`/api/commerce/orders/${encodeURIComponent(order.id)}`);
        if (fresh.ok) setUpdated((before) => ({ ...before, [order.id]: { ...order, ...fresh.body } }));
      }
      return;
    }
    setUpdated((before) => ({ ...before, [order.id]: { ...order, ...result.body } }));
    if ('reset' in action) {
      const limit = result.body.downloads?.find((download) => download.itemId === action.reset.itemId)?.limit;
      setStatus(`${action.reset.title} of order #${order.orderNumber} can be downloaded ${limit} times again.`);
    } else {
      setStatus(`The download links of order #${order.orderNumber} are emailed to ${order.email} again.`);
    }
  };

  // The next page's first row takes the focus: the button may be gone (the last page), and the
  // owner reads on from the rows just added.
  const more = async () => {
    const before = orders?.length ?? 0;
    await list.more();
    focusLater(() => section.current?.querySelectorAll<HTMLElement>('tbody tr > th')[before]);
  };

  return (
    <section className="admin-panel" aria-labelledby={headingId} data-admin-panel="orders" ref={section}>
      <h2 id={headingId}>Orders</h2>
      <form
        className="admin-toolbar"
        role="search"
        aria-label="Search orders"
        onSubmit={(event) => {
          event.preventDefault();
          const next = { q: findText.trim(), status: findStatus };
          finding.current = true;
          // The same Find again reads the list again (new orders since), and says it as well.
          if (next.q === filter.q && next.status === filter.status) void list.reload();
          else setFilter(next);
        }}
      >
        <label htmlFor={`${headingId}-find`}>Find orders</label>
        <input id={`${headingId}-find`} type="search" maxLength={200} value={findText} onChange={(e) => setFindText(e.target.value)} placeholder="Order number or email" />
        <label htmlFor={`${headingId}-status`}>Status</label>
        <select id={`${headingId}-status`} value={findStatus} onChange={(e) => setFindStatus(e.target.value)}>
          <option value="">All statuses</option>
          {Object.entries(STATUS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <button type="submit">Find</button>
      </form>
      {/* The orders as found (all of them, not only the pages read), for the owner's books. */}
      <p>
        <a className="admin-button-link" href={`/api/admin/orders/export${exportQuery(filter)}`} download data-action="export-orders-csv">
          Export as CSV<span className="admin-visually-hidden"> (orders{filter.q || filter.status ? ' found' : ''})</span>
        </a>
      </p>
      <StatusLine text={status} />
      <LoadError message={list.error} onRetry={() => void list.reload()} />
      {orders && orders.length === 0 ? <p>{filter.q || filter.status ? 'No orders match.' : 'No orders yet.'}</p> : null}
      {orders && orders.length > 0 ? (
        <AdminTable label="Order list" columns={ORDER_COLUMNS} stacked>
          {orders.map((order) => (
            <OrderRow
              key={order.id}
              order={order}
              onChange={(next) => choose(order, next)}
              onRefund={() => setRefunding(order)}
              onResetDownloads={(item) => void downloadAction(order, { reset: item })}
              onResendDownloads={() => void downloadAction(order, { resend: true })}
            />
          ))}
        </AdminTable>
      ) : null}
      {list.hasMore ? (
        <button type="button" className="admin-secondary" onClick={() => void more()}>
          More orders
        </button>
      ) : null}
      {refunding ? (
        <RefundDialog
          order={{ ...refunding, refundableCents: refunding.refundableCents ?? 0, pendingRefundCents: refunding.pendingRefundCents ?? null }}
          onClose={() => setRefunding(null)}
          onRefund={(request) => refund(refunding, request)}
        />
      ) : null}
      {cancelling ? (
        <AdminDialog title={`Cancel order #${cancelling.orderNumber}?`} role="alertdialog" description={cancelText(cancelling)} onClose={() => setCancelling(null)}>
          <div className="admin-dialog-actions">
            <button type="button" className="admin-secondary" onClick={() => setCancelling(null)}>
              Keep order
            </button>
            <button
              type="button"
              className="admin-danger"
              data-action="confirm-cancel"
              onClick={() => {
                const order = cancelling;
                setCancelling(null);
                void change(order, 'cancelled');
              }}
            >
              Cancel order
            </button>
          </div>
        </AdminDialog>
      ) : null}
    </section>
  );
}

/** The list's columns; on a phone each stacked cell is headed by its own (`data-label`, admin.css). */
const ORDER_COLUMNS = ['Order', 'Placed', 'Customer', 'Ships to', 'Items', 'Total', 'Status'] as const;
/** A cell of the stacked orders table (table-wrap.tsx): its role and its column's name. */
const cell = (column: number) => ({ role: 'cell', 'data-label': ORDER_COLUMNS[column] });

interface OrderRowProps {
  order: AdminOrder;
  onChange: (status: string) => void;
  onRefund: () => void;
  onResetDownloads: (item: { itemId: string; title: string }) => void;
  onResendDownloads: () => void;
}

function OrderRow({ order, onChange, onRefund, onResetDownloads, onResendDownloads }: OrderRowProps) {
  const moves = NEXT_STATUSES[order.status] ?? [];
  const [chosen, setNext] = useState<string>(moves[0] ?? '');
  // After a change the row's moves are new: a choice that is no longer one falls back to the first.
  const next = moves.includes(chosen as OrderStatus) ? chosen : (moves[0] ?? '');
  const shipsTo = addressLines(order.shippingAddress);
  const selectId = useId();
  // Each line with its variant and what the buyer entered for it (an engraving): what to make and send.
  const items = order.items.map((item, index) => (
    <div key={index} className="admin-order-item">
      {item.quantity} × {item.productName}
      {item.variantLabel ? ` (${item.variantLabel})` : ''}
      {item.fieldValues?.map((field, at) => (
        <div key={at} className="admin-order-item-field">
          {field.label}: {field.value}
        </div>
      ))}
    </div>
  ));
  return (
    <tr data-order-id={order.id} role="row">
      <th scope="row" role="rowheader">
        #{order.orderNumber}
        {order.testMode ? <span className="admin-tag"> test</span> : null}
      </th>
      <td {...cell(1)}>{shortDate(order.createdOn)}</td>
      <td {...cell(2)}>{order.email}</td>
      <td {...cell(3)} className="admin-order-address">
        {shipsTo.length > 0
          ? shipsTo.map((line, at) => (
              <div key={at}>{line}</div>
            ))
          : 'No shipping'}
      </td>
      <td {...cell(4)}>
        {items}
        {order.downloads && order.downloads.length > 0 ? (
          <div className="admin-order-downloads">
            {order.downloads.map((download) => (
              <div key={download.itemId} className="admin-order-download" data-download-item={download.itemId}>
                <span className="admin-order-download-count">
                  {download.title}: {download.used} of {download.limit} downloads used
                </span>
                {order.downloadsOpen ? (
                  <button type="button" className="admin-secondary" onClick={() => onResetDownloads(download)}>
                    Reset count<span className="admin-visually-hidden"> of {download.title}, order #{order.orderNumber}</span>
                  </button>
                ) : null}
              </div>
            ))}
            {order.downloadsOpen ? (
              <button type="button" className="admin-secondary" data-action="resend-downloads" onClick={onResendDownloads}>
                Email download links<span className="admin-visually-hidden"> of order #{order.orderNumber}</span>
              </button>
            ) : (
              <div className="admin-order-item-field">Download links closed</div>
            )}
          </div>
        ) : null}
      </td>
      <td {...cell(5)}>{formatMoney(order.grandTotal, order.currency ?? 'USD')}</td>
      <td {...cell(6)}>
        <span className="admin-order-status">{STATUS_LABELS[order.status] ?? order.status}</span>
        {order.refund ? (
          <div className="admin-order-refund">
            {refundText(order.refund, order.currency)}
            {order.refund.reference ? <div className="admin-order-item-field">Refund {order.refund.reference}</div> : null}
          </div>
        ) : null}
        {order.refunds && order.refunds.length > 0 ? <OwnerRefunds order={order} /> : null}
        {order.pendingRefundCents ? (
          <div className="admin-order-refund" data-refund-pending>
            A refund of {formatMoney(order.pendingRefundCents, order.currency ?? 'USD')} is under way or did not finish: refunding that amount again finishes it.
          </div>
        ) : order.refundPending && order.status === 'paid' ? (
          <div className="admin-order-refund" data-refund-pending>
            Refund under way or unfinished: cancelling again finishes it.
          </div>
        ) : null}
        {moves.length > 0 ? (
          <span className="admin-inline-form">
            <label htmlFor={selectId} className="admin-visually-hidden">
              New status for order #{order.orderNumber}
            </label>
            <select id={selectId} value={next} onChange={(e) => setNext(e.target.value)}>
              {moves.map((candidate) => (
                <option key={candidate} value={candidate}>
                  {STATUS_LABELS[candidate]}
                </option>
              ))}
            </select>
            <button type="button" onClick={() => onChange(next)}>
              Update<span className="admin-visually-hidden"> order #{order.orderNumber}</span>
            </button>
          </span>
        ) : null}
        {(order.refundableCents ?? 0) > 0 && (!order.refundPending || order.pendingRefundCents) ? (
          <button type="button" className="admin-secondary admin-order-refund-button" data-action="refund" onClick={onRefund}>
            Refund…<span className="admin-visually-hidden"> order #{order.orderNumber}</span>
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * The owner's refunds of an order without a cancel: how much of the total came back and how
 * much is left, then each refund (when, how much, where to, by whom, the note, the provider's reference).
 */
function OwnerRefunds({ order }: { order: AdminOrder }) {
  const currency = order.currency ?? 'USD';
  const money = (cents: number) => formatMoney(cents, currency);
  const left = order.refundableCents ?? 0;
  return (
    <div className="admin-order-refund" data-refunds>
      <div className="admin-order-refund-sum">
        Refunded {money(order.refundedCents ?? 0)} of {money(order.grandTotal)}
        {left > 0 ? `; ${money(left)} left to refund` : ''}
      </div>
      <ul className="admin-order-refund-list">
        {order.refunds!.map((entry, at) => (
          <li key={at} className="admin-order-item-field">
            {shortDate(entry.on)}: {entry.kind === 'refunded' ? `${money(entry.amountCents)} to ${entry.label}` : `${money(entry.amountCents)} to give back by hand`}, by {entry.by}
            {entry.reason ? ` (${entry.reason})` : ''}
            {entry.lines?.length ? <div>{returnedText(order, entry.lines, entry.restocked ?? false)}</div> : null}
            {entry.reference ? <div>Refund {entry.reference}</div> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * "Returned: 1 × T-shirt (M), back in stock": what a refund of lines paid back. A restock puts
 * back only the lines with stock (goods, a service's seats), so beside a download each restocked line says it
 * ("1 × T-shirt (M) (back in stock), 1 × Poster"), where a trailing "back in stock" would name both.
 */
export function returnedText(order: Pick<AdminOrder, 'items'>, lines: readonly RefundLine[], restocked: boolean): string {
  const physical = (line: RefundLine) => {
    const item = order.items[lineIndexOf(order, line.lineId)];
    return item !== undefined && restockable({ productType: item.productType ?? 0 });
  };
  const each = restocked && !lines.every(physical);
  const named = lines.map((line) => {
    const item = order.items[lineIndexOf(order, line.lineId)];
    const name = `${line.quantity} × ${item ? `${item.productName}${item.variantLabel ? ` (${item.variantLabel})` : ''}` : line.lineId}`;
    return each && physical(line) ? `${name} (back in stock)` : name;
  });
  return `Returned: ${named.join(', ')}${restocked && !each ? ', back in stock' : ''}`;
}

/** Units of a refund's lines that went back into stock (its goods and service seats). */
function restockedUnits(order: AdminOrder, lines: readonly RefundLine[]): number {
  return lines.reduce((sum, line) => {
    const item = order.items[lineIndexOf(order, line.lineId)];
    return sum + (item && restockable({ productType: item.productType ?? 0 }) ? line.quantity : 0);
  }, 0);
}

/** The export's query for the list's filter ('' for all orders). */
function exportQuery(filter: { q: string; status: string }): string {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  if (filter.q) params.set('q', filter.q);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** What became of a cancelled order's money, in the owner's words. */
function refundText(refund: OrderRefund, currency: string | undefined): string {
  const amount = formatMoney(refund.amountCents, currency ?? 'USD');
  return refund.kind === 'refunded' ? `Refunded ${amount} to ${refund.label}` : `Paid offline: give ${amount} back to the buyer yourself`;
}

/**
 * What cancelling does, said before it is done: the stock comes back, the buyer is mailed, and
 * a paid order's money goes back first: to the card through its provider (a refused refund
 * leaves the order as it is), or, paid offline, by the owner's own hand.
 */
function cancelText(order: AdminOrder): string {
  const payment = `${order.payment?.label ?? 'paid'}, ${formatMoney(order.grandTotal, order.currency ?? 'USD')}`;
  const money =
    order.status !== 'paid' || order.grandTotal <= 0
      ? 'Nothing has been paid for it.'
      : order.payment?.kind === 'offline'
        ? `The payment (${payment}) was made offline: give it back to the buyer yourself; the email tells the buyer you will.`
        : `The payment (${payment}) is refunded first${order.testMode ? ' (a test payment: no real money moves)' : ''}; if the refund fails, the order stays as it is.`;
  return `Its items go back into stock and ${order.email} gets an email saying the order is cancelled. ${money} This cannot be undone.`;
}

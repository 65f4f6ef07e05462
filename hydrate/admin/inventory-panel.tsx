import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { invalidAttrs } from '../runtime/form-fields.ts';
import { API_ERROR } from '../shared/api-error-codes.ts';
import { formatMoney } from '../shared/currency.ts';
import { EDITOR_MESSAGES, formatEditorMessage } from '../shared/editor-messages.ts';
import type { InventoryProductRow, InventoryVariantRow } from '../shared/inventory-rows.ts';
import type { PanelProps } from './admin-app.tsx';
import { LoadError, StatusLine } from './panel-parts.tsx';
import { OWNER_EVENTS } from './owner-events.ts';
import { TableWrap } from './table-wrap.tsx';

// Inventory: search, sort by name, stock or price, a page of 10 at a time; a row's expander
// (or a click on its name) shows its variants, whose stock is edited in place through the
// [admin] stock route (B28) that the storefront reads.

type Sort = 'name' | 'stock' | 'price';

type VariantRow = InventoryVariantRow;
type ProductRow = InventoryProductRow;

interface InventoryPage {
  products: ProductRow[];
  total: number;
  page: number;
  nextPage: number | null;
  currency: string;
}

const SORT_EVENTS: Record<Sort, string> = {
  name: OWNER_EVENTS.inventory.sortName,
  stock: OWNER_EVENTS.inventory.sortStock,
  price: OWNER_EVENTS.inventory.sortPrice,
};
const SORT_LABELS: Record<Sort, string> = { name: 'Product', stock: 'Stock', price: 'Price' };
const MAX_STOCK = 1_000_000_000;

export function InventoryPanel({ api, track }: PanelProps) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState({ q: '', sort: 'name' as Sort, dir: 'asc' as 'asc' | 'desc', page: 1 });
  const [data, setData] = useState<InventoryPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [status, setStatus] = useState('');
  const headingId = useId();

  const load = useCallback(async () => {
    const params = new URLSearchParams({ q: query.q, sort: query.sort, dir: query.dir, page: String(query.page) });
    const result = await api.get<InventoryPage>(`/api/admin/inventory?${params}`);
    if (result.ok) {
      setData(result.body);
      setError(null);
    } else setError(EDITOR_MESSAGES.loadResultsFailed);
  }, [api, query]);

  useEffect(() => {
    void load();
  }, [load]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    track(OWNER_EVENTS.inventory.search);
    setExpanded(new Set());
    setQuery({ ...query, q: text, page: 1 });
  };

  const sortBy = (sort: Sort) => {
    track(SORT_EVENTS[sort]);
    setQuery({ ...query, sort, dir: query.sort === sort && query.dir === 'asc' ? 'desc' : 'asc', page: 1 });
  };

  const toggle = (row: ProductRow, event: string) => {
    track(event, { item_id: row.id, item_title: row.title });
    const next = new Set(expanded);
    if (next.has(row.id)) next.delete(row.id);
    else next.add(row.id);
    setExpanded(next);
  };

  const nextPage = () => {
    if (!data?.nextPage) return;
    track(OWNER_EVENTS.inventory.nextPage);
    setExpanded(new Set());
    setQuery({ ...query, page: data.nextPage });
  };

  // `stock` null: the save was refused because the stock had changed; the list is read again.
  // A sold-out variant back in stock: visitors who asked to hear of it are not mailed unasked
  // (Restock sign-ups sends the notice), so the line says how many wait, or the owner would not know.
  const onSaved = (row: ProductRow, variant: VariantRow, stock: string | null, backInStock = false) => {
    if (stock !== null) setStatus(`Stock of ${variant.sku} set to ${stock}.`);
    void load();
    if (stock !== null && backInStock) void sayWaiting(row, variant, stock);
  };
  const sayWaiting = async (row: ProductRow, variant: VariantRow, stock: string) => {
    const query = `productId=${encodeURIComponent(row.id)}&variantId=${encodeURIComponent(variant.id)}&limit=100`;
    const result = await api.get<{ signUps: { notifiedOn: string | null }[]; hasNextPage: boolean }>(`/api/site-users/account/notifications/restock?${query}`);
    if (!result.ok) return;
    const waiting = result.body.signUps.filter((signUp) => signUp.notifiedOn === null).length;
    if (waiting === 0) return;
    const who = result.body.hasNextPage ? `${waiting} or more visitors are` : waiting === 1 ? '1 visitor is' : `${waiting} visitors are`;
    // Only while the line still speaks of this save (another save since has its own).
    setStatus((now) => (now === `Stock of ${variant.sku} set to ${stock}.` ? `${now} ${who} waiting for it: send the notice in Restock sign-ups.` : now));
  };

  return (
    <section className="admin-panel" aria-labelledby={headingId} data-admin-panel="inventory">
      <h2 id={headingId}>Inventory</h2>
      <form className="admin-toolbar" role="search" onSubmit={search}>
        <label htmlFor="inventory-search">Search products</label>
        <input id="inventory-search" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Name or SKU" />
        <button type="submit">Search</button>
      </form>
      <StatusLine text={status} />
      <LoadError message={error} onRetry={() => void load()} />
      {data ? (
        <>
          <p className="admin-count">
            {data.total === 1 ? '1 product' : `${data.total} products`}
            {data.total > 0 ? `, page ${data.page}` : ''}
          </p>
          <TableWrap label="Products">
            <table className="admin-table">
              <caption className="admin-visually-hidden">Products</caption>
              <thead>
                <tr>
                  <th scope="col" className="admin-col-expander">
                    <span className="admin-visually-hidden">Variants</span>
                  </th>
                  {(['name', 'stock', 'price'] as Sort[]).map((sort) => (
                    <th key={sort} scope="col" aria-sort={query.sort === sort ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
                      <button type="button" className="admin-sort" data-sort={sort} onClick={() => sortBy(sort)}>
                        {SORT_LABELS[sort]}
                        <span aria-hidden="true">{query.sort === sort ? (query.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                      </button>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.products.map((row) => {
                  const open = expanded.has(row.id);
                  const detailId = `inventory-variants-${row.id}`;
                  return (
                    <ProductRows
                      key={row.id}
                      row={row}
                      open={open}
                      detailId={detailId}
                      currency={data.currency}
                      onExpander={() => toggle(row, OWNER_EVENTS.inventory.rowExpander)}
                      onRowClick={() => toggle(row, OWNER_EVENTS.inventory.rowClick)}
                      panel={{ api, track }}
                      onSaved={onSaved}
                    />
                  );
                })}
              </tbody>
            </table>
          </TableWrap>
          {data.products.length === 0 ? <p>No products match.</p> : null}
          <div className="admin-pager">
            {query.page > 1 ? (
              <button type="button" className="admin-secondary" onClick={() => setQuery({ ...query, page: query.page - 1 })}>
                Previous page
              </button>
            ) : null}
            {data.nextPage ? (
              <button type="button" className="admin-secondary" data-action="next-page" onClick={nextPage}>
                Next page
              </button>
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}

/**
 * The price an item sells at; on sale, its regular price follows struck through after a visible
 * "was" (a strike alone is not read out by screen readers).
 */
function Price({ cents, regularCents, currency }: { cents: number; regularCents: number | null; currency: string }) {
  return (
    <>
      {formatMoney(cents, currency)}
      {regularCents !== null ? (
        <span className="admin-price-was">
          {' was '}
          <s>{formatMoney(regularCents, currency)}</s>
        </span>
      ) : null}
    </>
  );
}

interface ProductRowsProps {
  row: ProductRow;
  open: boolean;
  detailId: string;
  currency: string;
  panel: PanelProps;
  onExpander: () => void;
  onRowClick: () => void;
  onSaved: (row: ProductRow, variant: VariantRow, stock: string | null, backInStock?: boolean) => void;
}

function ProductRows({ row, open, detailId, currency, panel, onExpander, onRowClick, onSaved }: ProductRowsProps) {
  return (
    <>
      <tr data-product-id={row.id} className={open ? 'admin-row-open' : undefined}>
        <td>
          <button type="button" className="admin-expander" aria-expanded={open} aria-controls={detailId} onClick={onExpander}>
            <span aria-hidden="true">{open ? '−' : '+'}</span>
            <span className="admin-visually-hidden">Variants of {row.title}</span>
          </button>
        </td>
        <td>
          <button type="button" className="admin-row-link" onClick={onRowClick} aria-expanded={open} aria-controls={detailId}>
            {row.title}
          </button>
        </td>
        <td>{row.stockTotal === null ? 'Unlimited' : row.stockTotal}</td>
        <td>
          <Price cents={row.priceCents} regularCents={row.regularPriceCents} currency={currency} />
        </td>
      </tr>
      <tr id={detailId} hidden={!open} className="admin-detail-row">
        <td colSpan={4}>
          {open ? (
            <ul className="admin-variants">
              {row.variants.map((variant) => (
                <VariantStock key={variant.id} row={row} variant={variant} currency={currency} panel={panel} onSaved={onSaved} />
              ))}
            </ul>
          ) : null}
        </td>
      </tr>
    </>
  );
}

/** A variant's stock as the owner read it: what a save is made from (B28 `expected`). */
interface StockReading {
  qtyInStock: number;
  unlimited: boolean;
}

const readingOf = (variant: { qtyInStock: number; unlimited: boolean }): StockReading => ({ qtyInStock: variant.unlimited ? 0 : variant.qtyInStock, unlimited: variant.unlimited });
const stockText = (reading: StockReading) => (reading.unlimited ? 'Unlimited' : String(reading.qtyInStock));

function VariantStock({ row, variant, currency, panel, onSaved }: { row: ProductRow; variant: VariantRow; currency: string; panel: PanelProps; onSaved: ProductRowsProps['onSaved'] }) {
  // What the owner edits from: the stock when the field was filled. A save names it, and the
  // server refuses the save when the variant no longer has it (another tab, another owner, a
  // sale since), instead of one write silently replacing the other.
  const [from, setFrom] = useState<StockReading>(() => readingOf(variant));
  const [value, setValue] = useState(variant.unlimited ? '' : String(variant.qtyInStock));
  const [unlimited, setUnlimited] = useState(variant.unlimited);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const unlimitedId = useId();
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);
  const unlimitedBox = useRef<HTMLInputElement>(null);

  /** Fills the field with `reading` and edits from it from now on. */
  const showReading = (reading: StockReading) => {
    setFrom(reading);
    setUnlimited(reading.unlimited);
    setValue(reading.unlimited ? '' : String(reading.qtyInStock));
  };

  // The list read again (after a save elsewhere in the table, a page change) brings a newer
  // reading: taken while the owner has not changed this field, kept out of an edit in progress.
  const edited = unlimited !== from.unlimited || (!unlimited && value !== String(from.qtyInStock));
  const latest = readingOf(variant);
  useEffect(() => {
    if (!edited && (latest.unlimited !== from.unlimited || latest.qtyInStock !== from.qtyInStock)) showReading(latest);
    // Only a new reading from the server starts this; the owner's typing never does.
  }, [latest.unlimited, latest.qtyInStock]);

  /** The field that holds the stock now: the count, or the Unlimited box when it is ticked. */
  const stockField = () => (unlimited ? unlimitedBox.current : input.current);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    // Enter in the field submits too: one save at a time (the button is only aria-disabled).
    if (busy) return;
    const qty = Number(value);
    if (!unlimited && (value.trim() === '' || !Number.isInteger(qty) || qty < 0 || qty > MAX_STOCK)) {
      // The seed's editor validator text for a value outside what the field takes.
      const text = formatEditorMessage('unexpectedOption', { val: value.trim() === '' ? 'An empty value' : value.trim() });
      setError(text.ok ? text.text : EDITOR_MESSAGES.somethingWentWrong);
      input.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    const url = `/api/commerce/inventory/stock/${encodeURIComponent(row.id)}/${encodeURIComponent(variant.id)}`;
    const change = unlimited ? { unlimited: true } : { qtyInStock: qty, unlimited: false };
    const result = await panel.api.send<{ result: StockReading }>('PUT', url, { ...change, expected: from });
    setBusy(false);
    if (result.ok) {
      showReading(readingOf(result.body.result));
      onSaved(row, variant, unlimited ? 'Unlimited' : String(qty), !from.unlimited && from.qtyInStock === 0 && (unlimited || qty > 0));
      // The saved field keeps the focus (the owner may go on to the next variant from here).
      stockField()?.focus();
      return;
    }
    if (result.code === API_ERROR.STOCK_CHANGED) {
      // Someone else's save (or a sale) came first: the field shows the stock as it is now and
      // the message says so and what was not saved; saving again is made from the new reading.
      const now = await panel.api.get<{ results: (StockReading & { variantId: string })[] }>(`/api/commerce/inventory/stock/?itemId=${encodeURIComponent(row.id)}`);
      const current = now.ok ? now.body.results.find((entry) => entry.variantId === variant.id) : undefined;
      if (current) showReading(readingOf(current));
      const mine = unlimited ? 'Unlimited' : String(qty);
      setError(current ? `Not saved: the stock changed to ${stockText(readingOf(current))} since you opened it (another tab or a sale). Your ${mine} was not saved; check it and save again.` : result.message);
      onSaved(row, variant, null);
    } else setError(result.message);
    stockField()?.focus();
  };

  const label = variant.label ? `${variant.label} (${variant.sku})` : variant.sku;
  return (
    <li data-variant-id={variant.id}>
      <form className="admin-stock-form" onSubmit={(event) => void save(event)} noValidate>
        <span className="admin-variant-name">{label}</span>
        <span className="admin-variant-price">
          <Price cents={variant.priceCents} regularCents={variant.regularPriceCents} currency={currency} />
        </span>
        <label htmlFor={inputId}>Stock for {variant.sku}</label>
        <input
          ref={input}
          id={inputId}
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_STOCK}
          step={1}
          value={unlimited ? '' : value}
          disabled={unlimited}
          placeholder={unlimited ? 'Unlimited' : undefined}
          onChange={(e) => setValue(e.target.value)}
          {...invalidAttrs(error && errorId)}
        />
        <span className="admin-switch">
          <input
            ref={unlimitedBox}
            id={unlimitedId}
            type="checkbox"
            checked={unlimited}
            onChange={(e) => {
              setUnlimited(e.target.checked);
              // Back to a count: the last count read, for the owner to change.
              if (!e.target.checked && value === '') setValue(String(from.qtyInStock));
            }}
            aria-describedby={error ? errorId : undefined}
          />
          <label htmlFor={unlimitedId}>
            Unlimited<span className="admin-visually-hidden"> for {variant.sku}</span>
          </label>
        </span>
        {/* Not disabled while saving: a disabled button drops the keyboard focus to the page. */}
        <button type="submit" aria-disabled={busy || undefined} onClick={(e) => busy && e.preventDefault()}>
          Save stock<span className="admin-visually-hidden"> for {variant.sku}</span>
        </button>
        {error ? (
          <p className="admin-field-error" id={errorId}>
            {error}
          </p>
        ) : null}
      </form>
    </li>
  );
}

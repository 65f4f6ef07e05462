// The admin inventory list's wire shape (GET /api/admin/inventory): written by
// renderer/admin/admin-routes.ts, read by hydrate/admin/inventory-panel.tsx. Prices are cents.

export interface InventoryVariantRow {
  id: string;
  sku: string;
  label: string;
  /** The price it sells at: the sale price when on sale. */
  priceCents: number;
  /** The regular price when a sale lowers it (shown struck through after "was"), else null. */
  regularPriceCents: number | null;
  qtyInStock: number;
  unlimited: boolean;
}

export interface InventoryProductRow {
  id: string;
  title: string;
  productType: number;
  /** Sum of the variants' stock; null when a variant is unlimited. */
  stockTotal: number | null;
  /** The lowest price a variant sells at; the price sort uses it. */
  priceCents: number;
  /** That variant's regular price when it is on sale, else null. */
  regularPriceCents: number | null;
  variants: InventoryVariantRow[];
}

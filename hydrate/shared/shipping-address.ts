/**
 * A shipping address as checkout sends it and an order keeps it (issue 15): one definition for
 * the checkout island (hydrate/runtime/checkout-form.ts) and the server (renderer/store/types.ts
 * re-exports it for orders and pricing).
 */
export interface ShippingAddress {
  firstName: string;
  lastName: string;
  line1: string;
  line2?: string;
  city: string;
  region: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** The address as the lines of a label: the receipt mail's "Ships to" and the admin's orders panel. */
export function addressLines(address: ShippingAddress | null | undefined): string[] {
  if (!address) return [];
  return [
    `${address.firstName} ${address.lastName}`,
    address.line1,
    ...(address.line2 ? [address.line2] : []),
    `${address.city}, ${address.region} ${address.postalCode}`,
    address.country,
  ];
}

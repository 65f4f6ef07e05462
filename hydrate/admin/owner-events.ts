import { createClankerTracker, type ClankerTracker } from '../platform/clanker-tracker.ts';

/**
 * The owner-side analytics events. Templates seed §2 knows the admin panels only by their
 * events, named by what they record (API keys panel: learn more, terms of use, create key,
 * delete key with confirm, the key-creation modal's copy, next, cancel and complete;
 * inventory panel: search, sort by name, stock or price, row click, row expander, next
 * page) without the literal strings, so these names are written here after those words.
 * They go out through the newer ("clanker") tracker as its schema name.
 */
export const OWNER_EVENTS = {
  apiKeys: {
    learnMore: 'api_keys_panel_learn_more',
    termsOfUse: 'api_keys_panel_terms_of_use',
    createKey: 'api_keys_panel_create_key',
    deleteKey: 'api_keys_panel_delete_key',
    deleteKeyConfirm: 'api_keys_panel_delete_key_confirm',
    modalCopy: 'api_keys_creation_modal_copy',
    modalNext: 'api_keys_creation_modal_next',
    modalCancel: 'api_keys_creation_modal_cancel',
    modalComplete: 'api_keys_creation_modal_complete',
  },
  inventory: {
    search: 'inventory_panel_search',
    sortName: 'inventory_panel_sort_name',
    sortStock: 'inventory_panel_sort_stock',
    sortPrice: 'inventory_panel_sort_price',
    rowClick: 'inventory_panel_row_click',
    rowExpander: 'inventory_panel_row_expander',
    nextPage: 'inventory_panel_next_page',
  },
} as const;

/** The seed's admin and commerce event fields (§3) an owner event may carry. */
export interface OwnerEventFields {
  website_id?: string | null;
  item_id?: string;
  item_title?: string;
  item_price?: number;
  item_quantity?: number;
  currency_code?: string;
  logged_in?: boolean;
}

export type TrackOwnerEvent = (name: string, fields?: OwnerEventFields) => void;

/** Sends owner events as JSON (XHR transport) to this origin; a failed send is only warned about by the tracker. */
export function createOwnerTracker(doc: Document): TrackOwnerEvent {
  const win = doc.defaultView as Window;
  // One id per admin page load: the owner is not a visitor, so no visitor cookie is written.
  const pageId = win.crypto.randomUUID();
  const tracker: ClankerTracker = createClankerTracker(
    { environment: 'prod', hosts: { staging: '', production: '' }, clientName: 'quire-admin', clientVersion: '1', transport: 'xhr', validate: false },
    {
      doc,
      page: { websiteId: null, websiteLocale: null, memberAccountId: null, memberAccountLocale: null, resolvedLocale: null },
      analyticsId: () => pageId,
      sessionId: () => pageId,
    },
  );
  return (name, fields = {}) => {
    tracker.track(name, { ...fields, logged_in: true }).catch(() => {});
  };
}

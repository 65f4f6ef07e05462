import { VARIANT_IMAGE_ATTR } from '../protocol/markers.ts';
import { SUBSCRIPTION_UNAVAILABLE, subscriptionPeriod, subscriptionPriceText, type SubscriptionPlanInput } from '../shared/subscription-period.ts';
import { cldrMoneyText, formatMoney, legacyMoneyHtml, toMinorUnits } from './money.ts';
import type { PageContext, VariantData } from './page-context.ts';
import { inScope, type Scope, type SelectionState } from './product-scope.ts';

/**
 * A3 updates of the product parts that belong to no island (price, status mark, scarcity,
 * variant images). They are plain DOM edits: the formatter markup of these parts is
 * static, and React never owned it.
 */
export interface ProductDisplay {
  update(state: SelectionState): void;
  /**
   * What `update` just showed, in words for a screen reader: the chosen values, the price and
   * the stock (`M, Red: $20.00, only 3 left`); '' while the choice is incomplete. A price and a
   * sold-out mark that change in place are not read out, so the island says them (WCAG 4.1.3).
   */
  said(state: SelectionState): string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The way `product-price` writes money on this page (PLUGINS §4.0 money string). */
function moneyHtml(node: unknown, context: PageContext): string {
  return context.flags.useCLDRMoneyFormat ? escapeHtml(cldrMoneyText(node, context.websiteLocale)) : legacyMoneyHtml(node);
}

/**
 * A selected variant's price as `product-price` writes it. A subscribable product's price
 * carries its billing period (`$10.00 every 2 weeks`, PLUGINS `product-price`), or the seed's
 * `Unavailable` when its plan has no period this store can bill; `subscription` is the
 * product's plan then (undefined for a one-off purchase).
 */
export function variantPriceHtml(variant: VariantData, context: PageContext, subscription?: SubscriptionPlanInput | null): string {
  const text = (money: string): string => (subscription === undefined ? money : subscriptionPriceText(subscription, money));
  if (subscription !== undefined && !subscriptionPeriod(subscription).ok) return SUBSCRIPTION_UNAVAILABLE;
  const price = text(moneyHtml(variant.priceMoney, context));
  if (variant.onSale) {
    const sale = text(moneyHtml(variant.salePriceMoney, context));
    return (
      `<span class="visually-hidden v6-visually-hidden">Sale Price:</span>${sale} ` +
      `<span class="visually-hidden v6-visually-hidden">Original Price:</span><span class="original-price">${price}</span>`
    );
  }
  return price;
}

/**
 * The price `variantPriceHtml` shows, as words with the currency: the legacy money string
 * leaves the symbol to the site's CSS, which a live region's text does not carry.
 */
export function variantPriceWords(variant: VariantData, context: PageContext, subscription?: SubscriptionPlanInput | null): string {
  if (subscription !== undefined && !subscriptionPeriod(subscription).ok) return SUBSCRIPTION_UNAVAILABLE;
  const money = (node: unknown): string => {
    const text = context.flags.useCLDRMoneyFormat ? cldrMoneyText(node, context.websiteLocale) : formatMoney(toMinorUnits(node).cents, toMinorUnits(node).currency);
    return subscription === undefined ? text : subscriptionPriceText(subscription, text);
  };
  return variant.onSale ? `${money(variant.salePriceMoney)}, was ${money(variant.priceMoney)}` : money(variant.priceMoney);
}

/** PLUGINS `product-status`: sold-out text is htmlattr-escaped (quotes included). */
function escapeAttrText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function sameAttributes(json: string | null, wanted: Record<string, string>): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? 'null');
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null) return false;
  const have = parsed as Record<string, unknown>;
  const keys = Object.keys(wanted);
  return keys.length === Object.keys(have).length && keys.every((k) => have[k] === wanted[k]);
}

/**
 * Theme-made status chips of a product that may sit outside its scope (the demo's "About the
 * product" section): a container `data-variant-badges-for="{id}"` holding chips marked
 * `data-variant-badge="on-sale" | "in-stock" | "sold-out"`, every kind written (the ones that
 * do not apply with `hidden`). Once a variant is chosen they follow it, as the sale mark does;
 * with none chosen they are as the server wrote them (issue 16).
 */
export const VARIANT_BADGES_ATTR = 'data-variant-badges-for';
export const VARIANT_BADGE_ATTR = 'data-variant-badge';

function badgeShown(kind: string | null, variant: VariantData, inStock: boolean): boolean | null {
  if (kind === 'on-sale') return inStock && variant.onSale === true;
  if (kind === 'in-stock') return inStock;
  if (kind === 'sold-out') return !inStock;
  return null;
}

export function createProductDisplay(scope: Scope, itemId: string, context: PageContext, customSoldOutText: string): ProductDisplay {
  // `product-price` output carries no item id: the scope is what ties it to this product.
  const prices = [...scope.querySelectorAll<HTMLElement>('.product-price')];
  const originalPrices = prices.map((el) => el.innerHTML);
  const statusWrappers = inScope(scope, '.sf-product-status', itemId);
  const originalStatus = statusWrappers.map((el) => el.innerHTML);
  const scarcity = [...scope.querySelectorAll<HTMLElement>('.product-scarcity[data-variant-attributes]')];
  const images = [...scope.querySelectorAll<HTMLElement>(`[${VARIANT_IMAGE_ATTR}]`)];
  const page = (scope.ownerDocument ?? scope) as Document;
  const badges = inScope(page, '', itemId, VARIANT_BADGES_ATTR).flatMap((box) => [...box.querySelectorAll<HTMLElement>(`[${VARIANT_BADGE_ATTR}]`)]);
  const serverHidden = badges.map((badge) => badge.hidden);
  let lastSku: string | null = null;
  const soldOutText = customSoldOutText || 'sold out';
  const product = context.products[itemId];
  const subscription = product?.isSubscribable ? product.subscriptionPlan : undefined;

  const words = (el: Element | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

  return {
    said(state) {
      const variant = state.selectedVariant;
      if (!variant) return '';
      const chosen = Object.values(variant.attributes ?? {}).join(', ');
      const stock = state.inStock ? words(scarcity.find((el) => !el.hidden)) || 'in stock' : soldOutText;
      let price = '';
      try {
        price = variantPriceWords(variant, context, subscription);
      } catch {
        // An amount formatMoney refuses (too many digits): the stock is still said.
      }
      return [chosen, [price, stock].filter(Boolean).join(', ')].filter(Boolean).join(': ');
    },
    update(state) {
      const variant = state.selectedVariant;
      prices.forEach((el, i) => {
        el.innerHTML = variant ? variantPriceHtml(variant, context, subscription) : originalPrices[i]!;
      });
      statusWrappers.forEach((wrapper, i) => {
        wrapper.innerHTML = originalStatus[i]!;
        if (!variant) return;
        if (state.inStock) {
          // The sale mark follows the chosen variant (issue 16): a product on sale through one
          // variant must not show `sale` while a full-price variant is chosen, and the reverse.
          const sale = wrapper.querySelector('.product-mark.sale');
          if (variant.onSale !== true) sale?.remove();
          else if (!wrapper.querySelector('.product-mark')) wrapper.insertAdjacentHTML('beforeend', '<div class="product-mark sale">sale</div>');
          return;
        }
        const mark = wrapper.querySelector('.product-mark');
        if (mark) {
          mark.className = 'product-mark sold-out';
          mark.textContent = soldOutText;
        } else {
          wrapper.insertAdjacentHTML('beforeend', `<div class="product-mark sold-out">${escapeAttrText(soldOutText)}</div>`);
        }
      });
      badges.forEach((badge, i) => {
        const shown = variant ? badgeShown(badge.getAttribute(VARIANT_BADGE_ATTR), variant, state.inStock) : null;
        badge.hidden = shown === null ? serverHidden[i]! : !shown;
      });
      if (variant) {
        const wanted = variant.attributes ?? {};
        for (const el of scarcity) {
          el.toggleAttribute('hidden', !sameAttributes(el.getAttribute('data-variant-attributes'), wanted));
        }
      } else {
        for (const el of scarcity) el.setAttribute('hidden', '');
      }
      const sku = variant && typeof variant.sku === 'string' ? variant.sku : null;
      if (sku !== null && sku !== lastSku) {
        const next = images.filter((img) => img.getAttribute(VARIANT_IMAGE_ATTR) === sku);
        if (next.length > 0) {
          for (const img of images) img.toggleAttribute('hidden', !next.includes(img));
          lastSku = sku;
        }
      }
    },
  };
}

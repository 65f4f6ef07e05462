/**
 * Test-only stand-in for the commerce formatters' output, byte for byte as PLUGINS.md §4
 * describes it (leading newlines included). Islands tests hydrate this markup until the
 * engine's formatters exist; it is never imported by production code.
 */
type Json = Record<string, any>;

export function htmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** PLUGINS `htmlattr` / `htmltag`: & < > " escaped, apostrophes untouched. */
export function attrEscape(text: string): string {
  return htmlEscape(text).replace(/"/g, '&quot;');
}

/** PLUGINS `json`: compact, then every `</` becomes `<\/`. */
export function compactJson(value: unknown): string {
  return JSON.stringify(value).replace(/<\//gi, (m) => `${m[0]}\\/`);
}

function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

function truthy(value: unknown): boolean {
  if (typeof value === 'string') return value !== '' && value !== 'false';
  return !!value;
}

function productType(item: Json): number {
  const n = Number(item.structuredContent?.productType ?? 0);
  return [1, 2, 3, 4].includes(n) ? n : -1;
}

function isSubscribable(item: Json): boolean {
  const v = item.structuredContent?.isSubscribable;
  return v === true || v === 'true';
}

export function addToCartBtn(item: Json, localizedStrings: Json = {}): string {
  const sc = item.structuredContent ?? {};
  const useForm = truthy(sc.additionalFieldsFormId) && truthy(sc.additionalFieldsForm);
  const subscribable = isSubscribable(item);
  let label: string;
  if (truthy(sc.useCustomAddButtonText) && truthy(sc.customAddButtonText)) label = text(sc.customAddButtonText);
  else if (subscribable) label = text(localizedStrings.productSubscribeText) || 'Subscribe';
  else label = text(localizedStrings.productAddToCartText) || 'Add To Cart';
  let tag =
    `<div class="sqs-add-to-cart-button sqs-suppress-edit-mode sqs-editable-button sqs-button-element--primary ${useForm ? 'use-form' : ''}"` +
    ` role="button" tabindex="0" data-dynamic-strings data-collection-id="${text(item.collectionId)}" data-item-id="${text(item.id)}"` +
    ` data-product-type="${text(sc.productType)}" data-use-custom-label="${text(sc.useCustomAddButtonText)}"`;
  if (truthy(sc.isSubscribable)) tag += ` data-is-subscription="${text(sc.isSubscribable)}" `;
  else tag += ' ';
  tag += `data-original-label="${attrEscape(label)}" `;
  if (useForm) tag += `data-form="${attrEscape(compactJson(sc.additionalFieldsForm))}"`;
  const options = sc.productSubscriptionOptions;
  if (Array.isArray(options) && options.length > 0 && subscribable) tag += `data-subscription-option-id="${text(options[0]?.id)}"`;
  tag += '>';
  return (
    '\n'.repeat(13) +
    '<div class="sqs-add-to-cart-button-wrapper" data-animation-role="button">\n  ' +
    tag +
    `\n    <div class="sqs-add-to-cart-button-inner">${attrEscape(label)}</div>\n  </div>\n</div>`
  );
}

export function variantsSelect(item: Json, localizedStrings: Json = {}): string {
  const sc = item.structuredContent ?? {};
  const variants: Json[] = Array.isArray(sc.variants) ? sc.variants : [];
  if (variants.length <= 1) return '';
  const giftCard = productType(item) === 4;
  const ordering: string[] = Array.isArray(sc.variantOptionOrdering) ? sc.variantOptionOrdering : [];
  let out = '\n  \n  \n  \n  \n\n  ';
  out += `<div class="product-variants" data-item-id="${text(item.id)}" data-variants="${attrEscape(compactJson(variants))}"`;
  if (isSubscribable(item)) {
    out += ` data-is-subscribable="true" data-subscription-plan="${attrEscape(compactJson(sc.subscriptionPlan ?? null))}"`;
  }
  out += ' data-animation-role="content">';
  for (const name of ordering) {
    const values: string[] = [];
    for (const v of variants) {
      const value = v.attributes?.[name];
      if (value !== undefined && !values.includes(String(value))) values.push(String(value));
    }
    const display = giftCard ? text(localizedStrings.giftCardValueDisplayText) || 'Value' : name;
    const select = giftCard
      ? text(localizedStrings.giftCardVariantSelectText) || 'Select Value'
      : (text(localizedStrings.productVariantSelectText) || 'Select {variantName}').replace('{variantName}', name);
    const n = attrEscape(name);
    out += `\n    <div class="variant-option">`;
    out += `\n    <div class="variant-option-title">${attrEscape(display)}: </div>`;
    out += `\n    <div class="variant-select-wrapper">`;
    out += `\n      <select aria-label="${select}" data-variant-option-name="${n}">`;
    out += `\n        <option value="">${attrEscape(select)}</option>`;
    out += `\n        ${values.map((v) => `<option value="${attrEscape(v)}">${attrEscape(v)}</option>`).join('')}`;
    out += `\n      </select>`;
    out += `\n    </div>`;
    out += `\n    <div class="variant-radiobtn-wrapper" data-variant-option-name="${n}">`;
    for (const v of values) {
      const e = attrEscape(v);
      out += `\n      <input type="radio" class="variant-radiobtn" value="${e}" name="variant-option-${n}" id="variant-option-${n}-${e}"/>`;
      out += `\n      <label class="sqs-button-element--secondary" role="button" tabindex="0" for="variant-option-${n}-${e}">${e}</label>`;
    }
    out += `\n    </div>`;
    out += `\n    </div>`;
  }
  out += '\n  </div>\n';
  return out;
}

export function totalStock(item: Json): number {
  const type = productType(item);
  if (type === 2 || type === 4) return Infinity;
  let sum = 0;
  for (const v of item.structuredContent?.variants ?? []) {
    if (truthy(v.unlimited)) return Infinity;
    if (Number.isInteger(v.qtyInStock)) sum += v.qtyInStock;
  }
  return sum;
}

export function quantityInput(item: Json, websiteSettings: Json = {}, localizedStrings: Json = {}): string {
  const type = productType(item);
  const allowed = websiteSettings.storeSettings?.multipleQuantityAllowedForServices;
  const serviceOk = allowed === undefined || allowed === null || allowed === true;
  if (!(type === 1 || (type === 3 && serviceOk)) || isSubscribable(item) || !(totalStock(item) > 1)) return '';
  const label = text(localizedStrings.productQuantityInputLabel) || 'Quantity';
  return (
    `\n\n\n<div class="product-quantity-input" data-item-id="${text(item.id)}" data-animation-role="content">` +
    `\n  <div class="quantity-label">${label}:</div>` +
    `\n  <input aria-label="${label}" size="4" max="9999" min="1" value="1" type="number" step="1"></input>` +
    '\n</div>'
  );
}

export function restockNotification(item: Json, merchandising: Json, captchaSiteKey: string | null): string {
  const views: Json[] = merchandising.restockNotificationViews ?? [];
  const messages: Json = merchandising.restockNotificationMessages ?? {};
  let out = '\n'.repeat(6);
  for (const view of views) {
    out += `\n<div class="product-restock-notification" data-product-id="${text(item.id)}" data-variant-id="${text(view.variantId)}"${truthy(view.hiddenByDefault) ? ' hidden' : ''}>`;
    out += `\n  <span class="product-restock-cta">${attrEscape(text(messages.CTAText))}</span>`;
    out += `\n  <form class="product-restock-form" action="#">`;
    out += `\n    <input type="text" x-autocompletetype="email" spellcheck="false" name="email" placeholder="${attrEscape(text(messages.placeholderText))}">`;
    out += `\n    <input class="sqs-editable-button" type="submit" value="${attrEscape(text(messages.buttonText))}">`;
    out += `\n  </form>\n`;
    if (truthy(merchandising.mailingListSignUpEnabled)) {
      out += `  <label class="product-restock-mailing-list"><input type="checkbox" name="isJoinMailingList"${truthy(merchandising.mailingListOptInByDefault) ? ' checked' : ''}>${attrEscape(text(messages.mailingListDescription))}</label>`;
    }
    out += '\n';
    if (captchaSiteKey) out += '  <div class="captcha-container"></div>';
    out += '\n</div>\n';
  }
  return out;
}

/** `product-price` for a non-subscribable product in legacy money mode. */
export function productPriceLegacy(cents: string): string {
  return `\n\n\n<div class="product-price">\n<span class="sqs-money-native">${cents}</span>\n</div>`;
}

/** `product-status` output (sold-out / sale / nothing). */
export function productStatus(kind: 'sold-out' | 'sale' | null, soldOutText = 'sold out'): string {
  if (kind === 'sold-out') return `<div class="product-mark sold-out">${attrEscape(soldOutText)}</div>`;
  if (kind === 'sale') return '<div class="product-mark sale">sale</div>';
  return '';
}

/** `product-scarcity` per-variant views. */
export function productScarcity(views: Array<{ attributes: Json | null; qtyInStock: number }>, scarcityText: string): string {
  let out = '';
  for (const view of views) {
    const attrs = view.attributes ? ` data-variant-attributes="${attrEscape(compactJson(view.attributes))}" hidden` : '';
    out += `\n  <div class="product-scarcity"${attrs}>\n    ${attrEscape(scarcityText.replace('{qtyInStock}', String(view.qtyInStock)))}\n  </div>\n`;
  }
  return out;
}

/**
 * Undoes the restock island's deliberate changes to the formatter's markup once hydrated
 * (issue 16): its email input becomes `type="email"` with an id and `autocomplete`, preceded by
 * a label, and its form gets `novalidate` (the island, not the browser, checks the email).
 * Tests compare what is left with the formatter's bytes, so any other change fails.
 */
export function withoutRestockUpgrade(html: string): string {
  return html
    .replace(/<label class="product-restock-label" for="[^"]*">[^<]*<\/label>/g, '')
    .replace(/(<form class="product-restock-form" action="#") novalidate="">/g, '$1>')
    .replace(/<input type="email"((?:[^>"]|"[^"]*")*?) id="[^"]*" autocomplete="email">/g, '<input type="text"$1>');
}

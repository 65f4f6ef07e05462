// Commerce formatters (PLUGINS §4, legacy money §15.1, CLDR-vs-legacy choice §15.4).
// Product facts come from the shared helpers of §4.0 (util/product.ts). Markup-producing
// formatters run built-in JSON-T templates (formatters/templates/); they compute in
// TypeScript only what the reference's formatters compute before running their template
// (labels of private templates, price strings, option lists), so the page-context lookups
// of non-private templates behave as in the reference.
//
// None of these formatters validates its arguments in the reference: extra arguments are
// accepted and ignored (PLUGINS §3.4 "formatters without a validator").

import {
  asDouble,
  asLong,
  asBoolean,
  isNumber,
  isObject,
  isTruthy,
  JavaError,
  member,
  textOf,
  textOrEmpty,
  TEXT_PER_STEP,
  type BindContext,
  type FormatterSpec,
  type JsonObject,
  type Node,
  type PluginContext,
  type Ref,
  type TemplateHandle,
  type Value,
} from '../engine/plugin-api.ts';
import { formatMoney, plainPattern } from './i18n.ts';
import { cldrFor, currencyOptions } from './util/cldr.ts';
import { escapeHtmlAttr } from './util/escape-html.ts';
import { CurrencySite } from './util/number-plan.ts';
import { printed, printedTemplateFormatter, type PrintedBound } from './util/printed-template.ts';
import {
  formatCents,
  formatCentsText,
  formatCentsValue,
  formatDouble,
  moneyNativeSpan,
  PERCENT_PATTERN,
  PERCENT_TRIM_PATTERN,
  USD_PATTERN,
} from './util/money-legacy.ts';
import {
  element,
  field,
  hasVariedPrices,
  highestPrice,
  isOnSale,
  isSoldOut,
  isSubscribable,
  legacyCents,
  legacyCentsText,
  lowestPrice,
  lowestPricedVariant,
  priceFigures,
  moneyNode,
  ProductType,
  productType,
  readMoney,
  salePrice,
  structuredContent,
  totalStockRemaining,
  variants,
  type Money,
} from './util/product.ts';
import { ADD_TO_CART_BTN_TEMPLATE } from './templates/add-to-cart-btn.ts';
import { PRODUCT_CHECKOUT_TEMPLATE } from './templates/product-checkout.ts';
import { PRODUCT_PRICE_TEMPLATE } from './templates/product-price.ts';
import { PRODUCT_RESTOCK_NOTIFICATION_TEMPLATE } from './templates/product-restock-notification.ts';
import { PRODUCT_SCARCITY_TEMPLATE } from './templates/product-scarcity.ts';
import { QUANTITY_INPUT_TEMPLATE } from './templates/quantity-input.ts';
import { SUBSCRIPTION_PRICE_TEMPLATE } from './templates/subscription-price.ts';
import { SUMMARY_FORM_FIELD_ADDRESS_TEMPLATE } from './templates/summary-form-field-address.ts';
import { SUMMARY_FORM_FIELD_CHECKBOX_TEMPLATE } from './templates/summary-form-field-checkbox.ts';
import { SUMMARY_FORM_FIELD_DATE_TEMPLATE } from './templates/summary-form-field-date.ts';
import { SUMMARY_FORM_FIELD_LIKERT_TEMPLATE } from './templates/summary-form-field-likert.ts';
import { SUMMARY_FORM_FIELD_NAME_TEMPLATE } from './templates/summary-form-field-name.ts';
import { SUMMARY_FORM_FIELD_PHONE_TEMPLATE } from './templates/summary-form-field-phone.ts';
import { SUMMARY_FORM_FIELD_TIME_TEMPLATE } from './templates/summary-form-field-time.ts';
import { VARIANTS_SELECT_TEMPLATE } from './templates/variants-select.ts';

// ---- context inputs -------------------------------------------------------------------

/** References resolved from the formatter's scope outward (PLUGINS §1.3, §1.7). */
interface ContextRefs {
  readonly localizedStrings: Ref | null;
  readonly merchandising: Ref | null;
}

function contextRefs(ctx: BindContext): ContextRefs {
  return {
    localizedStrings: ctx.parseRef('localizedStrings'),
    merchandising: ctx.parseRef('productMerchandisingContext'),
  };
}

function resolve(ctx: PluginContext, ref: Ref | null): Value {
  return ref === null ? undefined : ctx.resolve(ref);
}

/** A localized string, or the English fallback when it is absent or empty. */
function localized(strings: Value, key: string, fallback: string): string {
  const text = textOrEmpty(field(strings, key));
  return text.length > 0 ? text : fallback;
}

/** The product's entry in `productMerchandisingContext`, keyed by the product id's text. */
function merchandisingEntry(ctx: PluginContext, refs: ContextRefs, id: Value): Value {
  return field(resolve(ctx, refs.merchandising), textOf(id));
}

function requireId(item: Value): Value {
  const id = field(item, 'id');
  // The reference dereferences the id node unconditionally.
  if (id === undefined) throw new JavaError('NullPointerException', 'null');
  return id;
}

/** Drops unset members, so a private template sees them as missing. */
function view(members: { [key: string]: Value }): JsonObject {
  const out: JsonObject = {};
  for (const key in members) {
    const v = members[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

// ---- simple formatters ----------------------------------------------------------------

/** A formatter of its value alone: it never reads the context, so it is called without a frame (`pure`). */
function simple(name: string, apply: (value: Value) => Value): FormatterSpec<undefined> {
  return { name, pure: true, apply: (value) => apply(value) };
}

function cartQuantity(cart: Value): string {
  const entries = field(cart, 'entries');
  // Jackson iterates an object's values as it iterates an array's elements.
  const list: readonly Value[] = Array.isArray(entries) ? entries : isObject(entries) ? Object.values(entries) : [];
  let total = 0;
  for (const entry of list) {
    const quantity = field(entry, 'quantity');
    if (quantity === undefined) throw new JavaError('NullPointerException', 'null');
    if (isNumber(quantity)) total += asLong(quantity);
  }
  return '<span class="sqs-cart-quantity">' + total + '</span>';
}

function cartSubtotal(cart: Value): string {
  const text = textOf(field(cart, 'subtotalCents'));
  return '<span class="sqs-cart-subtotal">' + moneyNativeSpan(formatCentsText(text)) + '</span>';
}

function variantDescriptor(variant: Value): string {
  const values = field(variant, 'optionValues');
  if (!Array.isArray(values)) return '';
  let out = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ' / ';
    out += textOf(field(values[i], 'value'));
  }
  return out;
}

const percentageFormat: FormatterSpec<{ trim: boolean }> = {
  name: 'percentage-format',
  pure: true,
  bind: (args) => ({ trim: args[0] === 'trim' }),
  apply: (value, bound) => formatDouble(asDouble(value), bound.trim ? PERCENT_TRIM_PATTERN : PERCENT_PATTERN),
};

// ---- product marks and links ----------------------------------------------------------

interface QuickViewBound {
  readonly group: string | undefined;
  readonly groupRef: Ref | null;
  readonly quickViewText: Ref | null;
}

const productQuickView: FormatterSpec<QuickViewBound> = {
  name: 'product-quick-view',
  bind: (args, ctx) => {
    const group = args[0];
    // The reference resolves the group as one undotted name; a dotted argument can only be
    // a member name, never a path.
    const groupRef = group !== undefined && group.indexOf('.') < 0 ? ctx.parseRef(group) : null;
    return { group, groupRef, quickViewText: ctx.parseRef('localizedStrings.productQuickViewText') };
  },
  apply: (item, bound, ctx) => {
    let group = '';
    if (bound.group !== undefined) {
      const own = field(item, bound.group);
      const resolved = own !== undefined ? own : resolve(ctx, bound.groupRef);
      group = resolved !== undefined ? textOf(resolved) : bound.group;
    }
    const label = textOrEmpty(resolve(ctx, bound.quickViewText));
    return (
      '<span class="sqs-product-quick-view-button" role="button" tabindex="0" data-id="' +
      textOrEmpty(field(item, 'id')) +
      '" data-group="' +
      group +
      '">' +
      (label.length > 0 ? label : 'Quick View') +
      '</span>'
    );
  },
};

const productStatus: FormatterSpec<ContextRefs> = {
  name: 'product-status',
  bind: (_args, ctx) => contextRefs(ctx),
  apply: (item, refs, ctx) => {
    if (isSoldOut(item)) {
      const strings = resolve(ctx, refs.localizedStrings);
      const custom = textOrEmpty(field(merchandisingEntry(ctx, refs, field(item, 'id')), 'customSoldOutText'));
      const text = custom.length > 0 ? custom : localized(strings, 'productSoldOutText', 'sold out');
      return '<div class="product-mark sold-out">' + escapeHtmlAttr(text) + '</div>';
    }
    if (isOnSale(item)) {
      const strings = resolve(ctx, refs.localizedStrings);
      return '<div class="product-mark sale">' + localized(strings, 'productSaleText', 'sale') + '</div>';
    }
    return undefined;
  },
};

// ---- template formatters: checkout ----------------------------------------------------

function templateFormatter(name: string, source: string): FormatterSpec<TemplateHandle> {
  return {
    name,
    bind: (_args, ctx) => ctx.compileTemplate(source),
    apply: (value, template, ctx) => ctx.runTemplate(template, value, false),
  };
}

// ---- add-to-cart-btn, printed in code (util/printed-template.ts) ---------------------------

const ADD_TO_CART_PATHS = [
  'structuredContent.useCustomAddButtonText',
  'structuredContent.customAddButtonText',
  'structuredContent.isSubscribable',
  'localizedStrings.productAddToCartText',
  'structuredContent.additionalFieldsFormId',
  'structuredContent.additionalFieldsForm',
  'collectionId',
  'id',
  'structuredContent.productType',
];
/** The instructions ADD_TO_CART_BTN_TEMPLATE charges by where its label comes from: measured, and held to the template by the tests. */
const ADD_TO_CART_STEPS_CUSTOM = 28;
const ADD_TO_CART_STEPS_PAGE = 30;
const ADD_TO_CART_STEPS_ENGLISH = 30;
/** Its 13 lines before the markup, once the source is trimmed, each print a newline. */
const ADD_TO_CART_OPEN =
  '\n'.repeat(13) +
  '<div class="sqs-add-to-cart-button-wrapper" data-animation-role="button">\n  <div class="sqs-add-to-cart-button sqs-suppress-edit-mode sqs-editable-button sqs-button-element--primary " role="button" tabindex="0" data-dynamic-strings data-collection-id="';

/**
 * `add-to-cart-btn` of a product that is not a subscription and has no additional-fields form
 * (the template prints those), whose label is a text shorter than `TEXT_PER_STEP` (a longer one
 * is charged as work by the label's formatters).
 */
function printAddToCart(refs: readonly Ref[], ctx: PluginContext): { text: string; steps: number } | undefined {
  if (isTruthy(ctx.resolve(refs[2]))) return undefined;
  if (isTruthy(ctx.resolve(refs[4])) && isTruthy(ctx.resolve(refs[5]))) return undefined;
  const useCustom = ctx.resolve(refs[0]);
  let label: Value;
  let steps: number;
  if (isTruthy(useCustom) && isTruthy(ctx.resolve(refs[1]))) {
    label = ctx.resolve(refs[1]);
    steps = ADD_TO_CART_STEPS_CUSTOM;
  } else {
    const page = ctx.resolve(refs[3]);
    if (isTruthy(page)) {
      label = page;
      steps = ADD_TO_CART_STEPS_PAGE;
    } else {
      label = 'Add To Cart';
      steps = ADD_TO_CART_STEPS_ENGLISH;
    }
  }
  if (typeof label !== 'string' || label.length >= TEXT_PER_STEP) return undefined;
  const escaped = escapeHtmlAttr(label);
  return {
    text:
      ADD_TO_CART_OPEN +
      printed(ctx.resolve(refs[6])) +
      '" data-item-id="' +
      printed(ctx.resolve(refs[7])) +
      '" data-product-type="' +
      printed(ctx.resolve(refs[8])) +
      '" data-use-custom-label="' +
      printed(useCustom) +
      '" data-original-label="' +
      escaped +
      '" >\n    <div class="sqs-add-to-cart-button-inner">' +
      escaped +
      '</div>\n  </div>\n</div>',
    steps,
  };
}

export function addToCartSpec(inCode: boolean): FormatterSpec<PrintedBound> {
  return printedTemplateFormatter('add-to-cart-btn', ADD_TO_CART_BTN_TEMPLATE, ADD_TO_CART_PATHS, printAddToCart, inCode);
}

interface QuantityBound {
  readonly template: TemplateHandle;
  readonly servicesAllowMultiple: Ref | null;
}

const quantityInput: FormatterSpec<QuantityBound> = {
  name: 'quantity-input',
  bind: (_args, ctx) => ({
    template: ctx.compileTemplate(QUANTITY_INPUT_TEMPLATE),
    servicesAllowMultiple: ctx.parseRef('websiteSettings.storeSettings.multipleQuantityAllowedForServices'),
  }),
  apply: (item, bound, ctx) => {
    const type = productType(item);
    let allowed = type === ProductType.PHYSICAL;
    if (type === ProductType.SERVICE) {
      const flag = resolve(ctx, bound.servicesAllowMultiple);
      allowed = flag === undefined || flag === null || asBoolean(flag);
    }
    if (!allowed || isSubscribable(item) || !(totalStockRemaining(item) > 1)) return undefined;
    return ctx.runTemplate(bound.template, item, false);
  },
};

interface TemplateWithRefs extends ContextRefs {
  readonly template: TemplateHandle;
}

/**
 * Each attribute name's distinct value texts, in variant order. One walk over the variants'
 * own attributes: looking every ordered name up in every variant, with a list search per
 * value, was quadratic in the number of variants (issue 13). Only own members can be found
 * by name (`field`), so names that no variant has get no entry.
 */
function attributeValues(all: readonly Value[]): Map<string, string[]> {
  // A Set keeps its first-insertion order: the distinct texts in variant order.
  const byName = new Map<string, Set<string>>();
  for (const variant of all) {
    const attributes = field(variant, 'attributes');
    if (!isObject(attributes)) continue;
    for (const name of Object.keys(attributes)) {
      const v = member(attributes, name);
      if (v === undefined || v === null) continue;
      let values = byName.get(name);
      if (values === undefined) byName.set(name, (values = new Set()));
      values.add(textOf(v));
    }
  }
  const out = new Map<string, string[]>();
  for (const [name, values] of byName) out.set(name, [...values]);
  return out;
}

const variantsSelect: FormatterSpec<TemplateWithRefs> = {
  name: 'variants-select',
  bind: (_args, ctx) => ({ localizedStrings: ctx.parseRef('localizedStrings'), merchandising: ctx.parseRef('productMerchandisingContext'), template: ctx.compileTemplate(VARIANTS_SELECT_TEMPLATE) }),
  apply: (item, bound, ctx) => {
    const all = variants(item);
    if (all.length <= 1) return undefined;
    const ordering = field(structuredContent(item), 'variantOptionOrdering');
    const options: Node[] = [];
    if (Array.isArray(ordering) && ordering.length > 0) {
      const byName = attributeValues(all);
      for (const nameNode of ordering) {
        const name = textOf(nameNode);
        options.push({ name, values: byName.get(name) ?? [] });
      }
    }
    const strings = resolve(ctx, bound.localizedStrings);
    const giftCard = productType(item) === ProductType.GIFT_CARD;
    const displayText = giftCard ? localized(strings, 'giftCardValueDisplayText', 'Value') : '{name}';
    const selectText = giftCard
      ? localized(strings, 'giftCardVariantSelectText', 'Select Value')
      : localized(strings, 'productVariantSelectText', 'Select {variantName}');
    const node = view({ item, options, displayText, selectText, subscribable: isSubscribable(item) });
    return ctx.runTemplate(bound.template, node, false);
  },
};

// ---- template formatters: merchandising -------------------------------------------------

interface RestockBound extends TemplateWithRefs {
  readonly captchaSiteKey: Ref | null;
}

const productRestockNotification: FormatterSpec<RestockBound> = {
  name: 'product-restock-notification',
  // The members written out: a spread of `contextRefs` followed by more members took ~1.2 µs
  // in Node 20 (V8's slow path for properties added to a spread copy), 70% of compiling
  // `{item|product-restock-notification}`.
  bind: (_args, ctx) => {
    const refs = contextRefs(ctx);
    return {
      localizedStrings: refs.localizedStrings,
      merchandising: refs.merchandising,
      template: ctx.compileTemplate(PRODUCT_RESTOCK_NOTIFICATION_TEMPLATE),
      captchaSiteKey: ctx.parseRef('website.captchaSettings.siteKey'),
    };
  },
  apply: (item, bound, ctx) => {
    const entry = merchandisingEntry(ctx, bound, requireId(item));
    const node = view({
      product: item,
      views: field(entry, 'restockNotificationViews'),
      messages: field(entry, 'restockNotificationMessages'),
      mailingListSignUpEnabled: field(entry, 'mailingListSignUpEnabled'),
      mailingListOptInByDefault: field(entry, 'mailingListOptInByDefault'),
      captchaSiteKey: resolve(ctx, bound.captchaSiteKey),
    });
    return ctx.runTemplate(bound.template, node, true);
  },
};

const productScarcity: FormatterSpec<TemplateWithRefs> = {
  name: 'product-scarcity',
  bind: (_args, ctx) => ({ localizedStrings: ctx.parseRef('localizedStrings'), merchandising: ctx.parseRef('productMerchandisingContext'), template: ctx.compileTemplate(PRODUCT_SCARCITY_TEMPLATE) }),
  apply: (item, bound, ctx) => {
    // Without merchandising data the reference leaves the variable as it was.
    const merchandising = resolve(ctx, bound.merchandising);
    if (merchandising === undefined) return item;
    const entry = field(merchandising, textOf(requireId(item)));
    if (entry === undefined) return item;
    const enabled = field(entry, 'scarcityEnabled');
    if (enabled === undefined) throw new JavaError('NullPointerException', 'null');
    if (!asBoolean(enabled)) return item;
    const node = view({
      scarcityTemplateViews: field(entry, 'scarcityTemplateViews'),
      scarcityText: field(entry, 'scarcityText'),
      scarcityShownByDefault: field(entry, 'scarcityShownByDefault'),
    });
    return ctx.runTemplate(bound.template, node, false);
  },
};

// ---- template formatters: prices ------------------------------------------------------

interface PriceBound extends TemplateWithRefs {
  readonly useCldr: Ref | null;
  /** The template's `money` call site, for `printedPrice`. */
  readonly money: CurrencySite;
}

function priceBinder(source: string): (args: string[], ctx: BindContext) => PriceBound {
  return (_args, ctx) => ({
    localizedStrings: ctx.parseRef('localizedStrings'),
    merchandising: ctx.parseRef('productMerchandisingContext'),
    template: ctx.compileTemplate(source),
    useCldr: ctx.parseRef('featureFlags.useCLDRMoneyFormat'),
    money: new CurrencySite(currencyOptions([])),
  });
}

/**
 * Sets `name` to the legacy money markup, or, in CLDR mode, `moneyName` (`<name>Money`,
 * spelled out by the caller: a key built per call is a new string to hash) to the money node
 * that the template hands to the `money` formatter.
 */
function setPrice(out: { [key: string]: Value }, name: string, moneyName: string, money: Money, cldr: boolean): void {
  if (cldr) out[moneyName] = moneyNode(money);
  else out[name] = moneyNativeSpan(formatCents(legacyCents(money)));
}

function capitalized(unit: string): string {
  const lower = unit.toLowerCase();
  return lower.length === 0 ? lower : lower[0].toUpperCase() + lower.slice(1);
}

const UNITS_PER_YEAR: ReadonlyMap<string, number> = new Map([
  ['WEEK', 52],
  ['MONTH', 12],
]);

/** The subscription variables of `product-price` (PLUGINS §4 product-price). */
function subscriptionPriceView(item: Value, strings: Value, cldr: boolean): { [key: string]: Value } {
  const out: { [key: string]: Value } = {};
  const plan = field(structuredContent(item), 'subscriptionPlan');
  const billingPeriod = field(plan, 'billingPeriod');
  if (billingPeriod === undefined) {
    out.formattedFromPrice = true;
    out.fromText = localized(strings, 'productPriceUnavailable', 'Unavailable');
    return out;
  }
  const value = asLong(field(billingPeriod, 'value'));
  const unit = textOf(field(billingPeriod, 'unit'));
  const cycles = asLong(field(plan, 'numBillingCycles'));
  let duration = value * cycles;
  let durationUnit = unit;
  const perYear = UNITS_PER_YEAR.get(unit);
  if (duration > 0 && perYear !== undefined && duration % perYear === 0) {
    duration /= perYear;
    durationUnit = 'YEAR';
  }
  const varied = hasVariedPrices(item);
  const key =
    'productPrice__' +
    (varied ? 'multiplePrices' : 'singlePrice') +
    '__' +
    (value === 1 ? '1' : 'n') +
    capitalized(unit) +
    'ly__' +
    (duration === 0 ? 'indefinite' : 'limited__' + (duration === 1 ? '1' : 'n') + capitalized(durationUnit) + 's');
  let english = (varied ? 'from ' : '') + '{price} every ' + (value > 1 ? '{billingPeriodValue} ' : '') + unit.toLowerCase() + (value > 1 ? 's' : '');
  if (cycles > 0) english += ' for {duration} ' + durationUnit.toLowerCase() + (duration === 1 ? '' : 's');
  const pattern = localized(strings, key, english);
  if (varied) {
    out.fromText = pattern;
    setPrice(out, 'formattedFromPrice', 'formattedFromPriceMoney', lowestPrice(item), cldr);
  }
  if (isOnSale(item)) {
    out.formattedSalePriceText = pattern;
    setPrice(out, 'formattedSalePrice', 'formattedSalePriceMoney', salePrice(item), cldr);
  }
  out.formattedNormalPriceText = pattern;
  setPrice(out, 'formattedNormalPrice', 'formattedNormalPriceMoney', highestPrice(item), cldr);
  out.billingPeriodValue = value;
  out.duration = duration;
  return out;
}

function productPriceView(item: Value, strings: Value, cldr: boolean): { [key: string]: Value } {
  if (isSubscribable(item)) return subscriptionPriceView(item, strings, cldr);
  const out: { [key: string]: Value } = {};
  if (productType(item) === ProductType.UNDEFINED) return out;
  const figures = priceFigures(item);
  if (figures.varied) {
    out.fromText = localized(strings, 'productPriceFromText', 'from {fromPrice}');
    setPrice(out, 'formattedFromPrice', 'formattedFromPriceMoney', figures.lowest, cldr);
  }
  if (figures.onSale) {
    out.formattedSalePriceText = '{price}';
    setPrice(out, 'formattedSalePrice', 'formattedSalePriceMoney', figures.sale, cldr);
  }
  out.formattedNormalPriceText = '{price}';
  setPrice(out, 'formattedNormalPrice', 'formattedNormalPriceMoney', figures.highest, cldr);
  return out;
}

/**
 * `product-price`. `inCode`: its view is printed here as its built-in template prints it
 * (`printedPrice`), and the template runs only where that declines. Running the template was
 * a quarter of the formatter over grid products (a frame, a capture, six `.var`s and `.if`s, a
 * `money` and a `message` through the instruction closures). The tests hold the two to one
 * another: output, errors and the limits they charge (product-price-in-code.test.ts).
 */
export function productPriceSpec(inCode: boolean): FormatterSpec<PriceBound> {
  return {
    name: 'product-price',
    bind: priceBinder(PRODUCT_PRICE_TEMPLATE),
    apply: (item, bound, ctx) => {
      const cldr = isTruthy(resolve(ctx, bound.useCldr));
      const members = productPriceView(item, resolve(ctx, bound.localizedStrings), cldr);
      if (inCode) {
        const text = printedPrice(members, bound.money, ctx);
        if (text !== undefined) return text;
      }
      return ctx.runTemplate(bound.template, view(members), true);
    },
  };
}

const productPrice = productPriceSpec(true);

// What PRODUCT_PRICE_TEMPLATE prints around and between its messages.
const PRICE_OPEN = '\n\n\n<div class="product-price">\n';
const PRICE_CLOSE = '\n</div>';
const SALE_PRICE = '<span class="visually-hidden v6-visually-hidden">Sale Price:</span>';
const ORIGINAL_PRICE = ' <span class="visually-hidden v6-visually-hidden">Original Price:</span><span class="original-price">';
/**
 * The instructions the template charges (engine/compile.ts, `body`): its top level, each
 * `.if …Money` that holds (its `.var …|money`), and the branch taken; measured, and held to the
 * template by the tests.
 */
const PRICE_STEPS_TOP = 11;
const PRICE_STEPS_MONEY = 2;
const PRICE_STEPS_FROM = 1;
const PRICE_STEPS_SALE = 6;
const PRICE_STEPS_NORMAL = 2;

/**
 * What the template prints of `members` (`productPriceView`'s), charging what it would
 * (`spend`); undefined when the template must run: a message the engine must print (not
 * `plainPattern`'s), no locale data, a `money` that throws (the template records the error),
 * or a limit it would pass.
 */
function printedPrice(members: { [key: string]: Value }, site: CurrencySite, ctx: PluginContext): string | undefined {
  if (cldrFor(ctx.locale) === null) return undefined;
  let made = 0;
  let steps = PRICE_STEPS_TOP;
  let from = members.formattedFromPrice;
  let sale = members.formattedSalePrice;
  let normal = members.formattedNormalPrice;
  try {
    if (isTruthy(members.formattedFromPriceMoney)) {
      from = formatMoney(members.formattedFromPriceMoney, site, ctx);
      steps += PRICE_STEPS_MONEY;
      if (typeof from === 'string') made += from.length;
    }
    if (isTruthy(members.formattedSalePriceMoney)) {
      sale = formatMoney(members.formattedSalePriceMoney, site, ctx);
      steps += PRICE_STEPS_MONEY;
      if (typeof sale === 'string') made += sale.length;
    }
    if (isTruthy(members.formattedNormalPriceMoney)) {
      normal = formatMoney(members.formattedNormalPriceMoney, site, ctx);
      steps += PRICE_STEPS_MONEY;
      if (typeof normal === 'string') made += normal.length;
    }
  } catch {
    return undefined;
  }
  let body: string | null;
  if (isTruthy(from)) {
    steps += PRICE_STEPS_FROM + patternWork(members.fromText);
    body = typeof members.fromText === 'string' ? plainPattern(members.fromText, fromArgument, from, members) : null;
    if (body !== null) body += '\n';
  } else if (isTruthy(sale)) {
    steps += PRICE_STEPS_SALE + patternWork(members.formattedSalePriceText) + patternWork(members.formattedNormalPriceText);
    const salePart = typeof members.formattedSalePriceText === 'string' ? plainPattern(members.formattedSalePriceText, priceArgument, sale, members) : null;
    const normalPart = typeof members.formattedNormalPriceText === 'string' ? plainPattern(members.formattedNormalPriceText, priceArgument, normal, members) : null;
    body = salePart === null || normalPart === null ? null : SALE_PRICE + salePart + ORIGINAL_PRICE + normalPart + '</span>\n';
  } else if (isTruthy(normal)) {
    steps += PRICE_STEPS_NORMAL + patternWork(members.formattedNormalPriceText);
    body = typeof members.formattedNormalPriceText === 'string' ? plainPattern(members.formattedNormalPriceText, priceArgument, normal, members) : null;
  } else body = '';
  if (body === null) return undefined;
  const text = PRICE_OPEN + body + PRICE_CLOSE;
  return ctx.spend(steps, made, text.length) ? text : undefined;
}

/** The instructions a formatter charges for its input text (engine/compile.ts, `countInput`). */
function patternWork(text: Value): number {
  return typeof text === 'string' && text.length >= TEXT_PER_STEP ? Math.floor(text.length / TEXT_PER_STEP) : 0;
}

function isName(text: string, from: number, to: number, name: string): boolean {
  return to - from === name.length && text.startsWith(name, from);
}

/** An argument of the template's `{…Text|message price:@x billingPeriodValue:billingPeriodValue duration:duration}`. */
function priceArgument(price: Value, members: { [key: string]: Value }, text: string, from: number, to: number): Value {
  if (isName(text, from, to, 'price')) return price;
  if (isName(text, from, to, 'billingPeriodValue')) return members.billingPeriodValue;
  if (isName(text, from, to, 'duration')) return members.duration;
  return undefined;
}

/** An argument of `{fromText|message fromPrice:@from price:@from …}`. */
function fromArgument(price: Value, members: { [key: string]: Value }, text: string, from: number, to: number): Value {
  return isName(text, from, to, 'fromPrice') ? price : priceArgument(price, members, text, from, to);
}

function effectiveOptionPrice(option: Value): Money {
  return readMoney(field(option, isTruthy(field(option, 'onSale')) ? 'salePriceMoney' : 'priceMoney'));
}

function subscriptionOptionsView(item: Value, strings: Value, cldr: boolean): { [key: string]: Value } {
  const out: { [key: string]: Value } = {};
  const type = productType(item);
  if (type !== ProductType.PHYSICAL && type !== ProductType.SERVICE) return out;
  const options = field(lowestPricedVariant(item), 'pricingOptions');
  const first = element(options, 0);
  if (first === undefined) return out;
  if (hasVariedPrices(item)) {
    out.fromText = localized(strings, 'productPriceFromText', 'from {fromPrice}');
    setPrice(out, 'formattedFromPrice', 'formattedFromPriceMoney', effectiveOptionPrice(first), cldr);
  }
  if (isTruthy(field(first, 'onSale'))) {
    out.formattedSubscriptionSalePriceText = '{price}';
    setPrice(out, 'formattedSubscriptionSalePrice', 'formattedSubscriptionSalePriceMoney', readMoney(field(first, 'salePriceMoney')), cldr);
  }
  out.formattedNormalSubscriptionPriceText = '{price}';
  setPrice(out, 'formattedNormalSubscriptionPrice', 'formattedNormalSubscriptionPriceMoney', readMoney(field(first, 'priceMoney')), cldr);
  return out;
}

const subscriptionPrice: FormatterSpec<PriceBound> = {
  name: 'subscription-price',
  bind: priceBinder(SUBSCRIPTION_PRICE_TEMPLATE),
  apply: (item, bound, ctx) => {
    const cldr = isTruthy(resolve(ctx, bound.useCldr));
    const node = view(subscriptionOptionsView(item, resolve(ctx, bound.localizedStrings), cldr));
    return ctx.runTemplate(bound.template, node, true);
  },
};

// ---- summary-form-field ---------------------------------------------------------------

interface SummaryBound {
  readonly localizedStrings: Ref | null;
  readonly templates: { readonly [type: string]: TemplateHandle };
  readonly likert: TemplateHandle;
}

const LIKERT_ANSWERS: { readonly [code: string]: { readonly key: string; readonly english: string } } = {
  '-2': { key: 'productAnswerMapStronglyDisagree', english: 'Strongly Disagree' },
  '-1': { key: 'productAnswerMapDisagree', english: 'Disagree' },
  '0': { key: 'productAnswerMapNeutral', english: 'Neutral' },
  '1': { key: 'productAnswerMapAgree', english: 'Agree' },
  '2': { key: 'productAnswerMapStronglyAgree', english: 'Strongly Agree' },
};

function likertRows(values: Value, strings: Value): Node[] {
  const rows: Node[] = [];
  if (!isObject(values)) return rows;
  for (const question of Object.keys(values)) {
    const code = textOf(member(values, question));
    const answer = Object.prototype.hasOwnProperty.call(LIKERT_ANSWERS, code) ? LIKERT_ANSWERS[code] : LIKERT_ANSWERS['0'];
    rows.push({ question, answer: localized(strings, answer.key, answer.english) });
  }
  return rows;
}

const summaryFormField: FormatterSpec<SummaryBound> = {
  name: 'summary-form-field',
  bind: (_args, ctx) => ({
    localizedStrings: ctx.parseRef('localizedStrings'),
    templates: {
      address: ctx.compileTemplate(SUMMARY_FORM_FIELD_ADDRESS_TEMPLATE),
      checkbox: ctx.compileTemplate(SUMMARY_FORM_FIELD_CHECKBOX_TEMPLATE),
      date: ctx.compileTemplate(SUMMARY_FORM_FIELD_DATE_TEMPLATE),
      name: ctx.compileTemplate(SUMMARY_FORM_FIELD_NAME_TEMPLATE),
      phone: ctx.compileTemplate(SUMMARY_FORM_FIELD_PHONE_TEMPLATE),
      time: ctx.compileTemplate(SUMMARY_FORM_FIELD_TIME_TEMPLATE),
    },
    likert: ctx.compileTemplate(SUMMARY_FORM_FIELD_LIKERT_TEMPLATE),
  }),
  apply: (formField, bound, ctx) => {
    const strings = resolve(ctx, bound.localizedStrings);
    const type = textOrEmpty(field(formField, 'type'));
    let text: string;
    if (type === 'likert') {
      const rows = likertRows(field(formField, 'values'), strings);
      text = ctx.runTemplate(bound.likert, { rows }, true);
    } else if (Object.prototype.hasOwnProperty.call(bound.templates, type)) {
      text = ctx.runTemplate(bound.templates[type], formField, true);
    } else {
      const value = field(formField, 'value');
      text = isTruthy(value) ? textOf(value) : '';
    }
    if (text.length === 0) text = localized(strings, 'productSummaryFormNoAnswerText', 'N/A');
    return (
      '<div style="font-size:11px; margin-top:3px">\n  <span style="font-weight:bold;">' +
      textOrEmpty(field(formField, 'rawTitle')) +
      ':</span> ' +
      text +
      '\n</div>'
    );
  },
};

// ---- the table --------------------------------------------------------------------------

function legacyMoneyFormat(name: string): FormatterSpec<undefined> {
  return simple(name, formatCentsValue);
}

export const commerceFormatters: FormatterSpec<any>[] = [
  addToCartSpec(true),
  simple('bookkeeper-money-format', (value) => formatDouble(asDouble(value) / 100, USD_PATTERN)),
  simple('cart-quantity', cartQuantity),
  simple('cart-subtotal', cartSubtotal),
  simple('cart-url', () => '/cart'),
  simple('from-price', (item) => legacyCentsText(lowestPrice(item))),
  legacyMoneyFormat('money-format'),
  legacyMoneyFormat('moneyFormat'),
  simple('money-string', (value) => moneyNativeSpan(formatCentsValue(value))),
  simple('normal-price', (item) => legacyCentsText(highestPrice(item))),
  percentageFormat,
  templateFormatter('product-checkout', PRODUCT_CHECKOUT_TEMPLATE),
  productPrice,
  productQuickView,
  productRestockNotification,
  productScarcity,
  productStatus,
  quantityInput,
  simple('sale-price', (item) => legacyCentsText(salePrice(item))),
  subscriptionPrice,
  summaryFormField,
  simple('variant-descriptor', variantDescriptor),
  variantsSelect,
];

import { Fragment, useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import {
  ADDRESS_FIELDS,
  addressErrors,
  addressOf,
  CARD_FIELDS,
  cardDigits,
  cardErrors,
  CHECKOUT_MESSAGES,
  CHECKOUT_PATH,
  contactErrors,
  controlIdOf,
  COUPON_INPUT_ID,
  couponsAlreadyShown,
  couponsLimitedMessage,
  EMAIL_FIELD,
  FIELD_ORDER,
  firstError,
  GIFT_CARD_CART_PATH,
  newIdempotencyKey,
  offlineTooLargeMessage,
  parseExpiry,
  PLACE_PATH,
  purchasedOrderUrl,
  pricingKey,
  QUOTE_PATH,
  readView,
  safeConfirmationUrl,
  settlesAttempt,
  shippingOptionId,
  splitServerErrors,
  type CheckoutView,
  type Errors,
  type ShippingAddress,
} from '../runtime/checkout-form.ts';
import { checkoutDraftKey, clearCheckoutDraft, readCheckoutDraft, writeCheckoutDraft, type CheckoutDraft } from '../runtime/checkout-draft.ts';
import { createStorageAccess } from '../platform/storage-access.ts';
import { announce, announcer, announcerHost, clearAttention, focusWithError } from '../runtime/announce.ts';
import { env } from '../runtime/env.ts';
import { errorMessage } from '../runtime/error-reporter.ts';
import { FieldView } from '../runtime/field-view.tsx';
import { collectForm, invalidAttrs } from '../runtime/form-fields.ts';
import { renderSnapshot, snapshotChildren, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { API_ERROR, hasApiError } from '../shared/api-error-codes.ts';
import { CHECKOUT_FIELD_TEXT, OFFLINE_LIMIT_CLASS, offlineLimitId } from '../shared/checkout-text.ts';
import { formatMoney } from '../shared/currency.ts';
import type { IslandDefinition } from './island.ts';

// The checkout page (page type 201, issue 15): contact, shipping address and method, coupons,
// totals and payment over the checkout API. The server's order summary stays until the API's
// view arrives, so the first render is the server markup and hydration cannot mismatch.

export type CheckoutKind = 'cart' | 'subscription' | 'gift-card';

interface Props {
  runtime: Runtime;
  container: HTMLElement;
  snapshot: SnapshotNode[];
  kind: CheckoutKind;
  cartToken: string;
  itemId: string;
  sku: string;
}

type Phase = 'loading' | 'ready' | 'placing' | 'done' | 'failed';

/**
 * Said when a quote shows the cart bought meanwhile (another tab placed the order) before this
 * tab tried to: the words of the place answer's 409 `CART_PURCHASED`, which says it otherwise.
 */
export const PURCHASED_TEXT = 'This cart has already been purchased.';
/** The link to that order's page, next to the message. */
export const PURCHASED_LINK_TEXT = 'View your order';

interface QuoteChange {
  shippingOptionId?: string | null;
  couponCodes?: string[];
  address?: ShippingAddress | null;
}

function Checkout({ runtime, container, snapshot, kind, cartToken: initialToken, itemId, sku }: Props): ReactNode {
  const [view, setView] = useState<CheckoutView | null>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState<string | null>(null);
  /** A failed quote's message, apart from the place answer's so a later quote clears only its own. */
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const [optionId, setOptionId] = useState<string | null>(null);
  const [providerId, setProviderId] = useState<string>('');
  const [coupons, setCoupons] = useState<string[]>([]);
  const [lineErrors, setLineErrors] = useState<Record<string, string>>({});
  const [quoting, setQuoting] = useState(false);
  /** The order page of this cart once the server says it is bought (by another tab): linked, never placed again. */
  const [purchased, setPurchased] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement | null>(null);
  const token = useRef(initialToken);
  // Current values for handlers that run between renders.
  const optionRef = useRef<string | null>(null);
  const couponsRef = useRef<string[]>([]);
  /** The codes the last view answered (applied or not): the server goes on checking these past its guess limit. */
  const shownCouponsRef = useRef<string[]>([]);
  /** Of those, the ones applied. */
  const appliedCouponsRef = useRef<string[]>([]);
  const addressRef = useRef<ShippingAddress | null>(null);
  const quoteSeq = useRef(0);
  const pricedFor = useRef<string | null>(null);
  /** One key per attempt: kept across retries of an unanswered attempt, dropped once one is answered. */
  const attemptKey = useRef<string | null>(null);
  const placing = useRef(false);
  /** What to focus once the render that shows an error has committed. */
  const focusNext = useRef<string | null>(null);
  /** How many fields the failure that sets focusNext found wrong: said with the focus when more than one. */
  const attentionCount = useRef(1);
  /** The entries kept from an earlier visit of this checkout in the tab (a reload): the form starts with them. */
  const draftKey = checkoutDraftKey(kind, initialToken, itemId, sku);
  // Refused storage is no news to the visitor: no warning, the draft just stays with the page.
  const [storage] = useState(() => createStorageAccess(runtime.doc.defaultView!, () => {}));
  const restored = useRef<CheckoutDraft | null>(null);
  /** Entries are kept once the earlier ones are restored: until then a render would write over them. */
  const draftLive = useRef(false);

  optionRef.current = optionId;
  couponsRef.current = coupons;

  useEffect(() => {
    container.setAttribute('data-checkout-state', phase);
  }, [container, phase]);

  useLayoutEffect(() => {
    const id = focusNext.current;
    if (!id) return;
    focusNext.current = null;
    const target = runtime.doc.getElementById(id);
    if (!target) return;
    // A wrong field that has focus already (Enter pressed in it) says its error aloud; one shown
    // as an alert says itself.
    const error =
      target.getAttribute('aria-invalid') === 'true'
        ? (target.getAttribute('aria-describedby') ?? '')
            .split(/\s+/)
            .map((ref) => runtime.doc.getElementById(ref))
            .filter((el) => el !== null && el.getAttribute('role') !== 'alert')
            .map((el) => el!.textContent?.trim() ?? '')
            .join(' ')
            .trim()
        : '';
    const count = attentionCount.current;
    attentionCount.current = 1;
    focusWithError(target, error, count);
  });
  // A live region is read only if it is in the page before its text changes (focusWithError).
  useEffect(() => {
    announcer(announcerHost(container));
  }, [container]);

  /** Shows a view and keeps the chosen option among its options (the first when it is gone). */
  function apply(next: CheckoutView): string | null {
    setView(next);
    const shown = [...next.validCoupons.map((c) => c.code), ...next.invalidCoupons.map((c) => c.code)];
    shownCouponsRef.current = shown;
    appliedCouponsRef.current = next.validCoupons.map((c) => c.code);
    setCoupons(shown);
    const ids = next.shippingOptions.map((o) => o.id);
    const chosen = [optionRef.current, next.selectedShippingOption].find((id) => id !== null && ids.includes(id)) ?? ids[0] ?? null;
    optionRef.current = chosen;
    setOptionId(chosen);
    setProviderId((current) => (next.paymentProviders.some((p) => p.id === current) ? current : (next.paymentProviders[0]?.id ?? '')));
    return chosen;
  }

  async function quote(change: QuoteChange = {}): Promise<void> {
    const seq = ++quoteSeq.current;
    const address = change.address !== undefined ? change.address : addressRef.current;
    const option = change.shippingOptionId !== undefined ? change.shippingOptionId : optionRef.current;
    const couponCodes = change.couponCodes ?? couponsRef.current;
    setQuoting(true);
    const result = await runtime.client.request('POST', QUOTE_PATH, {
      json: {
        cartToken: token.current,
        ...(address ? { shippingAddress: address } : {}),
        ...(option ? { shippingOptionId: option } : {}),
        couponCodes,
      },
    });
    if (seq !== quoteSeq.current) return; // a later change asked again; its answer wins
    setQuoting(false);
    const bought = result.ok ? purchasedOrderUrl(result.body) : null;
    if (bought) {
      // Placed from another tab meanwhile (this tab's place answered 409 CART_PURCHASED and
      // asked again, or a quote found it): the order's page is linked, and nothing is sent again.
      placing.current = true;
      clearCheckoutDraft(storage, draftKey);
      setPurchased(bought);
    }
    const limited = result.ok ? null : couponsLimitedMessage(result.status, result.body);
    // The codes the server still checks: those a view answered, else those it applied, else
    // none (a draft's codes after the server's window ended). Each try drops at least one.
    const kept = limited === null ? undefined : [shownCouponsRef.current, appliedCouponsRef.current, []].map((shown) => couponsAlreadyShown(couponCodes, shown)).find((codes) => codes.length < couponCodes.length);
    if (limited !== null && kept !== undefined) {
      // Too many unknown codes were tried from here (429, limit couponGuesses): the codes just
      // added are refused and dropped, said at the coupon field (the code back in it, to try
      // later), and the rest is priced again: the coupons applied before keep applying.
      const input = runtime.doc.getElementById(COUPON_INPUT_ID) as HTMLInputElement | null;
      const refused = couponCodes.filter((code) => !kept.includes(code));
      if (input && input.value.trim() === '' && refused[0] !== undefined) input.value = refused[0];
      setErrors((current) => ({ ...current, coupon: limited }));
      // Focus goes to the field when the visitor was at it; otherwise the refusal is only said.
      if (change.couponCodes !== undefined) focusNext.current = COUPON_INPUT_ID;
      else announce(announcerHost(container), limited);
      couponsRef.current = kept;
      setCoupons(kept);
      await quote({ address, shippingOptionId: option, couponCodes: kept });
      return;
    }
    const next = result.ok ? readView(result.body) : null;
    if (!next) {
      const { fields } = splitServerErrors(result.body);
      setErrors((current) => ({ ...current, ...fields }));
      setQuoteError(result.ok ? CHECKOUT_MESSAGES.unavailable : result.message);
      return;
    }
    setQuoteError(null);
    const chosen = apply(next);
    // The option the view priced is gone (a new address): price the one now chosen.
    if (chosen !== null && next.selectedShippingOption !== chosen) await quote({ shippingOptionId: chosen });
  }

  async function load(): Promise<void> {
    const draft = readCheckoutDraft(storage, draftKey);
    if (kind === 'gift-card' && token.current === '') {
      const made = await runtime.client.request('POST', GIFT_CARD_CART_PATH, { json: { itemId, sku } });
      const madeToken = made.ok ? (made.body as { cartToken?: unknown } | null)?.cartToken : undefined;
      if (typeof madeToken !== 'string') {
        setGeneral(made.ok ? CHECKOUT_MESSAGES.unavailable : made.message);
        setPhase('failed');
        return;
      }
      token.current = madeToken;
    }
    const result = await runtime.client.request('GET', `${CHECKOUT_PATH}?cartToken=${encodeURIComponent(token.current)}`);
    const purchased = result.ok ? purchasedOrderUrl(result.body) : null;
    if (purchased) {
      // Already bought (a second tab, the back button after paying): its order page, not a second order.
      clearCheckoutDraft(storage, draftKey);
      setPhase('done');
      env.navigate(purchased);
      return;
    }
    const loaded = result.ok ? readView(result.body) : null;
    if (!loaded) {
      setGeneral(result.ok ? CHECKOUT_MESSAGES.unavailable : result.message);
      setPhase('failed');
      return;
    }
    restored.current = draft;
    // A complete address kept from before a reload is priced at once, as if just entered.
    const typed = !loaded.shippingLocation && draft ? addressOf(draftFieldValues(draft)) : null;
    const draftAddress = typed && firstError(addressErrors(typed)) === null ? typed : null;
    const address = loaded.shippingLocation ?? draftAddress;
    if (address) {
      addressRef.current = address;
      pricedFor.current = pricingKey(address);
    }
    if (draft?.providerId) setProviderId(draft.providerId);
    setPhase('ready');
    let chosen = apply(loaded);
    const draftCoupons = draft && draft.couponCodes.length > 0 && loaded.validCoupons.length + loaded.invalidCoupons.length === 0 ? draft.couponCodes : null;
    if (draftAddress || draftCoupons) {
      if (draft?.shippingOptionId) {
        // The render before the quote's answer copies the state into the ref: both are set.
        chosen = optionRef.current = draft.shippingOptionId;
        setOptionId(chosen);
      }
      if (draftCoupons) couponsRef.current = draftCoupons;
      await quote({ address: draftAddress ?? undefined, shippingOptionId: chosen, couponCodes: draftCoupons ?? undefined });
    } else if (chosen !== null && loaded.selectedShippingOption !== chosen) await quote({ shippingOptionId: chosen });
    draftLive.current = true;
  }

  /** Keeps what the visitor has entered so far for this tab (checkout-draft.ts); never the card. */
  function saveDraft(): void {
    if (!draftLive.current || placing.current || !formRef.current) return;
    const entered = values();
    const address: CheckoutDraft['address'] = {};
    for (const { part, field } of ADDRESS_FIELDS) {
      const value = entered[field.id];
      if (typeof value === 'string') address[part] = value;
    }
    writeCheckoutDraft(storage, draftKey, { email: entered[EMAIL_FIELD.field.id] ?? '', address, shippingOptionId: optionRef.current, providerId, couponCodes: couponsRef.current });
  }

  useEffect(saveDraft, [optionId, coupons, providerId]);

  useEffect(() => {
    // Once per page: the view is loaded on mount, later changes ask for quotes.
    load().catch((err: unknown) => runtime.reporter.reportError('checkout_load', { message: errorMessage(err) }));
  }, []);

  const values = () => collectForm(formRef.current!, '') as Record<string, string>;

  /** Shipping and tax follow the address: a complete address whose priced parts changed is quoted again. */
  function addressChanged(): void {
    if (!view?.requiresShipping || !formRef.current) return;
    const address = addressOf(values());
    if (firstError(addressErrors(address)) !== null) return;
    const key = pricingKey(address);
    if (key === pricedFor.current) return;
    pricedFor.current = key;
    addressRef.current = address;
    void quote({ address });
  }

  function chooseOption(id: string): void {
    optionRef.current = id;
    setOptionId(id);
    setErrors(({ shippingOptionId: _, ...rest }) => rest);
    void quote({ shippingOptionId: id });
  }

  function applyCoupon(): void {
    const input = runtime.doc.getElementById(COUPON_INPUT_ID) as HTMLInputElement | null;
    const code = (input?.value ?? '').trim();
    const problem = code === '' ? CHECKOUT_MESSAGES.coupon : coupons.some((c) => c.toLowerCase() === code.toLowerCase()) ? CHECKOUT_MESSAGES.couponAdded : null;
    setErrors(({ coupon: _, ...rest }) => (problem ? { ...rest, coupon: problem } : rest));
    if (problem) {
      focusNext.current = COUPON_INPUT_ID;
      return;
    }
    if (input) input.value = '';
    const next = [...coupons, code];
    couponsRef.current = next;
    setCoupons(next);
    void quote({ couponCodes: next });
  }

  function removeCoupon(code: string): void {
    const next = coupons.filter((c) => c !== code);
    couponsRef.current = next;
    setCoupons(next);
    focusNext.current = COUPON_INPUT_ID;
    void quote({ couponCodes: next });
  }

  function showFailure(fields: Errors, message: string | null): void {
    setErrors(fields);
    setGeneral(message);
    attentionCount.current = Object.values(fields).filter((text) => text).length;
    focusNext.current = firstError(fields) ? controlIdOf(firstError(fields)!) : message ? 'sf-checkout-error' : null;
  }

  async function place(): Promise<void> {
    if (purchased) {
      // Bought in another tab: pressing Place order again says so, its order linked.
      showFailure({}, PURCHASED_TEXT);
      return;
    }
    if (!view || placing.current) return;
    const collected = values();
    const email = (collected[EMAIL_FIELD.field.id] ?? '').trim();
    const address = view.requiresShipping ? addressOf(collected) : null;
    const provider = view.paymentProviders.find((p) => p.id === providerId) ?? view.paymentProviders[0];
    const card = { cardNumber: collected[CARD_FIELDS[0]!.field.id] ?? '', expiry: collected[CARD_FIELDS[1]!.field.id] ?? '', cvc: collected[CARD_FIELDS[2]!.field.id] ?? '' };
    const found: Errors = {
      ...contactErrors(email, address),
      ...(view.requiresShipping && view.shippingOptions.length > 0 && !optionId ? { shippingOptionId: CHECKOUT_FIELD_TEXT.shippingOption } : {}),
      ...(provider?.kind === 'card' ? cardErrors(card, new Date()) : {}),
    };
    if (firstError(found)) {
      showFailure(found, null);
      return;
    }
    if (view.belowMinimum) {
      showFailure({}, view.minimumMessage ?? CHECKOUT_MESSAGES.unavailable);
      return;
    }
    // Said at the offline choice already; the server would refuse it (422 OFFLINE_ORDER_TOO_LARGE)
    // and still does: this only spares the round trip. A card pays for the same cart.
    const tooLarge = provider?.kind === 'offline' ? offlineTooLargeMessage(view) : null;
    if (tooLarge) {
      showFailure({}, tooLarge);
      return;
    }
    const expiry = parseExpiry(card.expiry);
    const payment =
      provider?.kind === 'card' && expiry
        ? { provider: provider.id, cardNumber: cardDigits(card.cardNumber), expMonth: expiry.expMonth, expYear: expiry.expYear, cvc: card.cvc.trim() }
        : { provider: provider?.id ?? 'manual' };
    attemptKey.current ??= newIdempotencyKey();
    placing.current = true;
    setPhase('placing');
    setErrors({});
    setGeneral(null);
    setQuoteError(null);
    setLineErrors({});
    const result = await runtime.client.request('POST', PLACE_PATH, {
      json: {
        cartToken: token.current,
        email,
        ...(address ? { shippingAddress: address } : {}),
        ...(view.requiresShipping && optionId ? { shippingOptionId: optionId } : {}),
        couponCodes: view.validCoupons.map((c) => c.code),
        payment,
        idempotencyKey: attemptKey.current,
        // What the summary shows: a cart changed in another tab since is refused, not charged.
        expectedTotalCents: view.grandTotalCents,
        // And the lines it lists: one tee swapped for another of its price changes no total.
        ...(view.linesKey ? { expectedLinesKey: view.linesKey } : {}),
      },
    });
    if (result.ok) {
      // `placing` stays set: the page is leaving, and another press must not send again.
      const body = result.body as { orderId?: unknown; confirmationUrl?: unknown } | null;
      const url = safeConfirmationUrl(body?.confirmationUrl) ?? (typeof body?.orderId === 'string' ? `/commerce/orders/${encodeURIComponent(body.orderId)}/confirmed` : null);
      clearCheckoutDraft(storage, draftKey);
      setPhase('done');
      if (url) env.navigate(url);
      return;
    }
    placing.current = false;
    if (settlesAttempt(result.status, result.body)) attemptKey.current = null;
    setPhase('ready');
    const { fields, other } = splitServerErrors(result.body);
    if (result.status === 402 && !fields.cardNumber) fields.cardNumber = result.message;
    if (hasApiError(result.body, API_ERROR.OUT_OF_STOCK, API_ERROR.ITEM_UNAVAILABLE)) {
      // Keyed by item: each line that cannot be had (short of stock, or removed from the
      // catalogue) says so, and the totals are asked again.
      const byItem = (result.body as { errors?: Record<string, unknown> }).errors ?? {};
      setLineErrors(Object.fromEntries(Object.entries(byItem).filter(([, m]) => typeof m === 'string')) as Record<string, string>);
    }
    const generalText = firstError(fields) && other.length === 0 && result.status !== 409 ? null : result.message;
    showFailure(fields, generalText);
    if (result.status === 409 || result.status === 422) void quote();
  }

  /**
   * A field corrected after Place order loses its error as the visitor types, by the same check
   * that found it (a declined card's number stays marked until it looks like a card again); the
   * count said goes quietly, and the other fields' errors are not said again.
   */
  const onInput = (event: FormEvent) => {
    const target = event.target as HTMLElement;
    const key = FIELD_ORDER.find((k) => k !== 'coupon' && k !== 'shippingOptionId' && controlIdOf(k) === target.id);
    if (!key || !errors[key] || !view) return;
    const collected = values();
    const card = { cardNumber: collected[CARD_FIELDS[0]!.field.id] ?? '', expiry: collected[CARD_FIELDS[1]!.field.id] ?? '', cvc: collected[CARD_FIELDS[2]!.field.id] ?? '' };
    const now: Errors = {
      ...contactErrors(collected[EMAIL_FIELD.field.id] ?? '', view.requiresShipping ? addressOf(collected) : null),
      ...cardErrors(card, new Date()),
    };
    if (now[key]) return;
    setErrors(({ [key]: _fixed, ...rest }) => rest);
    clearAttention(target);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    place().catch((err: unknown) => {
      placing.current = false;
      setPhase('ready');
      runtime.reporter.reportError('checkout_place', { message: errorMessage(err) });
    });
  };

  if (!view) {
    return (
      <>
        {renderSnapshot(snapshot)}
        {general ? (
          <p className="sf-checkout-error" id="sf-checkout-error" role="alert" tabIndex={-1}>
            {general}
          </p>
        ) : null}
      </>
    );
  }

  const money = (cents: number) => formatMoney(cents, view.currency);
  const provider = view.paymentProviders.find((p) => p.id === providerId) ?? view.paymentProviders[0];
  const busy = phase === 'placing' || phase === 'done';
  const initialAddress = view.shippingLocation ?? addressRef.current ?? restored.current?.address;
  const optionErrorId = 'sf-checkout-shipping-error';
  const couponErrorId = `${COUPON_INPUT_ID}-error`;
  const alertText = general ?? quoteError ?? (purchased ? PURCHASED_TEXT : null);
  // Too much stock to pay offline: said at each offline choice, tied to it by aria-describedby.
  const offlineLimitText = offlineTooLargeMessage(view);
  // The server's checkout markup draws the same <p> (templates' checkout, pages/page-types/checkout.ts):
  // shown before the island, it stays where it was when the form replaces the placeholder.
  const offlineLimit = (id: string) => (
    <p className={OFFLINE_LIMIT_CLASS} id={offlineLimitId(id)}>
      {offlineLimitText}
    </p>
  );
  const placeDescribedBy = offlineLimitText && provider?.kind === 'offline' ? offlineLimitId(provider.id) : undefined;

  return (
    <form className="sf-checkout-form" ref={formRef} noValidate onSubmit={onSubmit} onChange={saveDraft} onInput={onInput} aria-labelledby="sf-checkout-heading">
      <h2 id="sf-checkout-heading" className="visually-hidden">
        Checkout details
      </h2>
      {alertText ? (
        <p className="sf-checkout-error" id="sf-checkout-error" role="alert" tabIndex={-1}>
          {alertText}
          {purchased ? (
            <>
              {' '}
              <a className="sf-checkout-order-link" href={purchased}>
                {PURCHASED_LINK_TEXT}
              </a>
            </>
          ) : null}
        </p>
      ) : null}
      <div className="sf-checkout-main">
        <section className="sf-checkout-section" aria-labelledby="sf-checkout-contact-title">
          <h2 id="sf-checkout-contact-title">Contact</h2>
          <FieldView field={EMAIL_FIELD.field} error={errors.email} input={EMAIL_FIELD.input} initial={restored.current?.email || undefined} />
        </section>

        {view.requiresShipping ? (
          <section className="sf-checkout-section sf-checkout-address" aria-labelledby="sf-checkout-address-title" onBlur={addressChanged} onChange={(e) => (e.target as Element).tagName === 'SELECT' && addressChanged()}>
            <h2 id="sf-checkout-address-title">Shipping address</h2>
            {ADDRESS_FIELDS.map(({ key, part, field, input }) => (
              <FieldView key={field.id} field={field} error={errors[key]} input={input} initial={initialAddress?.[part] ?? (part === 'country' ? '' : undefined)} />
            ))}
          </section>
        ) : null}

        {view.requiresShipping ? (
          <fieldset className="sf-checkout-section sf-checkout-shipping" aria-busy={quoting}>
            <legend>Shipping method</legend>
            {errors.shippingOptionId ? (
              <div className="field-error" id={optionErrorId}>
                {errors.shippingOptionId}
              </div>
            ) : null}
            {view.shippingOptions.length === 0 ? (
              // Said as soon as the address is priced (it waited for Place order), once: a refused
              // placing says the same sentence as the field's error above.
              view.noShippingToAddress ? (
                errors.shippingOptionId ? null : (
                  <p className="sf-checkout-hint sf-checkout-no-shipping">
                    {CHECKOUT_FIELD_TEXT.noShippingToAddress}
                  </p>
                )
              ) : (
                <p className="sf-checkout-hint">Enter your shipping address to see the shipping options.</p>
              )
            ) : (
              view.shippingOptions.map((option, i) => (
                <label key={option.id} className="sf-checkout-option" htmlFor={shippingOptionId(i)}>
                  <input
                    {...invalidAttrs(errors.shippingOptionId && optionErrorId)}
                    id={shippingOptionId(i)}
                    type="radio"
                    name="shippingOptionId"
                    value={option.id}
                    checked={optionId === option.id}
                    onChange={() => chooseOption(option.id)}
                  />
                  <span className="sf-checkout-option-name">{option.name}</span>
                  <span className="sf-checkout-option-price">{option.costCents === 0 ? 'Free' : money(option.costCents)}</span>
                  {option.description ? <span className="sf-checkout-option-description">{option.description}</span> : null}
                </label>
              ))
            )}
          </fieldset>
        ) : null}

        <section className="sf-checkout-section sf-checkout-coupon" aria-labelledby="sf-checkout-coupon-title">
          <h2 id="sf-checkout-coupon-title">Coupon</h2>
          <div className="sf-field">
            {errors.coupon ? (
              // No alert: Apply sends focus to the code field, which reads it; Enter in the field
              // (focus stays) has it said by the status region (focusWithError, above). An alert
              // as well said it twice. The coupons' own list is a live region already.
              <div className="field-error" id={couponErrorId}>
                {errors.coupon}
              </div>
            ) : null}
            <label className="title" htmlFor={COUPON_INPUT_ID}>
              Coupon code
            </label>
            <div className="sf-checkout-coupon-row">
              <input
                {...invalidAttrs(errors.coupon && couponErrorId)}
                id={COUPON_INPUT_ID}
                name="couponCode"
                type="text"
                autoComplete="off"
                onKeyDown={(e: ReactKeyboardEvent) => {
                  // Enter here applies the coupon; it must not place the order.
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    applyCoupon();
                  }
                }}
              />
              <button type="button" className="sf-checkout-coupon-apply" onClick={applyCoupon}>
                Apply
              </button>
            </div>
          </div>
          {view.validCoupons.length + view.invalidCoupons.length > 0 ? (
            <ul className="sf-checkout-coupons" aria-live="polite">
              {view.validCoupons.map((c) => (
                <li key={`v-${c.code}`} className="sf-coupon sf-coupon-valid" data-coupon={c.code}>
                  <span className="sf-coupon-code">{c.code}</span> <span className="sf-coupon-status">Applied</span>
                  {c.description ? <span className="sf-coupon-description">{c.description}</span> : null}
                  <span className="sf-coupon-amount">-{money(c.discountCents)}</span>
                  <button type="button" className="sf-coupon-remove" aria-label={`Remove coupon ${c.code}`} onClick={() => removeCoupon(c.code)}>
                    Remove
                  </button>
                </li>
              ))}
              {view.invalidCoupons.map((c) => (
                <li key={`i-${c.code}`} className="sf-coupon sf-coupon-invalid" data-coupon={c.code}>
                  <span className="sf-coupon-code">{c.code}</span> <span className="sf-coupon-status">Not applied</span>
                  <span className="sf-coupon-description">{c.reason}</span>
                  <button type="button" className="sf-coupon-remove" aria-label={`Remove coupon ${c.code}`} onClick={() => removeCoupon(c.code)}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </section>

        <fieldset className="sf-checkout-section sf-checkout-payment">
          <legend>Payment</legend>
          {view.paymentProviders.length > 1
            ? view.paymentProviders.map((p) => {
                const limited = offlineLimitText !== null && p.kind === 'offline';
                return (
                  <Fragment key={p.id}>
                    <label className="sf-checkout-option" htmlFor={`sf-checkout-provider-${p.id}`}>
                      <input
                        id={`sf-checkout-provider-${p.id}`}
                        type="radio"
                        name="paymentProvider"
                        value={p.id}
                        checked={provider?.id === p.id}
                        onChange={() => setProviderId(p.id)}
                        aria-describedby={limited ? offlineLimitId(p.id) : undefined}
                      />
                      <span className="sf-checkout-option-name">{p.label}</span>
                    </label>
                    {limited ? offlineLimit(p.id) : null}
                  </Fragment>
                );
              })
            : null}
          {provider?.kind === 'card' ? (
            <div className="sf-checkout-card">
              {provider.id === 'test' ? (
                <p className="sf-checkout-hint">Test mode: no money moves. Pay with the test card 4242 4242 4242 4242, any future expiry and any CVC.</p>
              ) : null}
              {CARD_FIELDS.map(({ key, field, input }) => (
                <FieldView key={field.id} field={field} error={errors[key]} input={input} />
              ))}
            </div>
          ) : provider ? (
            <>
              <p className="sf-checkout-hint">No card needed now: your order is held until your payment arrives.</p>
              {/* The only way to pay: no choice to tie the sentence to, so it is said here and by Place order. */}
              {offlineLimitText && view.paymentProviders.length === 1 ? offlineLimit(provider.id) : null}
            </>
          ) : null}
        </fieldset>
      </div>

      <section className="sf-checkout-summary" aria-labelledby="sf-checkout-summary-title">
        <h2 id="sf-checkout-summary-title">Order summary</h2>
        <table className="sf-order-summary">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Qty</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {view.entries.map((entry, i) => (
              <tr key={`${entry.itemId}-${entry.sku}-${i}`} className="sf-order-line" data-item-id={entry.itemId}>
                <td>
                  {entry.productName}
                  {entry.variantLabel ? <span className="sf-order-variant"> {entry.variantLabel}</span> : null}
                  {entry.fieldValues && entry.fieldValues.length > 0 ? (
                    <dl className="sf-entry-fields">
                      {entry.fieldValues.map((field, at) => (
                        <div key={at} className="sf-entry-field">
                          <dt>{field.label}</dt> <dd>{field.value}</dd>
                        </div>
                      ))}
                    </dl>
                  ) : null}
                  {/* Said from the view before any press: Place order would only refuse it. */}
                  {lineErrors[entry.itemId] ?? entry.unavailable ? <span className="sf-order-line-error">{lineErrors[entry.itemId] ?? entry.unavailable}</span> : null}
                </td>
                <td>{entry.quantity}</td>
                <td>{money(entry.lineTotalCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="sf-checkout-totals" aria-busy={quoting}>
          <div>
            <dt>Subtotal</dt>
            <dd data-total="subtotal">{money(view.subtotalCents)}</dd>
          </div>
          {view.discountCents > 0 ? (
            <div>
              <dt>Discount</dt>
              <dd data-total="discount">-{money(view.discountCents)}</dd>
            </div>
          ) : null}
          {view.requiresShipping ? (
            <div>
              <dt>Shipping</dt>
              <dd data-total="shipping">{optionId ? money(view.shippingCostCents) : 'Calculated from your address'}</dd>
            </div>
          ) : null}
          <div>
            <dt>Tax{view.applicableTaxRules.length ? ` (${view.applicableTaxRules.map((r) => `${r.name} ${r.ratePercent}%`).join(', ')})` : ''}</dt>
            <dd data-total="tax">{money(view.taxCents)}</dd>
          </div>
          <div className="sf-checkout-grand-total">
            <dt>Total</dt>
            <dd data-total="grand">{money(view.grandTotalCents)}</dd>
          </div>
        </dl>
        {view.belowMinimum && view.minimumMessage ? (
          <p className="sf-checkout-minimum" role="status">
            {view.minimumMessage}
          </p>
        ) : null}
        <button type="submit" className="sf-checkout-place" aria-disabled={busy || purchased || view.belowMinimum ? true : undefined} aria-describedby={placeDescribedBy}>
          {busy ? CHECKOUT_MESSAGES.placing : CHECKOUT_MESSAGES.place}
        </button>
      </section>
    </form>
  );
}

/** A draft's address as the form's collected values (keyed by field id), for `addressOf`. */
function draftFieldValues(draft: CheckoutDraft): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { part, field } of ADDRESS_FIELDS) out[field.id] = draft.address[part] ?? '';
  return out;
}

export const checkoutIsland: IslandDefinition = {
  prepare(container, runtime) {
    const kind = container.getAttribute('data-checkout-kind');
    return (
      <Checkout
        runtime={runtime}
        container={container}
        snapshot={snapshotChildren(container)}
        kind={kind === 'subscription' || kind === 'gift-card' ? kind : 'cart'}
        cartToken={container.getAttribute('data-cart-token') ?? ''}
        itemId={container.getAttribute('data-item-id') ?? ''}
        sku={container.getAttribute('data-sku') ?? ''}
      />
    );
  },
};

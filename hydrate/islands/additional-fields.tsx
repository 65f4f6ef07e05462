import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { parseProps } from '../protocol/props.ts';
import { ALERT_TITLES, showAlert } from '../runtime/alert.ts';
import { announcer, announcerHost, clearAttention } from '../runtime/announce.ts';
import { ADD_MESSAGES } from '../runtime/add-validation.ts';
import { cartOfResult } from '../runtime/cart-store.ts';
import { holdPage } from '../runtime/dialog.ts';
import { env } from '../runtime/env.ts';
import { FieldView } from '../runtime/field-view.tsx';
import { isActivationKey, modalKey } from '../runtime/focus.ts';
import { collectForm, requiredError, type FieldValue, type FormDefinition } from '../runtime/form-fields.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { useFocusWithError } from '../runtime/use-focus-with-error.ts';
import type { FormFlow } from './add-to-cart.tsx';

export const SAVING_LABEL = 'Saving…';
export const SUBMIT_LABEL = 'Submit';

export function parseFormDefinition(text: string | null): FormDefinition | null {
  if (text === null) return null;
  const parsed = parseProps(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return null;
  const form = parsed.value as FormDefinition;
  return Array.isArray(form.fields) ? form : null;
}

/** A6 position: 50 px from the top when taller than the window, else vertically centred. */
export function lightboxMarginTop(contentHeight: number, innerHeight: number): number {
  return contentHeight > innerHeight ? 50 : Math.floor((innerHeight - contentHeight) / 2);
}

export interface LightboxOptions {
  runtime: Runtime;
  form: FormDefinition;
  opener: HTMLElement | null;
  initial?: Record<string, FieldValue>;
  /** Runs after a valid validate call; resolves to an error message to stay open, or null to close. */
  afterValidate?: (values: Record<string, FieldValue>) => Promise<string | null>;
}

interface LightboxProps extends LightboxOptions {
  onDone: (values: Record<string, FieldValue> | null) => void;
}

function Lightbox({ runtime, form, initial, afterValidate, onDone }: LightboxProps): ReactNode {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [saving, setSaving] = useState(false);
  const [marginTop, setMarginTop] = useState<number | null>(null);
  const formRef = useRef<HTMLFormElement | null>(null);
  const contentRef = useRef<HTMLDivElement | null>(null);
  const closeRef = useRef<HTMLDivElement | null>(null);

  const focusError = useFocusWithError();

  useLayoutEffect(() => {
    const content = contentRef.current!;
    setMarginTop(lightboxMarginTop(env.measure(content).height, runtime.win.innerHeight));
    closeRef.current?.focus();
    // The dialog's own status region, in place before a submit's count is said in it: a live
    // region is read only if it is in the page before its text changes (focusWithError).
    announcer(announcerHost(content));
  }, [runtime]);

  /**
   * Errors shown: focus goes to the first wrong field's first control, which is read with its
   * error, and with more than one the dialog says how many (as the site's other forms do). The
   * spec's step 4 only shows them; a keyboard or screen-reader visitor left on Submit would not
   * know where they are.
   */
  const showErrors = (found: Record<string, string>) => {
    setErrors(found);
    const wrong = form.fields.filter((field) => found[field.id]);
    if (wrong.length === 0) return;
    focusError(() => firstWrongControl(formRef.current, wrong[0].id), found[wrong[0].id], wrong.length);
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      modalKey(contentRef.current, event, () => onDone(null));
    };
    runtime.doc.addEventListener('keydown', onKey);
    return () => runtime.doc.removeEventListener('keydown', onKey);
  }, [runtime, onDone]);

  async function submit(): Promise<void> {
    if (saving) return;
    const values = collectForm(formRef.current!, runtime.win.location.search);
    const found: Record<string, string> = {};
    for (const field of form.fields) {
      const message = requiredError(field.type, field.required === true, values[field.id] ?? '');
      if (message) found[field.id] = message;
    }
    setFormError('');
    showErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    const result = await runtime.client.request('POST', `/api/rest/forms/validate/${encodeURIComponent(form.id)}`, { json: values });
    if (!result.ok) {
      const fieldErrors = (result.body as { errors?: unknown } | null)?.errors;
      if (result.status === 400 && typeof fieldErrors === 'object' && fieldErrors !== null) {
        showErrors(Object.fromEntries(Object.entries(fieldErrors).filter(([, v]) => typeof v === 'string')) as Record<string, string>);
      } else {
        setFormError(result.message);
      }
      setSaving(false);
      return;
    }
    if (afterValidate) {
      const problem = await afterValidate(values);
      if (problem !== null) {
        setSaving(false);
        return;
      }
    }
    onDone(values);
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit().catch((err: unknown) => {
      runtime.reporter.reportError('additional_fields_submit', { message: String(err) });
      setSaving(false);
    });
  };
  // Editing a field clears that field's error (A6 step 8).
  const onEdit = (event: FormEvent) => {
    const fieldId = (event.target as Element).closest?.('.sf-field')?.getAttribute('data-field-id');
    if (fieldId && errors[fieldId]) {
      const next = { ...errors };
      delete next[fieldId];
      setErrors(next);
      // The count said for the submit is no longer true; it goes quietly.
      clearAttention(event.target as HTMLElement);
    }
  };
  const onCloseKey = (event: ReactKeyboardEvent) => {
    if (isActivationKey(event)) {
      event.preventDefault();
      onDone(null);
    }
  };

  return (
    <>
      <div className="sf-lightbox-overlay" />
      <div className="sf-lightbox-content" ref={contentRef} style={marginTop === null ? undefined : { marginTop: `${marginTop}px` }}>
        <div className="sf-lightbox-close" role="button" tabIndex={0} aria-label="Close" ref={closeRef} onClick={() => onDone(null)} onKeyDown={onCloseKey}>
          ×
        </div>
        <h2 id="sf-lightbox-title">{form.name ?? ''}</h2>
        <form className="sf-additional-fields" noValidate ref={formRef} onSubmit={onSubmit} onInput={onEdit} onChange={onEdit}>
          <div className="sf-af-form-error" role="alert" hidden={formError === ''}>
            {formError}
          </div>
          {form.fields.map((field) => (
            <FieldView key={field.id} field={field} error={errors[field.id]} initial={initial?.[field.id]} />
          ))}
          <button type="submit" className="sf-af-submit" disabled={saving}>
            {saving ? SAVING_LABEL : SUBMIT_LABEL}
          </button>
        </form>
        {form.parsedDisclaimerMessage ? <div className="sf-af-disclaimer" dangerouslySetInnerHTML={{ __html: form.parsedDisclaimerMessage }} /> : null}
      </div>
    </>
  );
}

/** The first control of the field `fieldId` in the lightbox's form. */
export function firstWrongControl(form: HTMLFormElement | null, fieldId: string): HTMLElement | null {
  if (!form) return null;
  for (const field of form.querySelectorAll<HTMLElement>('.sf-field')) {
    if (field.getAttribute('data-field-id') !== fieldId) continue;
    return field.querySelector<HTMLElement>('input:not([type="hidden"]), select, textarea');
  }
  return null;
}

/** Opens the A6 lightbox; resolves with the values once valid, or null when closed. */
export function openLightbox(options: LightboxOptions): Promise<Record<string, FieldValue> | null> {
  const { runtime, opener } = options;
  const host = runtime.doc.createElement('div');
  host.className = 'sf-lightbox';
  host.setAttribute('role', 'dialog');
  host.setAttribute('aria-modal', 'true');
  host.setAttribute('aria-labelledby', 'sf-lightbox-title');
  runtime.doc.body.appendChild(host);
  const release = holdPage(runtime.doc);
  const root = createRoot(host);
  return new Promise((resolve) => {
    let done = false;
    const onDone = (values: Record<string, FieldValue> | null) => {
      if (done) return;
      done = true;
      // Deferred: unmounting synchronously inside this root's own event handler is not allowed.
      queueMicrotask(() => {
        root.unmount();
        host.remove();
        release();
        if (opener?.isConnected) opener.focus();
        resolve(values);
      });
    };
    flushSync(() => root.render(<Lightbox {...options} onDone={onDone} />));
  });
}

interface StockResult {
  sku?: string;
  variantId?: string;
  unlimited?: boolean;
  qtyInStock?: number;
}

/** A6 add flow (a), steps 2 to 6: stock check, lightbox, validate. */
export const runFormFlow: FormFlow = async ({ runtime, info, sku, opener, alertTitle }) => {
  const form = parseFormDefinition(info.formJson);
  if (!form) {
    showAlert({ title: ALERT_TITLES.openForm, message: ALERT_TITLES.openForm }, runtime.doc);
    return null;
  }
  const stock = await runtime.client.request('GET', `/api/commerce/inventory/stock/?itemId=${encodeURIComponent(info.itemId)}`);
  if (!stock.ok) {
    showAlert({ title: ALERT_TITLES.addItem, message: stock.message }, runtime.doc);
    return null;
  }
  const results = ((stock.body as { results?: unknown } | null)?.results ?? []) as StockResult[];
  const entry = Array.isArray(results) ? results.find((r) => r.sku === sku) ?? (results.length === 1 ? results[0] : undefined) : undefined;
  const inCart = (runtime.cart.cart()?.entries ?? [])
    .filter((e) => e.itemId === info.itemId && (e.chosenVariant?.sku ?? null) === sku)
    .reduce((sum, e) => sum + (typeof e.quantity === 'number' ? e.quantity : 0), 0);
  const inStock = !!entry && (entry.unlimited === true || (typeof entry.qtyInStock === 'number' && entry.qtyInStock > inCart));
  if (!inStock) {
    showAlert({ title: alertTitle === ALERT_TITLES.purchaseItem ? alertTitle : ALERT_TITLES.addItem, message: ADD_MESSAGES.notEnough }, runtime.doc);
    return null;
  }
  const values = await openLightbox({ runtime, form, opener });
  return values === null ? null : JSON.stringify(values);
};

export const RECALC_START_EVENT = 'sf:cart-recalc-start';
export const RECALC_END_EVENT = 'sf:cart-recalc-end';

function readCartForms(doc: Document): Record<string, FormDefinition> | null {
  const block = doc.querySelector('script[data-cart-forms]');
  if (!block) return null;
  const parsed = parseProps(block.textContent ?? '');
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as Record<string, FormDefinition>) : null;
}

function savedValues(runtime: Runtime, row: Element, entryId: string): Record<string, FieldValue> | undefined {
  const entry = runtime.cart.cart()?.entries.find((e) => e.id === entryId);
  const raw = typeof entry?.additionalFields === 'string' ? entry.additionalFields : row.getAttribute('data-additional-fields');
  if (!raw) return undefined;
  const parsed = parseProps(raw);
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as Record<string, FieldValue>) : undefined;
}

/** A6 edit flow (b): the cart page's edit links; returns the function that stops listening. */
export function startCartEditing(runtime: Runtime): () => void {
  const { doc, win } = runtime;
  const onClick = (event: Event) => {
    const link = (event.target as Element | null)?.closest?.('.sf-entry-edit-form');
    if (!link) return;
    event.preventDefault();
    const row = link.closest('[data-entry-id]');
    const entryId = row?.getAttribute('data-entry-id') ?? '';
    const formId = row?.getAttribute('data-form-id') ?? '';
    const form = readCartForms(doc)?.[formId];
    if (!row || !form || !Array.isArray(form.fields)) {
      showAlert({ title: ALERT_TITLES.openForm, message: ALERT_TITLES.openForm }, doc);
      return;
    }
    const itemId = row.getAttribute('data-item-id') ?? '';
    const sku = row.getAttribute('data-sku');
    void openLightbox({
      runtime,
      form,
      opener: link as HTMLElement,
      initial: savedValues(runtime, row, entryId),
      afterValidate: async (values) => {
        win.dispatchEvent(new win.CustomEvent(RECALC_START_EVENT, { detail: { entryId } }));
        const result = await runtime.client.request(
          'PUT',
          `/api/commerce/shopping-cart/entries/${encodeURIComponent(entryId)}/additionalFields`,
          { json: { itemId, sku, additionalFields: JSON.stringify(values) } },
        );
        const cart = cartOfResult(result);
        if (cart) runtime.cart.set(cart);
        win.dispatchEvent(new win.CustomEvent(RECALC_END_EVENT, { detail: { entryId } }));
        if (result.ok) return null;
        showAlert({ title: ALERT_TITLES.updateForm, message: result.message }, doc);
        return result.message;
      },
    });
  };
  doc.addEventListener('click', onClick);
  return () => doc.removeEventListener('click', onClick);
}

import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { announce, announcer, announcerHost } from '../runtime/announce.ts';
import { mountCaptcha, type CaptchaHandle } from '../runtime/captcha.ts';
import { useFocusWithError } from '../runtime/use-focus-with-error.ts';
import { isValidEmail } from '../shared/email.ts';
import { invalidAttrs } from '../runtime/form-fields.ts';
import { isInStock, scopeOf, type SelectionState, type SelectionStore } from '../runtime/product-scope.ts';
import { attrOf, hasClass, renderSnapshot, snapshotChildren, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { IslandDefinition } from './island.ts';

/** A4 / D5 / D11 texts (no final periods, as in the seed). */
export const RESTOCK_MESSAGES = {
  blank: 'Email cannot be blank',
  invalid: 'Email is invalid',
  captcha: 'Complete CAPTCHA before submitting',
  success: 'Signed up!',
} as const;

/** Views made on this page so far: each one's ids are unique on the page. */
let restockViews = 0;

type Phase = 'idle' | 'submitting' | 'success' | 'error';

interface Props {
  runtime: Runtime;
  container: HTMLElement;
  snapshot: SnapshotNode[];
  selection: SelectionStore;
  productId: string;
  variantId: string;
}

/** A4 visibility: the view's own variant is selected and sold out. */
export function restockVisible(state: SelectionState, variantId: string): boolean {
  const variant = state.selectedVariant;
  return variant !== null && String(variant.id ?? '') === variantId && !isInStock(variant);
}

function RestockBox({ runtime, container, snapshot, selection, productId, variantId }: Props): ReactNode {
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState('');
  const phaseRef = useRef<Phase>('idle');
  const formRef = useRef<HTMLFormElement | null>(null);
  const captchaRef = useRef<HTMLElement | null>(null);
  const captcha = useRef<CaptchaHandle | null>(null);
  const siteKey = runtime.context.captcha.siteKey;
  const [mounted, setMounted] = useState(false);
  const successRef = useRef<HTMLParagraphElement | null>(null);
  // Not useId: every island is its own React root, and each root numbers its ids from the
  // same start, so the views of a product's sold-out variants (one root each) all named their
  // input `_R_0_email`, and each label pointed at the first view's (hidden) input. The ids are
  // written only after mount, so a page-wide count needs no match with the server's markup.
  const [idPrefix] = useState(() => `sf-restock-${++restockViews}-`);
  const inputId = `${idPrefix}email`;
  const errorId = `${idPrefix}error`;

  const focusError = useFocusWithError();
  useEffect(() => {
    setMounted(true);
    // A live region is read only if it is in the page (or the Quick View) before its text changes.
    announcer(announcerHost(container));
  }, [container]);
  // The form is gone after a success; focus goes to the confirmation instead of <body>.
  useEffect(() => {
    if (phase === 'success') successRef.current?.focus();
  }, [phase]);

  const go = (next: Phase) => {
    phaseRef.current = next;
    setPhase(next);
  };

  useEffect(() => {
    const apply = (state: SelectionState) => container.toggleAttribute('hidden', !restockVisible(state, variantId));
    // With a variant picker, the server's hidden attribute stands until the first selection,
    // or the choice the browser restored into the dropdowns (Back to the page) is shown.
    const state = selection.get();
    if (!selection.info().variantsElement || state.unselectedOptions.length < selection.info().optionNames.length) apply(state);
    return selection.subscribe(apply);
  }, [container, selection, variantId]);

  useEffect(() => {
    const el = captchaRef.current;
    if (!el || !siteKey) return;
    const handle = mountCaptcha(el, { siteKey, reporter: runtime.reporter });
    handle.ready.catch(() => undefined);
    captcha.current = handle;
    return () => {
      captcha.current = null;
    };
  }, [runtime, siteKey]);

  async function submit(): Promise<void> {
    if (phaseRef.current === 'submitting' || phaseRef.current === 'success') return;
    const form = formRef.current!;
    const emailInput = form.querySelector<HTMLInputElement>('input[name="email"]');
    const email = (emailInput?.value ?? '').trim();
    // The error is the email's description, no alert (an alert as well as the focus said it
    // twice): a wrong email takes focus, which reads it (or, focus there already, the status
    // region says it); the captcha or the server's refusal leaves focus where it is and is said.
    const fail = (message: string) => {
      setError(message);
      go('error');
      announce(announcerHost(container), message);
    };
    const fix = (message: string) => {
      setError(message);
      go('error');
      focusError(() => emailInput, message);
    };
    if (email === '') return fix(RESTOCK_MESSAGES.blank);
    if (!isValidEmail(email)) return fix(RESTOCK_MESSAGES.invalid);
    const hasCaptcha = !!siteKey && captchaRef.current !== null;
    if (hasCaptcha && !captcha.current?.solved()) return fail(RESTOCK_MESSAGES.captcha);

    const checkbox = container.querySelector<HTMLInputElement>('input[name="isJoinMailingList"]');
    const payload: Record<string, unknown> = {
      productId,
      variantId,
      siteVisitorEmail: email,
      isJoinMailingList: checkbox ? checkbox.checked : false,
    };
    if (hasCaptcha) payload.captchaToken = captcha.current?.token() ?? '';
    setError('');
    go('submitting');
    const result = await runtime.client.request('POST', '/api/site-users/account/notifications/restock', { json: payload });
    if (result.ok) {
      captcha.current?.destroy();
      captcha.current = null;
      go('success');
      return;
    }
    captcha.current?.reset();
    fail(result.message);
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit().catch((err: unknown) => runtime.reporter.reportError('restock', { message: String(err) }));
  };
  const onEdit = () => {
    if (phaseRef.current === 'error') {
      setError('');
      go('idle');
    }
  };

  const done = phase === 'success';
  const errorView = (key: string) => (
    <p key={key} className="product-restock-error" id={errorId}>
      {error}
    </p>
  );
  const children = renderSnapshot(snapshot, function override(node, renderDefault, path): ReactNode | undefined {
    if (node.tag === 'form' && hasClass(node, 'product-restock-form')) {
      if (done) return null;
      // The label goes before the email input, which keeps its key (it is never re-created).
      const formChildren = renderSnapshot(node.children, override, path).flatMap((child, i) => {
        const source = node.children[i];
        if (!mounted || typeof source !== 'object' || source.tag !== 'input' || attrOf(source, 'name') !== 'email') return [child];
        // The error sits right above the field it describes, as every form's does: below the
        // button (after the form) it was off screen on a phone while focus was in the field.
        return [
          ...(error !== '' ? [errorView(`${path}.error`)] : []),
          <label key={`${path}.label`} className="product-restock-label" htmlFor={inputId}>
            {attrOf(source, 'placeholder') || 'Email Address'}
          </label>,
          child,
        ];
      });
      // Once the email input is type="email" (below), the browser would check it itself and
      // show its own bubble instead of submitting, so the island's message never appeared.
      // noValidate leaves the checks, and their wording, to the island (as the site form's
      // markup does); before hydration there is no type="email" to check.
      return renderDefault({ ref: formRef, onSubmit, onInput: onEdit, noValidate: mounted || undefined }, formChildren);
    }
    if (done && (hasClass(node, 'product-restock-mailing-list') || hasClass(node, 'captcha-container'))) return null;
    if (hasClass(node, 'captcha-container')) return renderDefault({ ref: captchaRef });
    if (node.tag === 'input' && attrOf(node, 'type') === 'submit') return renderDefault({ disabled: phase === 'submitting' });
    if (node.tag === 'input' && attrOf(node, 'name') === 'email' && mounted) {
      // The formatter's bytes (PLUGINS.md) make it a text input named only by its placeholder;
      // once hydrated it is an email field with a label (above), tied to its error.
      return renderDefault({ type: 'email', id: inputId, autoComplete: 'email', ...invalidAttrs(error !== '' && errorId) });
    }
    return undefined;
  });
  const successText = runtime.context.store.restockNotificationsSuccessText || RESTOCK_MESSAGES.success;
  return (
    <>
      {children}
      {done ? (
        <p className="product-restock-success" role="status" tabIndex={-1} ref={successRef}>
          {successText}
        </p>
      ) : null}
    </>
  );
}

export const restockIsland: IslandDefinition = {
  prepare(container, runtime) {
    const productId = container.getAttribute('data-product-id') ?? '';
    const variantId = container.getAttribute('data-variant-id') ?? '';
    const selection = runtime.selection(scopeOf(container), productId);
    return (
      <RestockBox
        runtime={runtime}
        container={container}
        snapshot={snapshotChildren(container)}
        selection={selection}
        productId={productId}
        variantId={variantId}
      />
    );
  },
};

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { visitorCookieValue } from '../runtime/analytics.ts';
import { visitorFields } from '../runtime/analytics-fields.ts';
import { saidWith, VISUALLY_HIDDEN } from '../runtime/announce.ts';
import { scrollToElement } from '../runtime/scroll.ts';
import { mountCaptcha, type CaptchaHandle } from '../runtime/captcha.ts';
import { isValidEmail } from '../shared/email.ts';
import { countedLength, exceedsMaxLength } from '../shared/text-length.ts';
import { env } from '../runtime/env.ts';
import { collectFieldValue, invalidAttrs, isEmptyValue, isSection, REQUIRED_MESSAGE, type FieldValue } from '../runtime/form-fields.ts';
import { MESSAGES } from '../runtime/http-client.ts';
import { attrOf, hasClass, renderSnapshot, snapshotChildren, type SnapshotElement, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { IslandDefinition } from './island.ts';

/** A7 / D11 texts, quoted exactly. */
export const SITE_FORM_MESSAGES = {
  maxLength: 'You have exceeded the character limit.',
  email: 'Email is not valid. Email addresses should follow the format user@domain.com.',
  problemTop: 'Your form has encountered a problem. Please scroll down to review.',
  problemBottom: 'Your form has encountered a problem. Please scroll up to review.',
  captcha: 'Complete CAPTCHA before submitting.',
  key: 'Could not get a form submission key, please try again later.',
  parse: 'Could not parse the form fields, please check your entries.',
  invalidFields: 'One or more fields is invalid, please check your entries.',
  unauthorized: 'Unable to submit form. Please try again later.',
  notConfigured: 'This form has not been configured yet.',
  rateLimited: 'Unable to submit form. Submission rate limit exceeded. Please try again later.',
  serverError: 'Unable to send form. Please try again later.',
  unknown: 'Unknown error, please try again later.',
  processing: 'Error processing form submission. Please reload and try again.',
  submitting: 'Submitting…',
} as const;

const MAX_REDIRECT_LENGTH = 2083;

/** A7 step 8: http(s) absolute URLs or site paths, at most 2083 characters. */
export function isValidRedirect(url: string): boolean {
  if (url === '' || url.length > MAX_REDIRECT_LENGTH) return false;
  if (url.startsWith('/')) return !url.startsWith('//');
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A positive integer max length, or null (0, negative and non-numbers disable it). */
export function maxLengthOf(text: string | null): number | null {
  if (text === null || !/^\d+$/.test(text.trim())) return null;
  const n = Number(text);
  return n > 0 ? n : null;
}

/** A7 validation of one `.sf-field`; null when it passes. */
export function validateSiteField(fieldEl: Element, search: string): string | null {
  const type = fieldEl.getAttribute('data-field-type') ?? 'text';
  if (isSection(type)) return null;
  const required = fieldEl.getAttribute('data-required') === 'true';
  let value: FieldValue;
  try {
    value = collectFieldValue(fieldEl, search);
  } catch {
    // A field that cannot be read is reported by the payload step (A7 step 5), not as a field error.
    return null;
  }
  const empty = isEmptyValue(value);
  if (type === 'email') {
    const text = typeof value === 'string' ? value.trim() : '';
    if ((empty && required) || (!empty && !isValidEmail(text))) return SITE_FORM_MESSAGES.email;
    return null;
  }
  if (required && type !== 'likert' && empty) return REQUIRED_MESSAGE;
  const max = maxLengthOf(fieldEl.getAttribute('data-max-length'));
  if (max !== null && typeof value === 'string' && exceedsMaxLength(value, max)) return SITE_FORM_MESSAGES.maxLength;
  return null;
}

/**
 * The max-length error of a field while the visitor types: the message when its text is over
 * the limit, null when it fits, undefined when the field has no limit (or no text value).
 * Counted by the server's rule (hydrate/shared/text-length.ts), not the UTF-16 `length` a
 * native `maxlength` uses, which would stop an emoji-rich text short of what the server takes
 * and silently cut a pasted text at the limit.
 */
export function liveLengthError(fieldEl: Element, search: string): string | null | undefined {
  const max = maxLengthOf(fieldEl.getAttribute('data-max-length'));
  if (max === null || isSection(fieldEl.getAttribute('data-field-type') ?? '')) return undefined;
  let value: FieldValue;
  try {
    value = collectFieldValue(fieldEl, search);
  } catch {
    return undefined;
  }
  if (typeof value !== 'string') return undefined;
  return exceedsMaxLength(value, max) ? SITE_FORM_MESSAGES.maxLength : null;
}

interface Props {
  runtime: Runtime;
  form: HTMLFormElement;
  snapshot: SnapshotNode[];
}

function SiteForm({ runtime, form, snapshot }: Props): ReactNode {
  const formId = form.getAttribute('data-form-id') ?? '';
  const siteKey = runtime.context.captcha.siteKey;
  const captchaEnabled = form.getAttribute('data-captcha-enabled') === 'true' && !!siteKey;
  const counterOn = runtime.context.flags.vanillaFormHandler;

  const [mounted, setMounted] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  /**
   * Said with the bottom alert after the spec's sentence: how many fields the last submit found
   * wrong, led by the first one's error when focus was in that field already (Enter pressed in
   * it: focus does not move, so the field and its error are not read). Gone once one is corrected.
   */
  const [attention, setAttention] = useState('');
  const [top, setTop] = useState('');
  const [bottom, setBottom] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [captchaLocked, setCaptchaLocked] = useState(false);
  const [done, setDone] = useState(false);
  const [lengths, setLengths] = useState<Record<string, number>>({});
  const busy = useRef(false);
  const captchaRef = useRef<HTMLElement | null>(null);
  const captcha = useRef<CaptchaHandle | null>(null);
  const submissionRef = useRef<HTMLElement | null>(null);
  const idPrefix = useId();
  const errorIdOf = (fieldId: string) => `${idPrefix}${fieldId}-error`;

  useEffect(() => {
    setMounted(true);
    runtime.client
      .request('POST', '/api/census/form-render', { json: { formId, visitorCookie: visitorCookieValue(runtime), fields: visitorFields(runtime.context) }, timeoutMs: 2500 })
      .catch(() => undefined);
  }, [runtime, formId]);

  useEffect(() => {
    const el = captchaRef.current;
    if (!el || !captchaEnabled || !siteKey) return;
    let wasSolved = false;
    const handle = mountCaptcha(el, {
      siteKey,
      theme: form.getAttribute('data-captcha-theme'),
      alignment: form.getAttribute('data-captcha-alignment'),
      reporter: runtime.reporter,
      // A solved captcha unlocks the button; once solved, losing the answer locks it (A7 step 9, CAP-7).
      onChange: (solved) => {
        if (solved) wasSolved = true;
        if (solved || wasSolved) setCaptchaLocked(!solved);
      },
    });
    handle.ready.catch(() => undefined);
    captcha.current = handle;
    return () => {
      captcha.current = null;
    };
  }, [runtime, captchaEnabled, siteKey, form]);

  const search = runtime.win.location.search;

  // After a success the visitor's focus would fall to <body> with the hidden button: it goes
  // to the submission text, which a screen reader then reads.
  useEffect(() => {
    if (done) submissionRef.current?.focus();
  }, [done]);

  /** Focus goes to the first field in error, whose error is read with it (aria-describedby). */
  const focusFirstError = (found: Record<string, string>) => {
    const first = [...form.querySelectorAll('.sf-field[data-field-id]')].find((el) => found[el.getAttribute('data-field-id')!] !== undefined);
    const control = first?.querySelector<HTMLElement>('input:not([type="hidden"]), select, textarea');
    const stayed = !!control && control === runtime.doc.activeElement;
    setAttention(saidWith(stayed ? found[first!.getAttribute('data-field-id')!]! : '', Object.keys(found).length));
    if (!first) return;
    // The page moves by the seed's tween (30 px above the field, 300 ms easeOutSine; a jump
    // under reduced motion) rather than the browser's own jump to the focused input.
    control?.focus({ preventScroll: true });
    void scrollToElement(runtime.win, first);
  };

  async function submit(): Promise<void> {
    if (busy.current) return;
    const fields = [...form.querySelectorAll('.sf-field[data-field-id]')];
    const found: Record<string, string> = {};
    for (const fieldEl of fields) {
      const message = validateSiteField(fieldEl, search);
      if (message) found[fieldEl.getAttribute('data-field-id')!] = message;
    }
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setTop(SITE_FORM_MESSAGES.problemTop);
      setBottom(SITE_FORM_MESSAGES.problemBottom);
      focusFirstError(found);
      return;
    }
    if (captchaEnabled && !captcha.current?.solved()) {
      setErrors({});
      setTop('');
      setBottom(SITE_FORM_MESSAGES.captcha);
      return;
    }
    busy.current = true;
    setSubmitting(true);
    setErrors({});
    setTop('');
    setBottom('');

    const failed = (message: string, fieldErrors: Record<string, string> = {}, topMessage = '') => {
      setErrors(fieldErrors);
      focusFirstError(fieldErrors);
      setTop(topMessage);
      setBottom(message);
      if (captchaEnabled) {
        captcha.current?.reset();
        setCaptchaLocked(true);
      }
    };
    try {
      const key = await runtime.client.request('POST', '/api/form/FormSubmissionKey');
      const keyValue = key.ok ? (key.body as { key?: unknown } | null)?.key : undefined;
      if (!key.ok || typeof keyValue !== 'string') {
        failed(SITE_FORM_MESSAGES.key);
        return;
      }
      let formText: string;
      try {
        const values: Record<string, FieldValue> = {};
        for (const fieldEl of fields) {
          if (isSection(fieldEl.getAttribute('data-field-type') ?? '')) continue;
          values[fieldEl.getAttribute('data-field-id')!] = collectFieldValue(fieldEl, search);
        }
        formText = JSON.stringify(values);
      } catch {
        failed(SITE_FORM_MESSAGES.parse);
        return;
      }
      const permission = form.getAttribute('data-page-permission-type') ?? '';
      const payload: Record<string, unknown> = { key: keyValue, formId, form: formText };
      if (captchaEnabled) payload.captchaKey = captcha.current?.token() ?? '';
      Object.assign(payload, {
        pageTitle: runtime.context.pageTitle,
        pageId: runtime.context.pageId,
        contentSource: form.getAttribute('data-content-source') === 'i' ? 'i' : 'c',
        pagePath: runtime.context.pagePath,
        pagePermissionTypeValue: /^\d+$/.test(permission) ? Number(permission) : permission,
      });
      const result = await runtime.client.request('POST', '/api/form/SaveFormSubmission', { json: payload });
      if (result.ok) {
        const redirect = form.getAttribute('data-success-redirect') ?? '';
        if (isValidRedirect(redirect)) {
          env.navigate(redirect);
          return;
        }
        captcha.current?.destroy();
        setDone(true);
        return;
      }
      const body = result.body as { errors?: unknown; crumbFail?: unknown; error?: unknown } | null;
      if (result.status === null) return failed(SITE_FORM_MESSAGES.processing);
      if (result.status === 400 && body && typeof body.errors === 'object' && body.errors !== null) {
        const map = Object.fromEntries(Object.entries(body.errors).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
        return failed(SITE_FORM_MESSAGES.problemBottom, map, SITE_FORM_MESSAGES.invalidFields);
      }
      if (body?.crumbFail === true) return failed(result.message);
      if (result.status === 401) return failed(SITE_FORM_MESSAGES.unauthorized);
      if (result.status === 404) return failed(SITE_FORM_MESSAGES.notConfigured);
      if (result.status === 429) return failed(SITE_FORM_MESSAGES.rateLimited);
      if (result.status === 500) return failed(SITE_FORM_MESSAGES.serverError);
      if (result.bodyNotJson) return failed(SITE_FORM_MESSAGES.processing);
      if (body && typeof body.error === 'string' && body.error !== '') return failed(body.error);
      return failed(MESSAGES.unknown);
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit().catch((err: unknown) => runtime.reporter.reportError('site_form', { message: String(err) }));
  };
  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement;
    const fieldEl = target.closest('.sf-field[data-field-id]');
    const fieldId = fieldEl?.getAttribute('data-field-id');
    if (!fieldEl || !fieldId) return;
    if (target.tagName === 'TEXTAREA') {
      const length = countedLength((target as HTMLTextAreaElement).value);
      setLengths((prev) => (prev[fieldId] === length ? prev : { ...prev, [fieldId]: length }));
    }
    // The limit is said as soon as the text goes over it (and unsaid when it fits again),
    // rather than only after pressing submit; other errors wait for the next submit as before.
    // A field corrected after a submit loses its error as the visitor types: its marks go, and
    // the count said with the alert goes quietly (a removal is not read), so the other fields'
    // errors are not said again. Once none is left the form's problem messages go too.
    const shown = errors[fieldId];
    if (shown !== undefined && shown !== SITE_FORM_MESSAGES.maxLength && validateSiteField(fieldEl, search) === null) {
      const { [fieldId]: _fixed, ...rest } = errors;
      setErrors(rest);
      setAttention('');
      if (Object.keys(rest).length === 0) {
        setTop((current) => (current === SITE_FORM_MESSAGES.problemTop || current === SITE_FORM_MESSAGES.invalidFields ? '' : current));
        setBottom((current) => (current === SITE_FORM_MESSAGES.problemBottom ? '' : current));
      }
      return;
    }
    const lengthError = liveLengthError(fieldEl, search);
    if (lengthError === undefined) return;
    setErrors((prev) => {
      if (lengthError !== null) return prev[fieldId] === lengthError ? prev : { ...prev, [fieldId]: lengthError };
      if (prev[fieldId] !== SITE_FORM_MESSAGES.maxLength) return prev;
      const { [fieldId]: _gone, ...rest } = prev;
      return rest;
    });
  };

  const renderField = (node: SnapshotElement, renderDefault: (p?: Record<string, unknown>, c?: ReactNode) => ReactNode, path: string) => {
    const fieldId = attrOf(node, 'data-field-id') ?? '';
    const error = errors[fieldId];
    const max = counterOn ? maxLengthOf(attrOf(node, 'data-max-length')) : null;
    // The field's controls are marked invalid and described by its error.
    const describedBy = error ? errorIdOf(fieldId) : null;
    const fieldOverride: typeof override = (child, renderChild, childPath) => {
      if (describedBy && (child.tag === 'input' || child.tag === 'select' || child.tag === 'textarea') && attrOf(child, 'type') !== 'hidden') {
        return renderChild(invalidAttrs(describedBy));
      }
      return override(child, renderChild, childPath);
    };
    const children = renderSnapshot(node.children, fieldOverride, path).flatMap((child, i) => {
      const source = node.children[i];
      const out: ReactNode[] = [];
      if (error && typeof source === 'object' && hasClass(source, 'title')) {
        out.push(
          <div key={`${path}.error`} className="field-error" id={describedBy!}>
            {error}
          </div>,
        );
      }
      out.push(child);
      if (mounted && max !== null && typeof source === 'object' && source.tag === 'textarea') {
        const length = lengths[fieldId] ?? 0;
        out.push(
          <span key={`${path}.counter`} className={length > max ? 'sf-char-counter sf-char-counter-error' : 'sf-char-counter'}>
            {`${length}/${max}`}
          </span>,
        );
      }
      return out;
    });
    return renderDefault(done ? { hidden: true } : undefined, children);
  };

  const override = (node: SnapshotElement, renderDefault: (p?: Record<string, unknown>, c?: ReactNode) => ReactNode, path: string): ReactNode | undefined => {
    if (hasClass(node, 'sf-field')) return renderField(node, renderDefault, path);
    // Both messages say the same thing at either end of the form; only the bottom one, next to
    // the button just pressed, is a live alert, so a screen reader hears it once. The server's
    // role stays for the hydrating render, which must match its markup.
    if (hasClass(node, 'sf-form-message-top')) return renderDefault({ hidden: top === '', role: mounted ? undefined : attrOf(node, 'role') ?? undefined }, top);
    // With several fields wrong the alert also says how many (focus reads only the first), and
    // the first one's error when focus did not move to it; unseen, so the page reads as the spec has it.
    if (hasClass(node, 'sf-form-message-bottom')) {
      const extra = bottom !== '' && Object.keys(errors).length > 0 ? attention : '';
      return renderDefault(
        { hidden: bottom === '' },
        extra === '' ? bottom : [bottom, <span key="attention" className="sf-form-attention" style={VISUALLY_HIDDEN}>{` ${extra}`}</span>],
      );
    }
    if (hasClass(node, 'captcha-container')) return renderDefault({ ref: captchaRef, hidden: done || undefined });
    if (hasClass(node, 'sf-form-submission')) return renderDefault({ hidden: !done, ref: submissionRef, tabIndex: done ? -1 : undefined });
    if (hasClass(node, 'sf-form-submit')) {
      const original = node.children.map((c) => (typeof c === 'string' ? c : '')).join('');
      // The server writes the button disabled, so nothing is sent (as a GET, values in the
      // URL) before the island handles the submit (renderer/pages/blocks.ts); the hydrating
      // render keeps it so, the mounted one enables it.
      return renderDefault(
        { disabled: !mounted || submitting || captchaLocked, hidden: done || undefined },
        submitting ? SITE_FORM_MESSAGES.submitting : original,
      );
    }
    return undefined;
  };

  // The form element is the container; React owns only its children, so the handlers go on it directly.
  useEffect(() => {
    const submitListener = (e: Event) => onSubmit(e as unknown as FormEvent<HTMLFormElement>);
    const inputListener = (e: Event) => onInput(e as unknown as FormEvent<HTMLFormElement>);
    form.addEventListener('submit', submitListener);
    form.addEventListener('input', inputListener);
    return () => {
      form.removeEventListener('submit', submitListener);
      form.removeEventListener('input', inputListener);
    };
  });

  return renderSnapshot(snapshot, override);
}

export const siteFormIsland: IslandDefinition = {
  prepare(container, runtime) {
    if (!(container instanceof runtime.win.HTMLFormElement)) return null;
    return <SiteForm runtime={runtime} form={container} snapshot={snapshotChildren(container)} />;
  },
};

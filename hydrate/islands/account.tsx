import { useEffect, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { showAlert } from '../runtime/alert.ts';
import { announcer, announcerHost, clearAttention, focusWithError } from '../runtime/announce.ts';
import { useFocusWithError } from '../runtime/use-focus-with-error.ts';
import { env } from '../runtime/env.ts';
import { invalidAttrs, REQUIRED_MESSAGE } from '../runtime/form-fields.ts';
import { attrOf, hasClass, renderSnapshot, snapshotChildren, type SnapshotElement, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { API_ERROR, hasApiError } from '../shared/api-error-codes.ts';
import type { IslandDefinition } from './island.ts';

export const SESSION_PATH = '/api/site-users/account/session';
export const RESET_REQUEST_PATH = '/api/site-users/account/password-reset';
export const RESET_PASSWORD_PATH = '/api/site-users/account/password';
export const RESET_CHECK_PATH = '/api/site-users/account/password-reset/check';
/** Designed here, as the server's rule (api/routes/password-reset-routes.ts). */
export const MIN_PASSWORD_LENGTH = 8;
export const FORGOT_HASH = '#forgot-password';
/** The reset mail's link ends `#reset-password=<token>` (mail/password-reset.ts). */
const RESET_HASH = /^#reset-password=([A-Za-z0-9_-]{1,100})$/;

type Step = { kind: 'sign-in' } | { kind: 'forgot' } | { kind: 'reset'; token: string } | { kind: 'changed' };

/** The step the address's fragment asks for: the forgot form, a reset link's form, or sign-in. */
function stepOf(hash: string): Step {
  if (hash === FORGOT_HASH) return { kind: 'forgot' };
  const reset = RESET_HASH.exec(hash);
  return reset ? { kind: 'reset', token: reset[1]! } : { kind: 'sign-in' };
}
export const TRANSLATION_EVENT = 'sf:translation-language';

/**
 * Signing in and out end in a reload (A10), which starts the page over with focus on nothing:
 * a screen reader user heard the page title again and nothing of whether it worked. The word
 * is kept for the reloaded page in this tab's session storage (designed here) and said there
 * by the account block, focused.
 */
export const ACCOUNT_NOTICE_KEY = 'sf.accountNotice';
export const ACCOUNT_NOTICES = { 'signed-in': "You're signed in.", 'signed-out': "You're signed out." } as const;
type AccountNotice = keyof typeof ACCOUNT_NOTICES;
/** The id of the sign-in error, by which the fields it is about describe themselves. */
export const LOGIN_ERROR_ID = 'sf-login-error';

function leaveNotice(runtime: Runtime, notice: AccountNotice): void {
  try {
    runtime.win.sessionStorage.setItem(ACCOUNT_NOTICE_KEY, notice);
  } catch {
    // Storage can be disabled (private mode): the reloaded page then says nothing, as before.
  }
}

/** The notice left for this page, removed as it is read (a later reload says nothing). */
function takeNotice(runtime: Runtime): AccountNotice | null {
  try {
    const notice = runtime.win.sessionStorage.getItem(ACCOUNT_NOTICE_KEY);
    runtime.win.sessionStorage.removeItem(ACCOUNT_NOTICE_KEY);
    return notice === 'signed-in' || notice === 'signed-out' ? notice : null;
  } catch {
    return null;
  }
}

function isCrumbFail(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { crumbFail?: unknown }).crumbFail === true;
}

function Account({ runtime, snapshot }: { runtime: Runtime; snapshot: SnapshotNode[] }): ReactNode {
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [loginError, setLoginError] = useState('');
  // A wrong email or password (not a lost connection or a limit): both fields are marked.
  const [badCredentials, setBadCredentials] = useState(false);
  const busy = useRef(false);
  const formRef = useRef<HTMLFormElement | null>(null);
  const signedIn = runtime.context.siteUser?.authenticated === true;
  // Sign In comes disabled from the server (island-markup.ts); the hydrating render keeps it so
  // (no mismatch), the mounted one enables it, once a press is this island's to handle.
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    setMounted(true);
    // A live region is read only if it is in the page before its text changes (focusWithError).
    if (formRef.current) announcer(announcerHost(formRef.current));
  }, []);
  // Said once mounted (the hydrating render is the server's markup), and only when it is still
  // true: the session may have ended again in another tab before this page loaded.
  const [notice, setNotice] = useState<AccountNotice | null>(null);
  const noticeRef = useRef<HTMLParagraphElement | null>(null);
  useEffect(() => {
    const left = takeNotice(runtime);
    if (left === (signedIn ? 'signed-in' : 'signed-out')) setNotice(left);
  }, [runtime, signedIn]);
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);
  // A wrong email or password left focus on Sign In (or in the field Enter was pressed in): the
  // visitor goes to the password, drawn by now marked, with the email, as wrong and described by
  // the error, so a screen reader reads the error with it; its text is selected, so typing
  // replaces it.
  // The error is then no alert (below): focus moved to the password reads it, and Enter pressed
  // in the password (focus stays) has it said by the status region; an alert as well said it twice.
  useEffect(() => {
    if (!badCredentials) return;
    const password = formRef.current?.querySelector<HTMLInputElement>('input[name="password"]');
    if (!password) return;
    focusWithError(password, loginError);
    password.select();
  }, [badCredentials]);

  // The reset steps (designed here) follow the fragment: "Forgot your password?" links to
  // #forgot-password and the mail's link carries #reset-password=<token>. The hydrating render
  // is always the server's form; the step is read once mounted.
  const [step, setStep] = useState<Step>({ kind: 'sign-in' });
  useEffect(() => {
    // Once the password is changed, the fragment the change itself removed keeps that word on
    // screen (some engines report replaceState as a hash change); a new fragment still moves on.
    const follow = () => {
      const next = stepOf(runtime.win.location.hash);
      setStep((current) => (current.kind === 'changed' && next.kind === 'sign-in' ? current : next));
    };
    follow();
    runtime.win.addEventListener('hashchange', follow);
    return () => runtime.win.removeEventListener('hashchange', follow);
  }, [runtime]);

  useEffect(() => {
    if (!signedIn) return;
    // A10 locale: only a translation widget's report, and only for a signed-in user.
    const onLanguage = (event: Event) => {
      const language = (event as CustomEvent<{ language?: unknown }>).detail?.language;
      if (typeof language !== 'string' || language === '') return;
      runtime.client.request('POST', '/api/site-users/account/locale', { json: { language } }).then((r) => {
        if (!r.ok) runtime.reporter.reportError('site_user_locale', { status: r.status, message: r.message });
      });
    };
    runtime.win.addEventListener(TRANSLATION_EVENT, onLanguage);
    return () => runtime.win.removeEventListener(TRANSLATION_EVENT, onLanguage);
  }, [runtime, signedIn]);

  async function login(): Promise<void> {
    if (busy.current) return;
    const form = formRef.current!;
    const email = form.querySelector<HTMLInputElement>('input[name="email"]')?.value ?? '';
    const password = form.querySelector<HTMLInputElement>('input[name="password"]')?.value ?? '';
    const rememberMe = form.querySelector<HTMLInputElement>('input[name="rememberMe"]')?.checked === true;
    const found: { email?: string; password?: string } = {};
    if (email.trim() === '') found.email = REQUIRED_MESSAGE;
    if (password === '') found.password = REQUIRED_MESSAGE;
    setErrors(found);
    setLoginError('');
    setBadCredentials(false);
    if (found.email || found.password) {
      // The visitor goes straight to the first field to fix; its error is read with it (said
      // aloud when focus was in it already: Enter pressed in the empty password field).
      const first = form.querySelector<HTMLInputElement>(`input[name="${found.email ? 'email' : 'password'}"]`);
      // Both empty: the region says that 2 fields need attention, as focus reads only the first.
      if (first) focusWithError(first, (found.email ?? found.password)!, Object.keys(found).length);
      return;
    }
    busy.current = true;
    try {
      const result = await runtime.client.request('POST', SESSION_PATH, { json: { email, password, rememberMe } });
      const token = result.ok ? (result.body as { xsrfToken?: unknown } | null)?.xsrfToken : undefined;
      if (result.ok) {
        if (typeof token === 'string') runtime.client.setSiteUserXsrf(token);
        leaveNotice(runtime, 'signed-in');
        env.reload();
        return;
      }
      setLoginError(result.message);
      if (hasApiError(result.body, API_ERROR.INVALID_CREDENTIALS)) setBadCredentials(true);
    } finally {
      busy.current = false;
    }
  }

  async function logout(): Promise<void> {
    if (busy.current) return;
    busy.current = true;
    const url = `${SESSION_PATH}?cloneCart=true`;
    let result = await runtime.client.request('DELETE', url);
    // The failed response carried a fresh crumb cookie; one retry reads it (A10 step 2).
    if (!result.ok && isCrumbFail(result.body)) result = await runtime.client.request('DELETE', url);
    busy.current = false;
    const signedOut = result.ok || isCrumbFail(result.body);
    // Still signed in (below), the session's token still goes with this page's calls.
    if (signedOut) runtime.client.setSiteUserXsrf(null);
    if (!result.ok && isCrumbFail(result.body)) {
      showAlert({ title: 'Sign Out', message: result.message, onClose: () => env.reload() }, runtime.doc);
      return;
    }
    if (!result.ok) {
      // The server did not end the session (no connection, a server failure): a reload only
      // drew the page signed in again without a word (offline, the browser's own error page),
      // and a visitor leaving a shared computer thought they were signed out. They are told,
      // and the alert gives focus back to Sign Out to try again.
      showAlert({ title: 'Not Signed Out', message: `You are still signed in. ${result.message}` }, runtime.doc);
      return;
    }
    leaveNotice(runtime, 'signed-out');
    env.reload();
  }

  if (step.kind === 'forgot') return <ForgotStep runtime={runtime} />;
  if (step.kind === 'reset') return <ResetStep runtime={runtime} token={step.token} onChanged={() => setStep({ kind: 'changed' })} />;
  if (step.kind === 'changed') return <ChangedStep runtime={runtime} />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    login().catch((err: unknown) => runtime.reporter.reportError('login', { message: String(err) }));
  };
  // A field filled in after "Required" loses its error as the visitor types (its marks and
  // the count said go quietly); the other field's error stays, unsaid again.
  const onInput = (event: FormEvent) => {
    const target = event.target as HTMLInputElement;
    const field = target.name === 'email' || target.name === 'password' ? target.name : null;
    if (!field || !errors[field]) return;
    const filled = field === 'email' ? target.value.trim() !== '' : target.value !== '';
    if (!filled) return;
    setErrors(({ [field]: _gone, ...rest }) => rest);
    clearAttention(target);
  };
  const onLogout = () => {
    logout().catch((err: unknown) => runtime.reporter.reportError('logout', { message: String(err) }));
  };

  const fieldOf = (node: SnapshotElement): 'email' | 'password' | null => {
    if (node.tag !== 'input') return null;
    const name = node.attrs.find((a) => a.name === 'name')?.value;
    return name === 'email' || name === 'password' ? name : null;
  };
  const errorId = (field: 'email' | 'password') => `sf-login-${field}-error`;

  // "Required" goes right above the field it is about, as the field's description.
  const withErrors = (nodes: SnapshotNode[], path: string): ReactNode[] =>
    renderSnapshot(nodes, override, path).flatMap((child, i) => {
      const source = nodes[i];
      const field = typeof source === 'object' ? fieldOf(source) : null;
      const error = field ? errors[field] : undefined;
      return field && error
        ? [
            <p key={`${path}.${i}.error`} className="field-error" id={errorId(field)}>
              {error}
            </p>,
            child,
          ]
        : [child];
    });

  const override = (node: SnapshotElement, renderDefault: (p?: Record<string, unknown>, c?: ReactNode) => ReactNode, path: string): ReactNode | undefined => {
    if (node.tag === 'form' && hasClass(node, 'sf-login')) return renderDefault({ ref: formRef, onSubmit, onInput }, withErrors(node.children, path));
    if (hasClass(node, 'sf-login-field')) return renderDefault(undefined, withErrors(node.children, path));
    const field = fieldOf(node);
    if (field && errors[field]) return renderDefault(invalidAttrs(errorId(field)));
    if (field && badCredentials) return renderDefault(invalidAttrs(LOGIN_ERROR_ID));
    // The id only while it shows (the server's markup has none, so hydration matches).
    // An alert for what no field shows (no connection, a limit); a wrong email or password is
    // the fields' description, said with the focus (the effect above), so not an alert as well.
    if (hasClass(node, 'sf-login-error')) {
      const role = badCredentials ? undefined : 'alert';
      return renderDefault(loginError === '' ? { hidden: true, role } : { hidden: false, id: LOGIN_ERROR_ID, role }, loginError);
    }
    if (hasClass(node, 'sf-logout')) return renderDefault({ onClick: onLogout });
    if (node.tag === 'button' && attrOf(node, 'type') === 'submit') return renderDefault({ disabled: !mounted });
    return undefined;
  };
  const said = notice ? (
    <p className="sf-account-notice" role="status" tabIndex={-1} ref={noticeRef}>
      {ACCOUNT_NOTICES[notice]}
    </p>
  ) : null;
  return (
    <>
      {said}
      {renderSnapshot(snapshot, override)}
    </>
  );
}

/** Puts the page's status region in place at mount: a live region is read only if it is there before its text changes. */
function useLiveRegion(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (ref.current) announcer(announcerHost(ref.current));
  }, [ref]);
}

/** Focuses `ref`'s element once it is drawn: the visitor lands where the new step begins. */
function useFocusOnMount<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T | null>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

/** "Forgot your password?": the email, then always the same neutral answer (no enumeration). */
function ForgotStep({ runtime }: { runtime: Runtime }): ReactNode {
  const [error, setError] = useState('');
  const [sent, setSent] = useState('');
  const busy = useRef(false);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const input = useRef<HTMLInputElement | null>(null);
  const focusError = useFocusWithError();
  useLiveRegion(input);
  const fix = (message: string) => {
    setError(message);
    focusError(() => input.current, message);
  };

  async function send(): Promise<void> {
    if (busy.current) return;
    const email = input.current?.value ?? '';
    setSent('');
    if (email.trim() === '') {
      fix(REQUIRED_MESSAGE);
      return;
    }
    setError('');
    busy.current = true;
    try {
      const result = await runtime.client.request('POST', RESET_REQUEST_PATH, { json: { email } });
      if (result.ok) {
        const message = (result.body as { message?: unknown } | null)?.message;
        setSent(typeof message === 'string' ? message : "If an account uses that address, we've emailed a link to reset its password.");
        return;
      }
      // A 429 says how long to wait (its `errors.email`), not A0.2's "in a few seconds".
      const errors = (result.body as { errors?: { email?: unknown } } | null)?.errors;
      fix(result.status === 429 && typeof errors?.email === 'string' ? errors.email : result.message);
    } finally {
      busy.current = false;
    }
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send().catch((err: unknown) => runtime.reporter.reportError('password_reset_request', { message: String(err) }));
  };
  return (
    <>
      <h2 className="sf-forgot-heading" tabIndex={-1} ref={heading}>
        Reset your password
      </h2>
      <form className="sf-forgot" noValidate onSubmit={onSubmit}>
        <p>Enter your account's email and we'll send you a link to choose a new password.</p>
        <div className="sf-login-field">
          {error ? (
            // No alert: focus moved to the field reads it, and Enter pressed in the field (focus
            // stays) has it said by the status region (useFocusWithError); an alert said it twice.
            <p className="field-error" id="sf-forgot-email-error">
              {error}
            </p>
          ) : null}
          <label htmlFor="sf-forgot-email">Email</label>
          <input type="email" id="sf-forgot-email" name="email" autoComplete="username" ref={input} {...invalidAttrs(error !== '' && 'sf-forgot-email-error')} />
        </div>
        <button type="submit">Email Me a Link</button>
        <p className="sf-forgot-sent" role="status">
          {sent}
        </p>
      </form>
      <p className="sf-login-back">
        <a href="#sign-in">Back to sign in</a>
      </p>
    </>
  );
}

/** A reset link that cannot be used: said as the step opens, or when its password is sent. */
const LINK_ERRORS = [API_ERROR.RESET_LINK_INVALID, API_ERROR.RESET_LINK_USED, API_ERROR.RESET_LINK_EXPIRED] as const;

/** The mail's link: a new password; then the visitor signs in with it (nothing signs in silently). */
function ResetStep({ runtime, token, onChanged }: { runtime: Runtime; token: string; onChanged: () => void }): ReactNode {
  const [error, setError] = useState('');
  const [linkError, setLinkError] = useState('');
  const busy = useRef(false);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const input = useRef<HTMLInputElement | null>(null);
  const status = useRef<HTMLParagraphElement | null>(null);
  const focusError = useFocusWithError();
  useLiveRegion(input);
  const fix = (message: string) => {
    setError(message);
    focusError(() => input.current, message);
  };
  useEffect(() => {
    if (linkError !== '') status.current?.focus();
  }, [linkError]);
  // A used, expired or unknown link says so as it opens, before a password is typed.
  useEffect(() => {
    let live = true;
    runtime.client.request('POST', RESET_CHECK_PATH, { json: { token } }).then((result) => {
      if (live && !result.ok && hasApiError(result.body, ...LINK_ERRORS)) setLinkError(result.message);
    }, (err: unknown) => runtime.reporter.reportError('password_reset_check', { message: String(err) }));
    return () => {
      live = false;
    };
  }, [runtime, token]);

  async function save(): Promise<void> {
    if (busy.current) return;
    const password = input.current?.value ?? '';
    if (password.length < MIN_PASSWORD_LENGTH) {
      fix(`Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`);
      return;
    }
    setError('');
    busy.current = true;
    try {
      const result = await runtime.client.request('POST', RESET_PASSWORD_PATH, { json: { token, password } });
      if (result.ok) {
        // The token is spent: it leaves the address bar and the history entry.
        runtime.win.history.replaceState(runtime.win.history.state, '', runtime.win.location.pathname + runtime.win.location.search);
        // After the address change: the step no longer follows a fragment that is gone.
        onChanged();
        return;
      }
      if (hasApiError(result.body, ...LINK_ERRORS)) {
        setLinkError(result.message);
        return;
      }
      fix(result.message);
    } finally {
      busy.current = false;
    }
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save().catch((err: unknown) => runtime.reporter.reportError('password_reset', { message: String(err) }));
  };
  if (linkError !== '') {
    return (
      <>
        <p className="sf-reset-link-error" role="alert" tabIndex={-1} ref={status}>
          {linkError}
        </p>
        <p className="sf-login-back">
          <a href={FORGOT_HASH}>Ask for a new link</a>
        </p>
      </>
    );
  }
  return (
    <>
      <h2 className="sf-reset-heading" tabIndex={-1} ref={heading}>
        Choose a new password
      </h2>
      <form className="sf-reset" noValidate onSubmit={onSubmit}>
        <div className="sf-login-field">
          {error ? (
            <p className="field-error" id="sf-reset-password-error">
              {error}
            </p>
          ) : null}
          <label htmlFor="sf-reset-password">New password</label>
          <input
            type="password"
            id="sf-reset-password"
            name="password"
            autoComplete="new-password"
            ref={input}
            aria-describedby={error ? 'sf-reset-password-error sf-reset-password-rule' : 'sf-reset-password-rule'}
            {...(error ? { 'aria-invalid': true } : {})}
          />
          <p className="sf-reset-rule" id="sf-reset-password-rule">
            At least {MIN_PASSWORD_LENGTH} characters.
          </p>
        </div>
        <button type="submit">Set New Password</button>
      </form>
      <p className="sf-login-back">
        <a href={FORGOT_HASH}>Ask for a new link</a>
      </p>
    </>
  );
}

/** The new password is set; nothing signed in: the visitor signs in with it. */
function ChangedStep({ runtime }: { runtime: Runtime }): ReactNode {
  const status = useFocusOnMount<HTMLParagraphElement>();
  // Signing in starts from a fresh page: the sessions this change ended are gone from it too.
  const signInHref = runtime.win.location.pathname + runtime.win.location.search;
  return (
    <>
      <p className="sf-reset-done" role="status" tabIndex={-1} ref={status}>
        Password changed. Sign in with your new password.
      </p>
      <p className="sf-login-back">
        <a href={signInHref}>Sign in</a>
      </p>
    </>
  );
}

export const accountIsland: IslandDefinition = {
  prepare(container, runtime) {
    return <Account runtime={runtime} snapshot={snapshotChildren(container)} />;
  },
};

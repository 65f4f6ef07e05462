import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { showAlert } from '../runtime/alert.ts';
import { env } from '../runtime/env.ts';
import { invalidAttrs, REQUIRED_MESSAGE } from '../runtime/form-fields.ts';
import { attrOf, hasClass, renderSnapshot, snapshotChildren, type SnapshotElement, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { IslandDefinition } from './island.ts';

export const SESSION_PATH = '/api/site-users/account/session';
export const TRANSLATION_EVENT = 'sf:translation-language';

function isCrumbFail(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { crumbFail?: unknown }).crumbFail === true;
}

function Account({ runtime, snapshot }: { runtime: Runtime; snapshot: SnapshotNode[] }): ReactNode {
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [loginError, setLoginError] = useState('');
  const busy = useRef(false);
  const formRef = useRef<HTMLFormElement | null>(null);
  const signedIn = runtime.context.siteUser?.authenticated === true;
  // Sign In comes disabled from the server (island-markup.ts); the hydrating render keeps it so
  // (no mismatch), the mounted one enables it, once a press is this island's to handle.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);

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
    if (found.email || found.password) {
      // The visitor goes straight to the first field to fix; its error is read with it.
      form.querySelector<HTMLInputElement>(`input[name="${found.email ? 'email' : 'password'}"]`)?.focus();
      return;
    }
    busy.current = true;
    try {
      const result = await runtime.client.request('POST', SESSION_PATH, { json: { email, password, rememberMe } });
      const token = result.ok ? (result.body as { xsrfToken?: unknown } | null)?.xsrfToken : undefined;
      if (result.ok) {
        if (typeof token === 'string') runtime.client.setSiteUserXsrf(token);
        env.reload();
        return;
      }
      setLoginError(result.message);
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
    env.reload();
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    login().catch((err: unknown) => runtime.reporter.reportError('login', { message: String(err) }));
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
    if (node.tag === 'form' && hasClass(node, 'sf-login')) return renderDefault({ ref: formRef, onSubmit }, withErrors(node.children, path));
    if (hasClass(node, 'sf-login-field')) return renderDefault(undefined, withErrors(node.children, path));
    const field = fieldOf(node);
    if (field && errors[field]) return renderDefault(invalidAttrs(errorId(field)));
    if (hasClass(node, 'sf-login-error')) return renderDefault({ hidden: loginError === '' }, loginError);
    if (hasClass(node, 'sf-logout')) return renderDefault({ onClick: onLogout });
    if (node.tag === 'button' && attrOf(node, 'type') === 'submit') return renderDefault({ disabled: !mounted });
    return undefined;
  };
  return renderSnapshot(snapshot, override);
}

export const accountIsland: IslandDefinition = {
  prepare(container, runtime) {
    return <Account runtime={runtime} snapshot={snapshotChildren(container)} />;
  },
};

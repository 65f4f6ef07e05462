import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { isValidEmail } from '../shared/email.ts';
import { invalidAttrs } from '../runtime/form-fields.ts';
import { EDITOR_MESSAGES } from '../shared/editor-messages.ts';
import { createAdminApi, type AdminApi } from './admin-api.ts';
import { focusOn } from './panel-parts.tsx';
import { AdminDialog } from './admin-dialog.tsx';
import { ApiKeysPanel } from './api-keys-panel.tsx';
import { FeaturesPanel } from './features-panel.tsx';
import { InventoryPanel } from './inventory-panel.tsx';
import { OrdersPanel } from './orders-panel.tsx';
import type { TrackOwnerEvent } from './owner-events.ts';
import { RestockPanel } from './restock-panel.tsx';
import { ReviewsPanel } from './reviews-panel.tsx';
import { SubmissionsPanel } from './submissions-panel.tsx';

// The admin app: the sign-in form, then the panels behind a section switcher. Each panel
// loads its own data through the [admin] API with the owner's session.

export const PANELS = [
  { id: 'inventory', label: 'Inventory' },
  { id: 'restock', label: 'Restock sign-ups' },
  { id: 'submissions', label: 'Form submissions' },
  { id: 'orders', label: 'Orders' },
  { id: 'reviews', label: 'Reviews' },
  { id: 'api-keys', label: 'API keys' },
  { id: 'features', label: 'Features' },
] as const;
export type PanelId = (typeof PANELS)[number]['id'];

/** The panel a URL's hash names (`/admin#orders`), else inventory. */
export function panelOfHash(hash: string): PanelId {
  const id = hash.replace(/^#/, '');
  return PANELS.find((entry) => entry.id === id)?.id ?? 'inventory';
}

export interface PanelProps {
  api: AdminApi;
  track: TrackOwnerEvent;
}

/**
 * `expired`: the server refused a call because the session ended (12 hours, a sign-out in
 * another tab). The panels stay as they are, with whatever the owner typed, under a sign-in
 * dialog; signed in again, the owner saves once more. Going back to the sign-in page instead
 * dropped the edit without a word.
 */
type SessionState = { kind: 'loading' } | { kind: 'signed-out'; byOwner?: boolean } | { kind: 'signed-in'; email: string; expired?: boolean; fresh?: boolean };

interface SessionBody {
  owner: { email: string } | null;
  csrfToken: string | null;
}

export function AdminApp({ track, fetchImpl }: { track: TrackOwnerEvent; fetchImpl?: () => typeof fetch }) {
  const [session, setSession] = useState<SessionState>({ kind: 'loading' });
  // The panel is in the URL's hash, one history entry a switch: the browser's Back goes to the
  // panel before (it left the admin), and a reload or a bookmark opens the same panel (it
  // opened Inventory).
  const [panel, setPanelState] = useState<PanelId>(() => panelOfHash(window.location.hash));
  const setPanel = (next: PanelId) => {
    if (next !== panel) window.history.pushState(null, '', `#${next}`);
    setPanelState(next);
  };
  useEffect(() => {
    const follow = () => setPanelState(panelOfHash(window.location.hash));
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  const [loadError, setLoadError] = useState<string | null>(null);
  const api = useMemo(
    () => createAdminApi(fetchImpl, () => setSession((current) => (current.kind === 'signed-in' ? { ...current, expired: true, fresh: false } : { kind: 'signed-out' }))),
    [fetchImpl],
  );

  const load = useCallback(async () => {
    setLoadError(null);
    const result = await api.get<SessionBody>('/api/admin/session');
    if (!result.ok) {
      setLoadError(result.message);
      return;
    }
    api.setCsrf(result.body.csrfToken);
    setSession(result.body.owner ? { kind: 'signed-in', email: result.body.owner.email } : { kind: 'signed-out' });
  }, [api]);

  useEffect(() => {
    void load();
  }, [load]);

  const [signOutError, setSignOutError] = useState<string | null>(null);
  // Signed out only when the server says so: an owner on a shared computer who saw the sign-in
  // form while the session stayed live would leave the store open to the next person.
  const signOut = async () => {
    setSignOutError(null);
    const result = await api.send('DELETE', '/api/admin/session');
    if (!result.ok && result.status !== 401) {
      setSignOutError(`Not signed out: ${result.message}`);
      return;
    }
    api.setCsrf(null);
    setSession({ kind: 'signed-out', byOwner: true });
  };

  // Signed in from the sign-in page: the Sign in button pressed went with it, which left the
  // focus on the page and nothing said; it goes to the open panel's heading.
  const panelArea = useRef<HTMLElement>(null);
  useEffect(() => {
    if (session.kind === 'signed-in' && session.fresh) focusOn(panelArea.current?.querySelector<HTMLElement>('h2'));
  }, [session]);

  if (loadError) {
    return (
      <main className="admin-main admin-narrow">
        <h1>Store admin</h1>
        <p role="alert">{loadError}</p>
        <button type="button" onClick={() => void load()}>
          {EDITOR_MESSAGES.retryLabel}
        </button>
      </main>
    );
  }
  if (session.kind === 'loading') {
    return (
      <main className="admin-main admin-narrow" aria-busy="true">
        <h1>Store admin</h1>
        <p>Loading…</p>
      </main>
    );
  }
  if (session.kind === 'signed-out') {
    return (
      <SignIn
        api={api}
        signedOut={session.byOwner === true}
        onSignedIn={(email, csrf) => {
          api.setCsrf(csrf);
          setSession({ kind: 'signed-in', email, fresh: true });
        }}
      />
    );
  }
  const props: PanelProps = { api, track };
  return (
    <div className="admin-layout">
      <header className="admin-header">
        <h1>Store admin</h1>
        <p className="admin-owner">
          Signed in as <span>{session.email}</span>
        </p>
        <button type="button" className="admin-secondary" onClick={() => void signOut()}>
          Sign out
        </button>
        {signOutError ? (
          <p className="admin-form-error" role="alert">
            {signOutError}
          </p>
        ) : null}
      </header>
      <nav className="admin-nav" aria-label="Admin sections">
        <ul>
          {PANELS.map((entry) => (
            <li key={entry.id}>
              <button type="button" data-panel={entry.id} aria-current={panel === entry.id ? 'page' : undefined} onClick={() => setPanel(entry.id)}>
                {entry.label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main className="admin-main" id="admin-panel" ref={panelArea}>
        {panel === 'inventory' ? <InventoryPanel {...props} /> : null}
        {panel === 'restock' ? <RestockPanel {...props} /> : null}
        {panel === 'submissions' ? <SubmissionsPanel {...props} /> : null}
        {panel === 'orders' ? <OrdersPanel {...props} /> : null}
        {panel === 'reviews' ? <ReviewsPanel {...props} /> : null}
        {panel === 'api-keys' ? <ApiKeysPanel {...props} /> : null}
        {panel === 'features' ? <FeaturesPanel {...props} /> : null}
      </main>
      {session.expired ? (
        <AdminDialog title="Sign in again" description="Your session has ended. What you typed is still on the page: sign in, then save it." onClose={() => {}}>
          <SignInForm
            api={api}
            email={session.email}
            onSignedIn={(email, csrf) => {
              api.setCsrf(csrf);
              setSession({ kind: 'signed-in', email });
            }}
          />
        </AdminDialog>
      ) : null}
    </div>
  );
}

function SignIn({ api, onSignedIn, signedOut = false }: { api: AdminApi; onSignedIn: (email: string, csrf: string) => void; signedOut?: boolean }) {
  // Signed out by the owner: the Sign out button pressed is gone with the panels, which left the
  // focus on the page and nothing said. The focus goes to this page's heading, and it says so.
  const heading = useRef<HTMLHeadingElement>(null);
  const signedOutId = useId();
  useEffect(() => {
    if (signedOut) heading.current?.focus();
  }, [signedOut]);
  return (
    <main className="admin-main admin-narrow">
      <h1>Store admin</h1>
      {signedOut ? (
        <p role="status" id={signedOutId}>
          You are signed out.
        </p>
      ) : null}
      {/* Focused, it reads the line above too: a status shown with the page may go unannounced. */}
      <h2 className="admin-sign-in-heading" ref={heading} tabIndex={signedOut ? -1 : undefined} aria-describedby={signedOut ? signedOutId : undefined}>
        Sign in
      </h2>
      <SignInForm api={api} onSignedIn={onSignedIn} />
    </main>
  );
}

/** The sign-in form: on its own page, and in the dialog of an ended session (`email` filled in). */
function SignInForm({ api, onSignedIn, email: known = '' }: { api: AdminApi; onSignedIn: (email: string, csrf: string) => void; email?: string }) {
  const [email, setEmail] = useState(known);
  const [password, setPassword] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const emailErrorId = useId();
  const formErrorId = useId();
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    // The seed's editor wording for an email that is not one (templates seed §5).
    if (!isValidEmail(email.trim())) {
      setEmailError(EDITOR_MESSAGES.invalidEmail);
      emailInput.current?.focus();
      return;
    }
    setEmailError(null);
    setBusy(true);
    const result = await api.send<{ owner: { email: string }; csrfToken: string }>('POST', '/api/admin/session', { email: email.trim(), password });
    setBusy(false);
    setPassword('');
    if (result.ok) onSignedIn(result.body.owner.email, result.body.csrfToken);
    else {
      setFormError(result.message);
      // The Sign in button pressed was disabled while busy, which dropped the focus to the page:
      // the emptied password field is where the owner types again.
      passwordInput.current?.focus();
    }
  };

  const emailId = useId();
  const passwordId = useId();
  return (
    <form className="admin-sign-in" onSubmit={(event) => void submit(event)} noValidate aria-describedby={formError ? formErrorId : undefined}>
      <div className="admin-field">
        <label htmlFor={emailId}>Email</label>
        <input ref={emailInput} id={emailId} name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} {...invalidAttrs(emailError && emailErrorId)} />
        {emailError ? (
          <p className="admin-field-error" id={emailErrorId}>
            {emailError}
          </p>
        ) : null}
      </div>
      <div className="admin-field">
        <label htmlFor={passwordId}>Password</label>
        <input ref={passwordInput} id={passwordId} name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      {formError ? (
        <p className="admin-form-error" role="alert" id={formErrorId}>
          {formError}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        Sign in
      </button>
    </form>
  );
}

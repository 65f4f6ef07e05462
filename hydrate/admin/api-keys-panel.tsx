import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { invalidAttrs } from '../runtime/form-fields.ts';
import { EDITOR_MESSAGES } from '../shared/editor-messages.ts';
import { shortDate } from './admin-api.ts';
import { AdminDialog } from './admin-dialog.tsx';
import type { PanelProps } from './admin-app.tsx';
import { LoadError, StatusLine, useFocusRequest } from './panel-parts.tsx';
import { OWNER_EVENTS } from './owner-events.ts';
import { AdminTable } from './table-wrap.tsx';

// API keys for scripts: `Authorization: Bearer <key>` passes the [admin] guard. The
// key-creation modal has two steps (name, then the key shown once with copy and complete;
// cancel on the first); delete asks for confirmation. The server keeps only a hash.

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const EVENTS = OWNER_EVENTS.apiKeys;
const NAME_MAX = 60;

export function ApiKeysPanel({ api, track }: PanelProps) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const [showTerms, setShowTerms] = useState(false);
  const headingId = useId();
  const termsId = useId();
  const statusLine = useRef<HTMLParagraphElement>(null);
  const focusLater = useFocusRequest();

  const load = useCallback(async () => {
    const result = await api.get<{ apiKeys: ApiKey[] }>('/api/admin/api-keys');
    if (!result.ok) return setError(EDITOR_MESSAGES.loadResultsFailed);
    setError(null);
    setKeys(result.body.apiKeys);
  }, [api]);

  useEffect(() => {
    void load();
  }, [load]);

  // The dialog gives the focus back to its opener, the Delete button of a row that is now
  // gone: it goes to the line that says the key was deleted instead (after the dialog's own
  // hand-back, which runs as the dialog unmounts in the same render).
  const confirmDelete = async () => {
    if (!deleting) return;
    track(EVENTS.deleteKeyConfirm);
    const key = deleting;
    const result = await api.send('DELETE', `/api/admin/api-keys/${encodeURIComponent(key.id)}`);
    setDeleting(null);
    setStatus(result.ok ? `Key “${key.name}” deleted.` : result.message);
    focusLater(() => statusLine.current);
    void load();
  };

  return (
    <section className="admin-panel" aria-labelledby={headingId} data-admin-panel="api-keys">
      <h2 id={headingId}>API keys</h2>
      <p>
        Scripts call the admin API with <code>Authorization: Bearer &lt;key&gt;</code>.{' '}
        <a href="/api/openapi.json" onClick={() => track(EVENTS.learnMore)}>
          Learn more about the API
        </a>
      </p>
      <p>
        <button type="button" className="admin-link-button" aria-expanded={showTerms} aria-controls={termsId} onClick={() => { track(EVENTS.termsOfUse); setShowTerms(!showTerms); }}>
          Terms of use
        </button>
      </p>
      <div id={termsId} hidden={!showTerms} className="admin-note">
        <p>A key acts as the owner for every admin call (stock, restock notices, submissions, orders). Keep it secret, give each script its own key, and delete a key you no longer use.</p>
      </div>
      <div className="admin-toolbar">
        <button type="button" data-action="create-key" onClick={() => { track(EVENTS.createKey); setCreating(true); }}>
          Create key
        </button>
      </div>
      <StatusLine text={status} ref={statusLine} />
      <LoadError message={error} onRetry={() => void load()} />
      {keys && keys.length === 0 ? <p>No API keys yet.</p> : null}
      {keys && keys.length > 0 ? (
        <AdminTable label="Your API keys" columns={['Name', 'Key', 'Created', 'Last used', { hidden: 'Actions' }]}>
          {keys.map((key) => (
            <tr key={key.id} data-key-id={key.id}>
              <th scope="row">{key.name}</th>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{shortDate(key.createdAt)}</td>
              <td>{key.lastUsedAt ? shortDate(key.lastUsedAt) : 'Never'}</td>
              <td>
                <button type="button" className="admin-danger" onClick={() => { track(EVENTS.deleteKey); setDeleting(key); }}>
                  Delete<span className="admin-visually-hidden"> key {key.name}</span>
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      ) : null}
      {creating ? (
        <KeyCreationModal
          panel={{ api, track }}
          onDone={(created) => {
            setCreating(false);
            if (created) setStatus(`Key “${created}” created.`);
            void load();
          }}
        />
      ) : null}
      {deleting ? (
        <AdminDialog title="Delete API key?" role="alertdialog" description={`Scripts using “${deleting.name}” stop working at once. This cannot be undone.`} onClose={() => setDeleting(null)}>
          <div className="admin-dialog-actions">
            <button type="button" className="admin-secondary" onClick={() => setDeleting(null)}>
              Keep key
            </button>
            <button type="button" className="admin-danger" data-action="confirm-delete" onClick={() => void confirmDelete()}>
              Delete key
            </button>
          </div>
        </AdminDialog>
      ) : null}
    </section>
  );
}

function KeyCreationModal({ panel, onDone }: { panel: PanelProps; onDone: (createdName: string | null) => void }) {
  const { api, track } = panel;
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [copied, setCopied] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const nameId = useId();
  const nameErrorId = useId();
  const secretId = useId();
  const secretInput = useRef<HTMLInputElement>(null);

  const cancel = () => {
    track(EVENTS.modalCancel);
    onDone(null);
  };

  const next = async (event: FormEvent) => {
    event.preventDefault();
    track(EVENTS.modalNext);
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > NAME_MAX) {
      setNameError(`Enter a key name of 1 to ${NAME_MAX} characters.`);
      return;
    }
    setNameError(null);
    setBusy(true);
    const result = await api.send<{ apiKey: ApiKey; secret: string }>('POST', '/api/admin/api-keys', { name: trimmed });
    setBusy(false);
    if (!result.ok) return setNameError(result.message);
    setCreated({ name: result.body.apiKey.name, secret: result.body.secret });
  };

  const copy = async () => {
    if (!created) return;
    track(EVENTS.modalCopy);
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied('Key copied to the clipboard.');
    } catch {
      // No clipboard permission: select the text so the owner can copy it by hand.
      secretInput.current?.select();
      setCopied('Select the key and copy it.');
    }
  };

  const complete = () => {
    track(EVENTS.modalComplete);
    onDone(created?.name ?? null);
  };

  if (created) {
    return (
      <AdminDialog title="Your new API key" description="Copy it now: it is shown only once." onClose={complete} step="key">
        <div className="admin-field">
          <label htmlFor={secretId}>API key “{created.name}”</label>
          <input ref={secretInput} id={secretId} readOnly value={created.secret} className="admin-secret" data-secret="true" onFocus={(e) => e.currentTarget.select()} />
        </div>
        <p className="admin-status" role="status">
          {copied}
        </p>
        <div className="admin-dialog-actions">
          <button type="button" className="admin-secondary" data-action="copy-key" onClick={() => void copy()}>
            Copy
          </button>
          <button type="button" data-action="complete" onClick={complete}>
            Done
          </button>
        </div>
      </AdminDialog>
    );
  }
  return (
    <AdminDialog title="Create API key" description="Name the key after the script that will use it." onClose={cancel} step="name">
      <form onSubmit={(event) => void next(event)} noValidate>
        <div className="admin-field">
          <label htmlFor={nameId}>Key name</label>
          <input id={nameId} value={name} maxLength={NAME_MAX} onChange={(e) => setName(e.target.value)} {...invalidAttrs(nameError && nameErrorId)} />
          {nameError ? (
            <p className="admin-field-error" id={nameErrorId}>
              {nameError}
            </p>
          ) : null}
        </div>
        <div className="admin-dialog-actions">
          <button type="button" className="admin-secondary" data-action="cancel" onClick={cancel}>
            Cancel
          </button>
          <button type="submit" data-action="next" disabled={busy}>
            Next
          </button>
        </div>
      </form>
    </AdminDialog>
  );
}

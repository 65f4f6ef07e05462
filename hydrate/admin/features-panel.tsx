import { useCallback, useEffect, useId, useState } from 'react';
import { EDITOR_MESSAGES } from '../shared/editor-messages.ts';
import type { AbTestConfig, SiteFeatures } from '../shared/feature-toggles.ts';
import type { PanelProps } from './admin-app.tsx';
import { shortDate } from './admin-api.ts';
import { LoadError, StatusLine } from './panel-parts.tsx';
import { AdminTable } from './table-wrap.tsx';

// Feature toggles (the toggles API, renderer/api/routes/feature-routes.ts): every toggle in
// force with the site folder's value and the admin's override, a switch per toggle and a
// reset to the folder's value. PUT replaces the whole stored override, so a switch sends the
// stored override with one name changed, and a reset sends it with that name left out (or
// DELETE when nothing would be left).

/** GET /api/admin/features (the contract's AdminFeatures). */
export interface AdminFeatures {
  features: Record<string, boolean>;
  experiments: Record<string, AbTestConfig>;
  defaults: Record<string, boolean>;
  site: SiteFeatures;
  stored: (SiteFeatures & { updatedAt: number }) | null;
  known: { name: string; description: string }[];
}

export interface FeatureRow {
  name: string;
  description: string | null;
  /** What the site folder gives: its own value, else the built-in default. */
  folder: boolean;
  folderSource: 'site folder' | 'default';
  override: boolean | null;
  on: boolean;
}

/** One row per toggle in force, known toggles first (in their order), then the rest by name. */
export function featureRows(view: AdminFeatures): FeatureRow[] {
  const known = new Map(view.known.map((k, index) => [k.name, { description: k.description, index }]));
  const names = Object.keys(view.features).sort((a, b) => (known.get(a)?.index ?? Infinity) - (known.get(b)?.index ?? Infinity) || a.localeCompare(b));
  return names.map((name) => {
    const inFolder = Object.hasOwn(view.site.features, name);
    return {
      name,
      description: known.get(name)?.description ?? null,
      folder: inFolder ? view.site.features[name] : (view.defaults[name] ?? false),
      folderSource: inFolder ? 'site folder' : 'default',
      override: view.stored && Object.hasOwn(view.stored.features, name) ? view.stored.features[name] : null,
      on: view.features[name] === true,
    };
  });
}

/** The stored override with `name` set to `on`, or (on = null) without `name`; null when empty. */
export function nextOverride(stored: SiteFeatures | null, name: string, on: boolean | null): SiteFeatures | null {
  const features = { ...(stored?.features ?? {}) };
  if (on === null) delete features[name];
  else features[name] = on;
  const experiments = stored?.experiments ?? {};
  return Object.keys(features).length === 0 && Object.keys(experiments).length === 0 ? null : { features, experiments };
}

const onOff = (on: boolean) => (on ? 'On' : 'Off');

export function FeaturesPanel({ api }: PanelProps) {
  const [view, setView] = useState<AdminFeatures | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const headingId = useId();

  const load = useCallback(async () => {
    const result = await api.get<AdminFeatures>('/api/admin/features');
    if (!result.ok) return setError(EDITOR_MESSAGES.loadResultsFailed);
    setError(null);
    setView(result.body);
  }, [api]);
  useEffect(() => {
    void load();
  }, [load]);

  /** Writes the override for `name` (null: back to the folder's value) and says what changed. */
  const write = async (name: string, on: boolean | null) => {
    if (!view) return;
    const next = nextOverride(view.stored, name, on);
    setBusy(true);
    const result = next ? await api.send<AdminFeatures>('PUT', '/api/admin/features', next) : await api.send<AdminFeatures>('DELETE', '/api/admin/features');
    setBusy(false);
    if (!result.ok) return setStatus(result.message);
    setView(result.body);
    const inForce = onOff(result.body.features[name] ?? false).toLowerCase();
    setStatus(on === null ? `${name} is back to the site folder's value (${inForce}).` : `${name} is now ${inForce}.`);
  };

  const rows = view ? featureRows(view) : null;
  const tests = view ? Object.entries(view.experiments) : [];
  return (
    <section className="admin-panel" aria-labelledby={headingId} data-admin-panel="features">
      <h2 id={headingId}>Features</h2>
      <p className="admin-note">
        The site folder's <code>site.json</code> sets each toggle; a switch here overrides it for this store until you reset it. Pages use the change from their next
        view.
      </p>
      <StatusLine text={status} />
      <LoadError message={error} onRetry={() => void load()} />
      {rows ? (
        <AdminTable label="Feature toggles" columns={['Feature', 'Site folder', 'Override', 'In force', { hidden: 'Reset' }]}>
          {rows.map((row) => (
            <FeatureRowView key={row.name} row={row} busy={busy} onSwitch={(on) => void write(row.name, on)} onReset={() => void write(row.name, null)} />
          ))}
        </AdminTable>
      ) : null}
      {view?.stored ? <p className="admin-tag">Override saved {shortDate(view.stored.updatedAt)}.</p> : null}
      {tests.length > 0 ? (
        <>
          <h3>A/B tests</h3>
          <ul data-admin-experiments>
            {tests.map(([name, test]) => (
              <li key={name}>
                <code>{name}</code>: variant <code>{test.variant}</code> (segment {test.segmentName})
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function FeatureRowView({ row, busy, onSwitch, onReset }: { row: FeatureRow; busy: boolean; onSwitch: (on: boolean) => void; onReset: () => void }) {
  const switchId = useId();
  const descriptionId = useId();
  return (
    <tr data-feature={row.name}>
      <th scope="row">
        <code>{row.name}</code>
        {row.description ? (
          <p className="admin-tag admin-feature-description" id={descriptionId}>
            {row.description}
          </p>
        ) : null}
      </th>
      <td data-cell="folder">
        {onOff(row.folder)} <span className="admin-tag">({row.folderSource})</span>
      </td>
      <td data-cell="override">{row.override === null ? 'None' : onOff(row.override)}</td>
      <td>
        <span className="admin-switch">
          <input
            id={switchId}
            type="checkbox"
            role="switch"
            checked={row.on}
            disabled={busy}
            aria-describedby={row.description ? descriptionId : undefined}
            onChange={(event) => onSwitch(event.target.checked)}
          />
          {/* Named by the toggle alone: a switch announces its own state. */}
          <label htmlFor={switchId}>
            <span className="admin-visually-hidden">{row.name}</span>
            <span aria-hidden="true">{onOff(row.on)}</span>
          </label>
        </span>
      </td>
      <td>
        {row.override !== null ? (
          <button type="button" className="admin-secondary" disabled={busy} onClick={onReset}>
            Reset<span className="admin-visually-hidden"> {row.name} to the site folder's value</span>
          </button>
        ) : null}
      </td>
    </tr>
  );
}

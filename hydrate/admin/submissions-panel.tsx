import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { EDITOR_MESSAGES } from '../shared/editor-messages.ts';
import { shortDate } from './admin-api.ts';
import type { PanelProps } from './admin-app.tsx';
import { LoadError, useFocusRequest } from './panel-parts.tsx';
import { AdminTable } from './table-wrap.tsx';

// Form submissions: one form at a time, newest first, more on demand; "Export as CSV"
// downloads every submission of the form from the server (renderer/admin/csv.ts quotes each
// cell and defuses spreadsheet formulas).

interface SubmissionsPage {
  forms: { id: string; name: string }[];
  form: { id: string; name: string; fields: { id: string; title: string }[] } | null;
  submissions: { id: string; createdOn: string; pagePath: string; values: Record<string, string> }[];
  nextPageCursor: string | null;
}

export function SubmissionsPanel({ api }: PanelProps) {
  const [formId, setFormId] = useState<string | null>(null);
  const [data, setData] = useState<SubmissionsPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const headingId = useId();
  const selectId = useId();
  const section = useRef<HTMLElement>(null);
  const focusLater = useFocusRequest();

  const load = useCallback(async () => {
    const result = await api.get<SubmissionsPage>(pageUrl(formId, null));
    if (!result.ok) return setError(EDITOR_MESSAGES.loadResultsFailed);
    setError(null);
    setData(result.body);
  }, [api, formId]);

  useEffect(() => {
    void load();
  }, [load]);

  // The next page's first row takes the focus (the button is gone after the last page).
  const more = async () => {
    if (!data?.nextPageCursor) return;
    const result = await api.get<SubmissionsPage>(pageUrl(formId, data.nextPageCursor));
    if (!result.ok) return setError(EDITOR_MESSAGES.loadResultsFailed);
    const before = data.submissions.length;
    setData({ ...result.body, submissions: [...data.submissions, ...result.body.submissions] });
    focusLater(() => section.current?.querySelectorAll<HTMLElement>('tbody tr > td:first-child')[before]);
  };

  const form = data?.form ?? null;
  return (
    <section className="admin-panel" aria-labelledby={headingId} data-admin-panel="submissions" ref={section}>
      <h2 id={headingId}>Form submissions</h2>
      <LoadError message={error} onRetry={() => void load()} />
      {data ? (
        <div className="admin-toolbar">
          <label htmlFor={selectId}>Form</label>
          <select id={selectId} value={form?.id ?? ''} onChange={(e) => setFormId(e.target.value)}>
            {data.forms.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
          {form ? (
            <a className="admin-button-link" href={`/api/admin/submissions/export?formId=${encodeURIComponent(form.id)}`} download data-action="export-csv">
              Export as CSV<span className="admin-visually-hidden"> ({form.name})</span>
            </a>
          ) : null}
        </div>
      ) : null}
      {form && data && data.submissions.length === 0 ? <p>No submissions for this form yet.</p> : null}
      {form && data && data.submissions.length > 0 ? (
        <AdminTable label={`Submissions of ${form.name}`} columns={['Submitted', 'Page', ...form.fields.map((field) => field.title)]}>
          {data.submissions.map((submission) => (
            <tr key={submission.id}>
              <td>{shortDate(submission.createdOn)}</td>
              <td className="admin-submission-value">{submission.pagePath}</td>
              {form.fields.map((field) => (
                <td key={field.id} className="admin-submission-value">
                  <LongValue text={submission.values[field.id] ?? ''} label={field.title} />
                </td>
              ))}
            </tr>
          ))}
        </AdminTable>
      ) : null}
      {data?.nextPageCursor ? (
        <button type="button" className="admin-secondary" onClick={() => void more()}>
          More submissions
        </button>
      ) : null}
    </section>
  );
}

function pageUrl(formId: string | null, cursor: string | null): string {
  const params = new URLSearchParams();
  if (formId) params.set('formId', formId);
  if (cursor) params.set('cursor', cursor);
  return `/api/admin/submissions?${params}`;
}

/** Characters of a value shown before "Show all": a few lines of the cell's width. */
export const VALUE_PREVIEW = 200;

/**
 * A visitor's value in a cell. The cell wraps anywhere (a long address or a pasted link has no
 * spaces to break at, and widened the table past the screen); a value longer than
 * VALUE_PREVIEW shows its start and a "Show all" button that opens the whole of it in place.
 */
function LongValue({ text, label }: { text: string; label: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (text.length <= VALUE_PREVIEW) return <>{text}</>;
  return (
    <>
      <span id={id}>{open ? text : `${text.slice(0, VALUE_PREVIEW)}…`}</span>{' '}
      <button type="button" className="admin-link-button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {open ? 'Show less' : `Show all (${text.length} characters)`}
        <span className="admin-visually-hidden"> of {label}</span>
      </button>
    </>
  );
}

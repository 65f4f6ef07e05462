import { useId, useRef, useState } from 'react';
import { shortDate } from './admin-api.ts';
import type { PanelProps } from './admin-app.tsx';
import { focusOn, LoadError, StatusLine, useCursorList, useFocusRequest } from './panel-parts.tsx';
import { AdminTable } from './table-wrap.tsx';

// Restock sign-ups per variant (B12 groups), with send for one variant (B13) and send-all
// (B14) for every variant that is back in stock and has sign-ups waiting.

interface SignUpGroup {
  productId: string;
  variantId: string;
  productTitle: string | null;
  sku: string | null;
  variantAttributes: Record<string, string>;
  totalCount: number;
  pendingCount: number;
  latestSignUpOn: string;
  inStock: boolean;
}

interface GroupsPage {
  signUpGroups: SignUpGroup[];
  hasNextPage: boolean;
  nextPageCursor: string | null;
}

interface SendAllResult {
  results: { productId: string; variantId: string; sentCount?: number; code?: string; error?: string }[];
}

const GROUPS_URL = '/api/site-users/account/notifications/restock/groups?limit=50';

export function RestockPanel({ api }: PanelProps) {
  const list = useCursorList<SignUpGroup, GroupsPage>(
    api,
    (cursor) => (cursor ? `${GROUPS_URL}&cursor=${encodeURIComponent(cursor)}` : GROUPS_URL),
    (body) => ({ items: body.signUpGroups, cursor: body.nextPageCursor }),
  );
  const groups = list.items;
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  const section = useRef<HTMLElement>(null);
  const statusLine = useRef<HTMLParagraphElement>(null);
  const focusLater = useFocusRequest();

  // A sent notice leaves its button disabled (nobody waits any more): the focus goes to the
  // line that says what was sent, not to the page.
  const send = async (group: SignUpGroup) => {
    setBusy(true);
    const result = await api.send<{ sentCount: number }>('POST', '/api/site-users/account/notifications/restock/send', { productId: group.productId, variantId: group.variantId });
    setBusy(false);
    setStatus(result.ok ? `${notices(result.body.sentCount)} sent for ${variantName(group)}.` : result.message);
    focusOn(statusLine.current);
    if (result.ok) void list.reload();
  };

  const more = async () => {
    const before = groups?.length ?? 0;
    await list.more();
    focusLater(() => section.current?.querySelectorAll<HTMLElement>('tbody tr > th')[before]);
  };

  const ready = (groups ?? []).filter((group) => group.inStock && group.pendingCount > 0);
  const sendAll = async () => {
    if (ready.length === 0) return;
    setBusy(true);
    const result = await api.send<SendAllResult>('POST', '/api/site-users/account/notifications/restock/send/all', {
      sendRequests: ready.slice(0, 100).map((group) => ({ productId: group.productId, variantId: group.variantId })),
    });
    setBusy(false);
    if (!result.ok) {
      setStatus(result.message);
      focusOn(statusLine.current);
      return;
    }
    const sent = result.body.results.reduce((sum, item) => sum + (item.sentCount ?? 0), 0);
    const failed = result.body.results.filter((item) => item.error).length;
    setStatus(`${notices(sent)} sent${failed > 0 ? `; ${failed} variant${failed === 1 ? '' : 's'} could not be sent` : ''}.`);
    focusOn(statusLine.current);
    void list.reload();
  };

  return (
    <section className="admin-panel" aria-labelledby={headingId} data-admin-panel="restock" ref={section}>
      <h2 id={headingId}>Restock sign-ups</h2>
      <p>Visitors who asked to hear when a sold-out variant is back. Set its stock in Inventory, then send the notice.</p>
      <div className="admin-toolbar">
        <button type="button" onClick={() => void sendAll()} disabled={busy || ready.length === 0} data-action="send-all">
          Send all ready notices
        </button>
      </div>
      <StatusLine text={status} ref={statusLine} />
      <LoadError message={list.error} onRetry={() => void list.reload()} />
      {groups && groups.length === 0 ? <p>No restock sign-ups yet.</p> : null}
      {groups && groups.length > 0 ? (
        <AdminTable label="Restock sign-ups by variant" columns={['Variant', 'Waiting', 'All', 'Latest', 'Stock', { hidden: 'Actions' }]}>
          {groups.map((group) => (
            <tr key={`${group.productId}/${group.variantId}`} data-variant-id={group.variantId}>
              <th scope="row">{variantName(group)}</th>
              <td>{group.pendingCount}</td>
              <td>{group.totalCount}</td>
              <td>{shortDate(group.latestSignUpOn)}</td>
              <td>{group.inStock ? 'In stock' : 'Sold out'}</td>
              <td>
                <button type="button" disabled={busy || !group.inStock || group.pendingCount === 0} onClick={() => void send(group)}>
                  Send notice<span className="admin-visually-hidden"> for {variantName(group)}</span>
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      ) : null}
      {list.hasMore ? (
        <button type="button" className="admin-secondary" onClick={() => void more()}>
          More sign-ups
        </button>
      ) : null}
    </section>
  );
}

function variantName(group: SignUpGroup): string {
  const attributes = Object.values(group.variantAttributes).join(' / ');
  const title = group.productTitle ?? group.productId;
  return [title, attributes, group.sku ? `(${group.sku})` : ''].filter(Boolean).join(' ');
}

const notices = (count: number) => (count === 1 ? '1 notice' : `${count} notices`);

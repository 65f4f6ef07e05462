// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeAdminServer, mountPanel, unmountPanels, type FakeAdminServer } from '../test-support/admin-panel-harness.ts';
import { OWNER_CSRF_HEADER } from './admin-api.ts';
import { FeaturesPanel, featureRows, nextOverride, type AdminFeatures } from './features-panel.tsx';

// The features panel against the toggles contract (helper E's "Feature toggles API"): GET
// /api/admin/features -> AdminFeatures; PUT {features, experiments} REPLACES the stored
// override; DELETE drops it. The fake server merges as the real one does.

const DEFAULTS = { bnpl: true, 'quick-view': true, 'session-recording': false };
const KNOWN = [
  { name: 'bnpl', description: 'Buy-now-pay-later pill.' },
  { name: 'quick-view', description: 'Quick View button on shop cards.' },
  { name: 'session-recording', description: 'Session recording gate.' },
];
const TEST = { 'commerce-activation-session-recording': { variant: 'control', segmentName: 'default' } };

function view(site: AdminFeatures['site'], stored: AdminFeatures['stored']): AdminFeatures {
  return {
    features: { ...DEFAULTS, ...site.features, ...stored?.features },
    experiments: { ...site.experiments, ...stored?.experiments },
    defaults: DEFAULTS,
    site,
    stored,
    known: KNOWN,
  };
}

/** A server holding one site folder's toggles and the stored override, as feature-routes.ts does. */
function toggleServer(site: AdminFeatures['site'], initial: AdminFeatures['stored'] = null) {
  let stored = initial;
  return fakeAdminServer((method, url, body) => {
    if (url !== '/api/admin/features') return { status: 404, body: { error: 'Not found.', code: 'NOT_FOUND' } };
    if (method === 'PUT') stored = { ...(body as AdminFeatures['site']), experiments: (body as AdminFeatures['site']).experiments ?? {}, updatedAt: Date.UTC(2026, 10, 28, 14) };
    if (method === 'DELETE') stored = null;
    return { status: 200, body: view(site, stored) };
  });
}

afterEach(unmountPanels);

const mount = (server: FakeAdminServer) => mountPanel(FeaturesPanel, server, { csrf: 'owner-csrf-token' });

const row = (el: HTMLElement, name: string) => el.querySelector(`tr[data-feature="${name}"]`)!;
const cell = (el: HTMLElement, name: string, which: string) => row(el, name).querySelector(`[data-cell="${which}"]`)!.textContent;
const switchOf = (el: HTMLElement, name: string) => row(el, name).querySelector<HTMLInputElement>('input[role="switch"]')!;

describe('features panel', () => {
  it('lists each toggle with the folder value, the override and a labelled switch', async () => {
    const el = await mount(toggleServer({ features: { bnpl: false, 'gift-wrap': true }, experiments: TEST }, { features: { bnpl: true }, experiments: {}, updatedAt: 0 }));
    expect([...el.querySelectorAll('tbody tr')].map((tr) => tr.getAttribute('data-feature'))).toEqual(['bnpl', 'quick-view', 'session-recording', 'gift-wrap']);
    expect(cell(el, 'bnpl', 'folder')).toBe('Off (site folder)');
    expect(cell(el, 'bnpl', 'override')).toBe('On');
    expect(switchOf(el, 'bnpl').checked).toBe(true);
    expect(cell(el, 'quick-view', 'folder')).toBe('On (default)');
    expect(cell(el, 'quick-view', 'override')).toBe('None');
    expect(switchOf(el, 'session-recording').checked).toBe(false);
    // Each switch is named by its toggle through a label and described by what it does.
    const input = switchOf(el, 'quick-view');
    const label = el.querySelector(`label[for="${input.id}"]`)!;
    expect(label.querySelector('.admin-visually-hidden')!.textContent).toBe('quick-view');
    expect(el.querySelector(`[id="${input.getAttribute('aria-describedby')}"]`)!.textContent).toBe('Quick View button on shop cards.');
    // Only an overridden toggle has a reset.
    expect(row(el, 'bnpl').querySelector('button')!.textContent).toBe("Reset bnpl to the site folder's value");
    expect(row(el, 'quick-view').querySelector('button')).toBeNull();
    expect(el.querySelector('[data-admin-experiments]')!.textContent).toContain('commerce-activation-session-recording: variant control');
  });

  it('switches one toggle with the CSRF header, keeping the rest of the override; reset puts the folder value back', async () => {
    const server = toggleServer({ features: {}, experiments: {} }, { features: { bnpl: false }, experiments: TEST, updatedAt: 0 });
    const el = await mount(server);

    await act(async () => switchOf(el, 'quick-view').click());
    expect(server.calls.at(-1)).toBe('PUT /api/admin/features');
    expect(server.bodies.at(-1)).toEqual({ features: { bnpl: false, 'quick-view': false }, experiments: TEST });
    expect(server.headers.at(-1)![OWNER_CSRF_HEADER]).toBe('owner-csrf-token');
    expect(switchOf(el, 'quick-view').checked).toBe(false);
    expect(cell(el, 'quick-view', 'override')).toBe('Off');
    expect(el.querySelector('[role="status"]')!.textContent).toBe('quick-view is now off.');

    await act(async () => (row(el, 'quick-view').querySelector('button') as HTMLButtonElement).click());
    expect(server.bodies.at(-1)).toEqual({ features: { bnpl: false }, experiments: TEST });
    expect(switchOf(el, 'quick-view').checked).toBe(true);
    expect(el.querySelector('[role="status"]')!.textContent).toBe("quick-view is back to the site folder's value (on).");

    // The last override gone and no stored test left: the whole override is dropped.
    expect(nextOverride({ features: { bnpl: false }, experiments: {} }, 'bnpl', null)).toBeNull();
  });

  it('resets the last override with DELETE; a refused write shows the server message; a failed read offers a retry', async () => {
    const server = toggleServer({ features: {}, experiments: {} }, { features: { bnpl: false }, experiments: {}, updatedAt: 0 });
    const el = await mount(server);
    await act(async () => (row(el, 'bnpl').querySelector('button') as HTMLButtonElement).click());
    expect(server.calls.at(-1)).toBe('DELETE /api/admin/features');
    expect(server.headers.at(-1)![OWNER_CSRF_HEADER]).toBe('owner-csrf-token');
    expect(switchOf(el, 'bnpl').checked).toBe(true);

    let reads = 0;
    const failing = fakeAdminServer((method, url) => {
      // The session is live with the token sent, so the refusal is not retried and stands.
      if (url === '/api/admin/session') return { status: 200, body: { owner: { email: 'owner@example.com' }, csrfToken: 'owner-csrf-token' } };
      if (method === 'GET') return ++reads === 1 ? { status: 500, body: {} } : { status: 200, body: view({ features: {}, experiments: {} }, null) };
      return { status: 403, body: { error: 'Owner session check failed.', code: 'OWNER_CSRF_FAIL' } };
    });
    unmountPanels();
    const again = await mount(failing);
    expect(again.querySelector('[role="alert"] p')!.textContent).toBe('Unable to load results.');
    await act(async () => (again.querySelector('[role="alert"] button') as HTMLButtonElement).click());
    await act(async () => switchOf(again, 'bnpl').click());
    expect(again.querySelector('[role="status"]')!.textContent).toBe('Owner session check failed.');
    expect(switchOf(again, 'bnpl').checked).toBe(true);
  });

  it('featureRows orders known toggles first and takes an unset folder value from the defaults', () => {
    const rows = featureRows(view({ features: { 'a-new': false }, experiments: {} }, null));
    expect(rows.map((r) => [r.name, r.folder, r.folderSource, r.override, r.on])).toEqual([
      ['bnpl', true, 'default', null, true],
      ['quick-view', true, 'default', null, true],
      ['session-recording', false, 'default', null, false],
      ['a-new', false, 'site folder', null, false],
    ]);
  });
});

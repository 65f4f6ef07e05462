// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeAdminServer, mountPanel, unmountPanels } from '../test-support/admin-panel-harness.ts';
import { SubmissionsPanel, VALUE_PREVIEW } from './submissions-panel.tsx';

// The submissions table with a value too long for a cell: its start, and the whole of it a
// button press away.

afterEach(unmountPanels);

describe('submissions panel', () => {
  it('a long value shows its start and "Show all", which opens the whole value in place', async () => {
    const long = `https://example.com/${'a'.repeat(600)}`;
    const server = fakeAdminServer(() => ({
      status: 200,
      body: {
        forms: [{ id: 'contact', name: 'Contact' }],
        form: { id: 'contact', name: 'Contact', fields: [{ id: 'msg', title: 'Message' }, { id: 'name', title: 'Name' }] },
        submissions: [{ id: 's1', createdOn: '2026-01-15T12:30:00.000Z', pagePath: '/contact', values: { msg: long, name: 'Ada' } }],
        nextPageCursor: null,
      },
    }));
    const el = await mountPanel(SubmissionsPanel, server);
    const cells = el.querySelectorAll('tbody td.admin-submission-value');
    expect(cells[2]!.textContent).toBe('Ada');
    const cell = cells[1]!;
    const button = cell.querySelector('button')!;
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.textContent).toBe(`Show all (${long.length} characters) of Message`);
    expect(cell.querySelector('span')!.textContent).toBe(`${long.slice(0, VALUE_PREVIEW)}…`);
    await act(async () => button.click());
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(button.getAttribute('aria-controls')!)!.textContent).toBe(long);
  });
});

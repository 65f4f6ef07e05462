import { describe, expect, it } from 'vitest';
import { ensurePostgres, parseClusters, type CommandResult, type RunCommand } from './global-setup.ts';

/** A fake machine: which programs exist, whether the server answers, what was run. */
function machine(state: { installed: boolean; up: boolean; clusters?: string; startsOnCommand?: boolean }) {
  const calls: string[] = [];
  const run: RunCommand = (program, args): CommandResult => {
    calls.push([program, ...args].join(' '));
    if (!state.installed) return { status: null, stdout: '' };
    switch (program) {
      case 'pg_isready':
        return { status: state.up ? 0 : 2, stdout: '' };
      case 'pg_lsclusters':
        return { status: 0, stdout: state.clusters ?? '' };
      case 'pg_ctlcluster':
        if (state.startsOnCommand !== false) state.up = true;
        return { status: 0, stdout: '' };
      default:
        return { status: null, stdout: '' };
    }
  };
  return { run, calls };
}

describe('parseClusters', () => {
  it('reads version, name and status from pg_lsclusters lines', () => {
    const text = '15  main    5432 down   postgres /var/lib/postgresql/15/main /var/log/x.log\n16 extra 5433 online postgres /d /l\n\n';
    expect(parseClusters(text)).toEqual([
      { version: '15', name: 'main', status: 'down' },
      { version: '16', name: 'extra', status: 'online' },
    ]);
  });

  it('ignores a header and junk', () => {
    expect(parseClusters('Ver Cluster Port Status Owner\nnot a line')).toEqual([]);
  });
});

describe('ensurePostgres', () => {
  it('does nothing when the server already answers', async () => {
    const m = machine({ installed: true, up: true });
    expect(await ensurePostgres({ run: m.run })).toBe('already-running');
    expect(m.calls.some((c) => c.startsWith('pg_ctlcluster'))).toBe(false);
  });

  it('starts the stopped cluster without systemd and waits for it', async () => {
    const m = machine({ installed: true, up: false, clusters: '15 main 5432 down postgres /d /l\n' });
    expect(await ensurePostgres({ run: m.run, pollMs: 1 })).toBe('started');
    expect(m.calls).toContain('pg_ctlcluster --skip-systemctl-redirect 15 main start');
  });

  it('reports a missing installation without starting anything', async () => {
    const m = machine({ installed: false, up: false });
    expect(await ensurePostgres({ run: m.run })).toBe('not-installed');
    expect(m.calls.some((c) => c.startsWith('pg_ctlcluster'))).toBe(false);
  });

  it('gives up after the wait when the server never answers', async () => {
    const m = machine({ installed: true, up: false, clusters: '15 main 5432 down postgres /d /l', startsOnCommand: false });
    expect(await ensurePostgres({ run: m.run, waitMs: 5, pollMs: 1 })).toBe('start-failed');
  });
});

// Both ends of a benchmark job that runs in a process of its own (a fresh process keeps each
// engine's JIT state, caches and heap out of the others' figures). The parent builds the job
// with esbuild and forks it with the job's spec as JSON in argv[2]; the job answers once over
// the IPC channel. run.ts/job.ts, fresh.ts/fresh-job.ts and cold-start.ts/cold-render-job.ts
// all speak this one protocol.
import { fork } from 'node:child_process';

interface Reply<R> {
  ok: boolean;
  result?: R;
  error?: string;
}

/**
 * Flags of an allocation job: a young generation larger than the measured renders, so that
 * none of them triggers a GC (measure.ts allocationPerRender), and `gc()` to start clean.
 */
export const ALLOC_EXEC_ARGV: readonly string[] = ['--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64'];

/**
 * Builds a job into plain JavaScript. The jobs do not run through the tsx loader: tsx
 * compiles with `keepNames`, which wraps every closure creation in `__name(fn, …)` (an
 * Object.defineProperty), a cost Quire's closure-built templates would pay and no built
 * deployment has (run.ts buildJobBundle, bench/README.md).
 */
export async function bundleJob(source: string, outfile: string): Promise<string> {
  const { build } = await import('esbuild');
  await build({ entryPoints: [source], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'error' });
  return outfile;
}

/** Forks one job and waits for its one answer; `label` names the job in errors. */
export function forkJob<R>(jobPath: string, spec: unknown, label: string, execArgv: readonly string[] = []): Promise<R> {
  return new Promise((resolve, reject) => {
    const child = fork(jobPath, [JSON.stringify(spec)], { execArgv: [...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    child.on('message', (m: Reply<R>) => {
      settled = true;
      if (m.ok && m.result) resolve(m.result);
      else reject(new Error(`${label}: ${m.error}`));
    });
    child.on('exit', (code) => {
      if (!settled) reject(new Error(`${label}: job exited with ${code}`));
    });
  });
}

/**
 * The job's end: when this process was forked with a spec, runs it and sends the result (or
 * the error's stack) to the parent, then exits. Imported anywhere else, it does nothing.
 */
export function serveJob<S, R>(run: (spec: S) => Promise<R>): void {
  if (!process.send || !process.argv[2]) return;
  const spec = JSON.parse(process.argv[2]) as S;
  run(spec).then(
    (r) => process.send?.({ ok: true, result: r } satisfies Reply<R>, () => process.exit(0)),
    (e: unknown) => process.send?.({ ok: false, error: e instanceof Error ? e.stack ?? e.message : String(e) } satisfies Reply<R>, () => process.exit(1)),
  );
}

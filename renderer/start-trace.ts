import { performance } from 'node:perf_hooks';

// `QUIRE_START_TRACE=1` (set by bench/cold-start.ts): one line per start-up phase on stderr,
// `quire-start-phase <name> <ms since the process started> <CPU ms of this process>`, so the
// bench can say where a cold start's time goes. Off by default: the check is one comparison.
export const startTracing = process.env.QUIRE_START_TRACE === '1';

/** Marks the end of a start-up phase (a no-op unless tracing). */
export function startPhase(name: string): void {
  if (!startTracing) return;
  const cpu = process.cpuUsage();
  process.stderr.write(`quire-start-phase ${name} ${performance.now().toFixed(1)} ${((cpu.user + cpu.system) / 1000).toFixed(1)}\n`);
}

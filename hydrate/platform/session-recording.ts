import type { HttpClient } from '../runtime/http-client.ts';
import { SESSION_RECORDING_WIRE } from '../shared/platform-wire.ts';
import type { Experiments } from './experiments.ts';

/**
 * Seed §9: session recording needs a feature toggle, a commerce-activation experiment and
 * more than 2 cores. The toggle and experiment names and the allowing variant are designed.
 */
export const SESSION_RECORDING = {
  toggleName: 'session-recording',
  experimentName: 'commerce-activation-session-recording',
  allowingVariant: 'enabled',
  minCoresExclusive: 2,
} as const;

export function sessionRecordingAllowed(experiments: Experiments, hardwareConcurrency: number | undefined): boolean {
  if (!experiments.isFeatureEnabled(SESSION_RECORDING.toggleName).enabled) return false;
  const test = experiments.abTest(SESSION_RECORDING.experimentName, 'control');
  if (test.error !== null || test.variant !== SESSION_RECORDING.allowingVariant) return false;
  return typeof hardwareConcurrency === 'number' && hardwareConcurrency > SESSION_RECORDING.minCoresExclusive;
}

/**
 * `off`: the gate is closed (nothing asked); `skipped`: the server answered the mock id (or
 * no usable id); `ready`: a real id, for a recorder this build does not ship.
 */
export type SessionRecordingState = { state: 'off' } | { state: 'skipped' } | { state: 'ready'; id: string };

/**
 * Seed §7 and §9: only when the gate is open, asks the server for the recording id. Quire
 * loads no recorder whatever the answer; a failed call is the same as no recording.
 */
export async function checkSessionRecording(client: HttpClient, experiments: Experiments, hardwareConcurrency: number | undefined): Promise<SessionRecordingState> {
  if (!sessionRecordingAllowed(experiments, hardwareConcurrency)) return { state: 'off' };
  const result = await client.request('GET', SESSION_RECORDING_WIRE.idPath, { timeoutMs: SESSION_RECORDING_WIRE.timeoutMs });
  const body = result.ok ? result.body : null;
  const id = typeof body === 'string' ? body : typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : null;
  if (typeof id !== 'string' || id === '' || id === SESSION_RECORDING_WIRE.mockId) return { state: 'skipped' };
  return { state: 'ready', id };
}

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

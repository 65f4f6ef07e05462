import { describe, expect, test } from 'vitest';
import { createExperiments } from './experiments.ts';
import { SESSION_RECORDING, sessionRecordingAllowed } from './session-recording.ts';

function experiments(toggle: string, variant: string) {
  return createExperiments({
    definitions: {
      [SESSION_RECORDING.toggleName]: { experimentType: 'FEATURE_TOGGLE', variant: toggle },
      [SESSION_RECORDING.experimentName]: { experimentType: 'AB_TEST', variant, segmentName: 's' },
    },
    websiteStatus: null,
    internalUser: false,
  });
}

describe('session recording gate (seed §9)', () => {
  test('toggle on, experiment allowing and more than 2 cores', () => {
    expect(sessionRecordingAllowed(experiments('true', 'enabled'), 4)).toBe(true);
    expect(sessionRecordingAllowed(experiments('true', 'enabled'), 3)).toBe(true);
  });

  test('exactly 2 cores, unknown cores, toggle off or experiment not allowing: off', () => {
    expect(sessionRecordingAllowed(experiments('true', 'enabled'), 2)).toBe(false);
    expect(sessionRecordingAllowed(experiments('true', 'enabled'), undefined)).toBe(false);
    expect(sessionRecordingAllowed(experiments('false', 'enabled'), 8)).toBe(false);
    expect(sessionRecordingAllowed(experiments('true', 'control'), 8)).toBe(false);
    expect(sessionRecordingAllowed(createExperiments({ definitions: null, websiteStatus: null, internalUser: false }), 8)).toBe(false);
  });
});

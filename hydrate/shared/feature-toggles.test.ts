import { describe, expect, test } from 'vitest';
import { createExperiments } from '../platform/experiments.ts';
import { experimentDefinitions, FEATURE, MAX_FEATURES, mergeSiteFeatures, parseSiteFeatures } from './feature-toggles.ts';

describe('parseSiteFeatures', () => {
  test('keeps valid toggles and tests and names each invalid entry', () => {
    const { value, problems } = parseSiteFeatures({
      features: { bnpl: false, 'quick-view': 'yes', Bad_Name: true },
      experiments: { 'hero-copy': { variant: 'b', segmentName: 'returning' }, broken: { variant: '' }, plain: { variant: 'a' } },
    });
    expect(value).toEqual({ features: { bnpl: false }, experiments: { 'hero-copy': { variant: 'b', segmentName: 'returning' }, plain: { variant: 'a', segmentName: 'default' } } });
    expect(problems.map((p) => p.path)).toEqual(['features.Bad_Name', 'features.quick-view', 'experiments.broken']);
  });

  test('a name is a toggle or an A/B test, not both', () => {
    const { value, problems } = parseSiteFeatures({ features: { bnpl: true }, experiments: { bnpl: { variant: 'b' } } });
    expect(value).toEqual({ features: { bnpl: true }, experiments: {} });
    expect(problems.map((p) => p.path)).toEqual(['experiments.bnpl']);
  });

  test('a section that is not an object, and too many names, are problems', () => {
    expect(parseSiteFeatures({ features: [] }).problems).toEqual([{ path: 'features', message: 'features must be an object of names.' }]);
    const many = Object.fromEntries(Array.from({ length: MAX_FEATURES + 1 }, (_, i) => [`f${i}`, true]));
    const parsed = parseSiteFeatures({ features: many });
    expect(Object.keys(parsed.value.features)).toHaveLength(MAX_FEATURES);
    expect(parsed.problems[0]!.path).toBe('features');
  });
});

describe('experimentDefinitions', () => {
  test('toggles become FEATURE_TOGGLE definitions the experiments client reads (seed §4)', () => {
    const config = mergeSiteFeatures(
      { features: { bnpl: true }, experiments: { 'commerce-activation-session-recording': { variant: 'control', segmentName: 'default' } } },
      { features: { bnpl: false, 'session-recording': true }, experiments: { 'commerce-activation-session-recording': { variant: 'enabled', segmentName: 'cohort-A' } } },
    );
    const client = createExperiments({ definitions: experimentDefinitions(config), websiteStatus: null, internalUser: false, warn: () => undefined });
    expect(client.isFeatureEnabled(FEATURE.bnpl)).toEqual({ enabled: false, error: null });
    expect(client.isFeatureEnabled(FEATURE.quickView)).toEqual({ enabled: true, error: null });
    expect(client.isFeatureEnabled(FEATURE.sessionRecording)).toEqual({ enabled: true, error: null });
    expect(client.abTest('commerce-activation-session-recording', 'control')).toEqual({ segmentName: 'cohort-A', variant: 'enabled', error: null });
  });
});

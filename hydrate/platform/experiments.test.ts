import { describe, expect, test } from 'vitest';
import { createExperiments, DEFAULT_SEGMENT_NAME, INTERNAL_WEBSITE_STATUS, type ExperimentsOptions } from './experiments.ts';

const definitions = {
  newCart: { experimentType: 'FEATURE_TOGGLE', variant: 'true', segmentName: 'all', containsError: false },
  oldCart: { experimentType: 'FEATURE_TOGGLE', variant: 'false' },
  upperTrue: { experimentType: 'FEATURE_TOGGLE', variant: 'TRUE' },
  boolTrue: { experimentType: 'FEATURE_TOGGLE', variant: true },
  broken: { experimentType: 'FEATURE_TOGGLE', variant: 'true', containsError: true },
  checkout: { experimentType: 'AB_TEST', variant: 'blue', segmentName: 'seg-2', containsError: false },
  noSegment: { experimentType: 'AB_TEST', variant: 'blue' },
  odd: { experimentType: 'MULTIVARIATE', variant: 'x' },
};

const make = (extra: Partial<ExperimentsOptions> = {}, warnings: string[] = []) =>
  createExperiments({ definitions, websiteStatus: 8, internalUser: false, warn: (m) => warnings.push(m), ...extra });

describe('feature toggles (seed §4, §8)', () => {
  test('on only when the variant is the string "true"', () => {
    const x = make();
    expect(x.isFeatureEnabled('newCart')).toEqual({ enabled: true, error: null });
    expect(x.isFeatureEnabled('oldCart')).toEqual({ enabled: false, error: null });
    expect(x.isFeatureEnabled('upperTrue').enabled).toBe(false);
  });

  test('the four error texts, each leaving the toggle off', () => {
    expect(make({ definitions: null }).isFeatureEnabled('newCart')).toEqual({ enabled: false, error: 'The underlying Praetor configuration is not loaded' });
    expect(make().isFeatureEnabled('nope')).toEqual({ enabled: false, error: 'The specified feature does not exist' });
    expect(make().isFeatureEnabled('checkout')).toEqual({ enabled: false, error: 'The specified feature is not a FEATURE_TOGGLE' });
    const invalid = 'The specified feature has an invalid server-side definition';
    expect(make().isFeatureEnabled('broken')).toEqual({ enabled: false, error: invalid });
    expect(make().isFeatureEnabled('boolTrue')).toEqual({ enabled: false, error: invalid });
    expect(make().isFeatureEnabled('odd')).toEqual({ enabled: false, error: invalid });
  });

  test('inherited names do not count as features', () => {
    expect(make().isFeatureEnabled('toString').error).toBe('The specified feature does not exist');
  });

  test('the experiment context carries the seed §3 fields', () => {
    expect(make().context('checkout', 'AB_TEST')).toEqual({
      ok: true,
      value: { name: 'checkout', experimentType: 'AB_TEST', variant: 'blue', segmentName: 'seg-2', containsError: false },
    });
  });
});

describe('A/B tests (seed §4)', () => {
  test('returns the segment and the variant', () => {
    expect(make().abTest('checkout', 'control')).toEqual({ segmentName: 'seg-2', variant: 'blue', error: null });
  });

  test('on error: the default segment with the caller fallback variant', () => {
    expect(make().abTest('newCart', 'control')).toEqual({ segmentName: DEFAULT_SEGMENT_NAME, variant: 'control', error: 'The specified feature is not a AB_TEST' });
    expect(make().abTest('noSegment', 'fb')).toMatchObject({ segmentName: DEFAULT_SEGMENT_NAME, variant: 'fb' });
    expect(make({ definitions: null }).abTest('checkout', 'fb').variant).toBe('fb');
  });
});

describe('preview overrides (seed §6)', () => {
  const search = '?experimentOverride=checkout:green&experimentOverride=oldCart:true';

  test('ignored on an ordinary site for an ordinary user', () => {
    const x = make({ search });
    expect(x.abTest('checkout', 'c').variant).toBe('blue');
    expect(x.isFeatureEnabled('oldCart').enabled).toBe(false);
  });

  test('applied on an internal site (status 6) or for an internal user', () => {
    expect(INTERNAL_WEBSITE_STATUS).toBe(6);
    for (const x of [make({ search, websiteStatus: 6 }), make({ search, internalUser: true })]) {
      expect(x.abTest('checkout', 'c').variant).toBe('green');
      expect(x.isFeatureEnabled('oldCart').enabled).toBe(true);
    }
  });

  test('a malformed override is logged and yields no override at all', () => {
    const warnings: string[] = [];
    const x = make({ search: '?experimentOverride=checkout:green&experimentOverride=bad', internalUser: true }, warnings);
    expect(x.abTest('checkout', 'c').variant).toBe('blue');
    expect(warnings).toEqual(['Unable to read experiment overrides']);
  });
});

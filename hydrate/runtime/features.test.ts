import { describe, expect, test } from 'vitest';
import { experimentDefinitions, FEATURE } from '../shared/feature-toggles.ts';
import { featureOn } from './features.ts';
import { normalizePageContext } from './page-context.ts';

describe('featureOn', () => {
  test('reads the site definitions: a toggle switched off is off, one left alone keeps its default', () => {
    const context = normalizePageContext({ experiments: experimentDefinitions({ features: { [FEATURE.bnpl]: false }, experiments: {} }) });
    expect(featureOn(context, FEATURE.bnpl)).toBe(false);
    expect(featureOn(context, FEATURE.quickView)).toBe(true);
    expect(featureOn(context, FEATURE.sessionRecording)).toBe(false);
    expect(featureOn(context, 'no-such-toggle')).toBe(false);
  });

  test('an A/B test is not a toggle (seed: "not a FEATURE_TOGGLE" is off)', () => {
    const context = normalizePageContext({ experiments: experimentDefinitions({ features: {}, experiments: { 'hero-copy': { variant: 'true', segmentName: 'a' } } }) });
    expect(featureOn(context, 'hero-copy')).toBe(false);
  });

  test('a page without definitions keeps the built-in defaults', () => {
    const context = normalizePageContext({});
    expect(context.experiments).toBeNull();
    expect(featureOn(context, FEATURE.bnpl)).toBe(true);
    expect(featureOn(context, FEATURE.quickView)).toBe(true);
    expect(featureOn(context, FEATURE.sessionRecording)).toBe(false);
  });
});

/**
 * A site's feature toggles and A/B tests (issue 18): the configuration the renderer reads
 * from the site folder (`site.json` `features` / `experiments`) and the admin's override in
 * the store, turned into the experiment definitions the browser's experiments client reads
 * (`platform/experiments.ts`, seed §3 "Experiment context" and §4). Pure: the renderer, the
 * admin API and the islands share it.
 */

/** Toggles that gate product features. Names are kebab-case (templates read `features.quick-view`). */
export const FEATURE = {
  /** The buy-now-pay-later pill and its modal (A5), on product and cart pages. */
  bnpl: 'bnpl',
  /** Quick View on shop cards (issue 16). */
  quickView: 'quick-view',
  /** Seed §9: session recording needs this toggle (and its experiment) on. */
  sessionRecording: 'session-recording',
} as const;

/** What a site that says nothing gets: the features it had before toggles existed. */
export const FEATURE_DEFAULTS: Readonly<Record<string, boolean>> = {
  [FEATURE.bnpl]: true,
  [FEATURE.quickView]: true,
  [FEATURE.sessionRecording]: false,
};

/** Toggle and experiment names: kebab-case, so they read the same in templates, JSON and the admin. */
export const FEATURE_NAME_PATTERN = '^[a-z][a-z0-9-]{0,63}$';
const NAME = new RegExp(FEATURE_NAME_PATTERN);
/** Bounds of one configuration (each kind), so a page's context block stays small. */
export const MAX_FEATURES = 100;
export const MAX_VARIANT_LENGTH = 64;

/** An A/B test's assignment for this site: its segment and the variant served. */
export interface AbTestConfig {
  variant: string;
  segmentName: string;
}

export interface SiteFeatures {
  features: Record<string, boolean>;
  experiments: Record<string, AbTestConfig>;
}

export const EMPTY_SITE_FEATURES: SiteFeatures = { features: {}, experiments: {} };

export type FeatureProblem = { path: string; message: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a configuration, keeping every valid entry and naming each invalid one (the site
 * loader reports them; the admin API refuses a body with any).
 */
export function parseSiteFeatures(raw: { features?: unknown; experiments?: unknown }): { value: SiteFeatures; problems: FeatureProblem[] } {
  const problems: FeatureProblem[] = [];
  const value: SiteFeatures = { features: {}, experiments: {} };
  const entries = (key: 'features' | 'experiments'): [string, unknown][] => {
    const section = raw[key];
    if (section === undefined) return [];
    if (!isObject(section)) {
      problems.push({ path: key, message: `${key} must be an object of names.` });
      return [];
    }
    const list = Object.entries(section);
    if (list.length > MAX_FEATURES) problems.push({ path: key, message: `At most ${MAX_FEATURES} ${key} are allowed.` });
    return list.slice(0, MAX_FEATURES).filter(([name]) => {
      if (NAME.test(name)) return true;
      problems.push({ path: `${key}.${name}`, message: `${key} names are lower-case letters, digits and hyphens (at most 64).` });
      return false;
    });
  };
  for (const [name, on] of entries('features')) {
    if (typeof on === 'boolean') value.features[name] = on;
    else problems.push({ path: `features.${name}`, message: 'A feature toggle is true or false.' });
  }
  for (const [name, test] of entries('experiments')) {
    if (Object.hasOwn(value.features, name)) {
      problems.push({ path: `experiments.${name}`, message: `"${name}" is already a feature toggle; a name is a toggle or an A/B test, not both.` });
      continue;
    }
    const variant = isObject(test) ? test.variant : undefined;
    const segment = isObject(test) ? (test.segmentName ?? 'default') : undefined;
    if (typeof variant !== 'string' || variant === '' || variant.length > MAX_VARIANT_LENGTH || typeof segment !== 'string' || segment === '' || segment.length > MAX_VARIANT_LENGTH) {
      problems.push({ path: `experiments.${name}`, message: `An A/B test is {"variant": "...", "segmentName": "..."} (1 to ${MAX_VARIANT_LENGTH} characters each).` });
      continue;
    }
    value.experiments[name] = { variant, segmentName: segment };
  }
  return { value, problems };
}

/** `over` wins name by name (the admin's stored override over the site folder). */
export function mergeSiteFeatures(base: SiteFeatures, over: SiteFeatures | null): SiteFeatures {
  if (!over) return base;
  return { features: { ...base.features, ...over.features }, experiments: { ...base.experiments, ...over.experiments } };
}

/** The toggles in force: the defaults, then the configuration. */
export function effectiveToggles(config: SiteFeatures): Record<string, boolean> {
  return { ...FEATURE_DEFAULTS, ...config.features };
}

/**
 * The definitions `createExperiments` reads (seed §3): each toggle a FEATURE_TOGGLE whose
 * variant is the string `true` or `false` (seed §4), each test an AB_TEST.
 */
export function experimentDefinitions(config: SiteFeatures): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, on] of Object.entries(effectiveToggles(config))) {
    out[name] = { experimentType: 'FEATURE_TOGGLE', variant: on ? 'true' : 'false', segmentName: 'default', containsError: false };
  }
  for (const [name, test] of Object.entries(config.experiments)) {
    out[name] = { experimentType: 'AB_TEST', variant: test.variant, segmentName: test.segmentName, containsError: false };
  }
  return out;
}

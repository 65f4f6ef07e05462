import { EXPERIMENT_TYPES, WEBSITE_STATUSES } from '../shared/platform-enums.ts';
import { TOGGLE_MESSAGES, OVERRIDE_MESSAGES, consoleWarn, fillMessage, type Warn } from './platform-messages.ts';

export { EXPERIMENT_TYPES };
export type ExperimentType = (typeof EXPERIMENT_TYPES)[number];

/** Seed §3 "Experiment context". */
export interface ExperimentContext {
  name: string;
  experimentType: ExperimentType;
  variant: string;
  segmentName: string;
  containsError: boolean;
}

export const INTERNAL_WEBSITE_STATUS = WEBSITE_STATUSES.internal;

/** The segment an A/B test falls back to on error (designed; the seed names only "the segment default"). */
export const DEFAULT_SEGMENT_NAME = 'default';

/**
 * Preview override query parameter (designed): `?experimentOverride=name:variant`, repeatable.
 * Honoured only for internal sites or users (seed §6).
 */
export const OVERRIDE_PARAM = 'experimentOverride';

export interface ExperimentsOptions {
  /** null: the configuration did not load (first error text of seed §8). */
  definitions: Record<string, unknown> | null;
  websiteStatus: number | null;
  internalUser: boolean;
  /** `location.search` of the page, for preview overrides. */
  search?: string;
  warn?: Warn;
}

export type ToggleResult = { enabled: boolean; error: string | null };
export type AbTestResult = { segmentName: string; variant: string; error: string | null };

export interface Experiments {
  /** The checked context of one experiment, or the seed's error text. */
  context(name: string, type: ExperimentType): { ok: true; value: ExperimentContext } | { ok: false; error: string };
  /** Seed §4: on when the variant is the string `true`; off on any error. */
  isFeatureEnabled(name: string): ToggleResult;
  /** Seed §4: segment and variant; on error the default segment with the caller's fallback variant. */
  abTest(name: string, fallbackVariant: string): AbTestResult;
}

function parseOverrides(search: string | undefined, warn: Warn): Map<string, string> {
  const out = new Map<string, string>();
  if (!search) return out;
  try {
    for (const value of new URLSearchParams(search).getAll(OVERRIDE_PARAM)) {
      const colon = value.indexOf(':');
      if (colon <= 0 || colon === value.length - 1) throw new Error(value);
      out.set(value.slice(0, colon), value.slice(colon + 1));
    }
  } catch {
    // Seed §8: a failed read is logged and yields no override at all.
    warn(OVERRIDE_MESSAGES.readFailed);
    out.clear();
  }
  return out;
}

export function createExperiments(options: ExperimentsOptions): Experiments {
  const warn = options.warn ?? consoleWarn;
  const internal = options.websiteStatus === INTERNAL_WEBSITE_STATUS || options.internalUser;
  const overrides = internal ? parseOverrides(options.search, warn) : new Map<string, string>();

  function context(name: string, type: ExperimentType): { ok: true; value: ExperimentContext } | { ok: false; error: string } {
    const defs = options.definitions;
    if (defs === null || typeof defs !== 'object') return { ok: false, error: TOGGLE_MESSAGES.notLoaded };
    if (!Object.prototype.hasOwnProperty.call(defs, name)) return { ok: false, error: TOGGLE_MESSAGES.missing };
    const raw = defs[name];
    if (typeof raw !== 'object' || raw === null) return { ok: false, error: TOGGLE_MESSAGES.invalid };
    const def = raw as Record<string, unknown>;
    if (!(EXPERIMENT_TYPES as readonly unknown[]).includes(def.experimentType)) return { ok: false, error: TOGGLE_MESSAGES.invalid };
    if (def.experimentType !== type) return { ok: false, error: fillMessage(TOGGLE_MESSAGES.wrongType, { type }) };
    if (def.containsError === true || typeof def.variant !== 'string') return { ok: false, error: TOGGLE_MESSAGES.invalid };
    if (type === 'AB_TEST' && typeof def.segmentName !== 'string') return { ok: false, error: TOGGLE_MESSAGES.invalid };
    return {
      ok: true,
      value: {
        name,
        experimentType: type,
        variant: overrides.get(name) ?? def.variant,
        segmentName: typeof def.segmentName === 'string' ? def.segmentName : DEFAULT_SEGMENT_NAME,
        containsError: false,
      },
    };
  }

  return {
    context,
    isFeatureEnabled(name) {
      const result = context(name, 'FEATURE_TOGGLE');
      return result.ok ? { enabled: result.value.variant === 'true', error: null } : { enabled: false, error: result.error };
    },
    abTest(name, fallbackVariant) {
      const result = context(name, 'AB_TEST');
      return result.ok
        ? { segmentName: result.value.segmentName, variant: result.value.variant, error: null }
        : { segmentName: DEFAULT_SEGMENT_NAME, variant: fallbackVariant, error: result.error };
    },
  };
}

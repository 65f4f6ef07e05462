/**
 * Texts of the templates seed §8 that the platform clients log or reject with, quoted
 * character for character (including the missing "to" of the storage warning).
 * `{name}` placeholders are filled by `fillMessage`.
 */
export const TRACKING_MESSAGES = {
  httpStatus: 'Error tracking event: HTTP Status {code}',
  noPayload: 'no payload',
  storeAnalyticsId: 'Unable to store analyticsId',
  storageUnavailable: 'Unable access local/session storage.',
  /** Designed: the seed says only that overwriting an auto-populated field warns. */
  overwrite: 'Overwriting auto-populated field {field}',
} as const;

export const TOGGLE_MESSAGES = {
  notLoaded: 'The underlying Praetor configuration is not loaded',
  missing: 'The specified feature does not exist',
  wrongType: 'The specified feature is not a {type}',
  invalid: 'The specified feature has an invalid server-side definition',
} as const;

export const PERFORMANCE_MESSAGES = {
  pageLoadId: 'Unable to resolve pageLoadId',
  /** Designed: the seed says a non-200 settings response is an error, not its words. */
  settingsStatus: 'Performance settings failed: HTTP Status {code}',
} as const;

/** Designed: the seed says an override read failure is logged, not its words. */
export const OVERRIDE_MESSAGES = {
  readFailed: 'Unable to read experiment overrides',
} as const;

export function fillMessage(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Where warnings go; a seam so tests can collect them without spying on console. */
export type Warn = (message: string) => void;
export const consoleWarn: Warn = (message) => console.warn(message);

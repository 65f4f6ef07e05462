import { describe, expect, test } from 'vitest';
import { PERFORMANCE_MESSAGES, TOGGLE_MESSAGES, TRACKING_MESSAGES, fillMessage } from './platform-messages.ts';

describe('seed §8 texts', () => {
  test('tracking', () => {
    expect(TRACKING_MESSAGES.httpStatus).toBe('Error tracking event: HTTP Status {code}');
    expect(TRACKING_MESSAGES.noPayload).toBe('no payload');
    expect(TRACKING_MESSAGES.storeAnalyticsId).toBe('Unable to store analyticsId');
    expect(TRACKING_MESSAGES.storageUnavailable).toBe('Unable access local/session storage.');
  });

  test('feature toggles', () => {
    expect(Object.values(TOGGLE_MESSAGES)).toEqual([
      'The underlying Praetor configuration is not loaded',
      'The specified feature does not exist',
      'The specified feature is not a {type}',
      'The specified feature has an invalid server-side definition',
    ]);
  });

  test('performance', () => {
    expect(PERFORMANCE_MESSAGES.pageLoadId).toBe('Unable to resolve pageLoadId');
  });

  test('fillMessage fills known names and leaves unknown ones', () => {
    expect(fillMessage(TRACKING_MESSAGES.httpStatus, { code: 503 })).toBe('Error tracking event: HTTP Status 503');
    expect(fillMessage('{a} {b}', { a: 1 })).toBe('1 {b}');
  });
});

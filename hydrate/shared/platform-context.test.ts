import { describe, expect, test } from 'vitest';
import { normalizePlatformContext, platformWanted } from './platform-context.ts';

describe('sf-context.platform', () => {
  test('a missing block: everything off, prod, own origin', () => {
    const c = normalizePlatformContext(undefined);
    expect(c).toMatchObject({
      legacyTracking: false,
      clankerTracking: false,
      performance: false,
      clankerTransport: 'beacon',
      clankerValidate: false,
      environment: 'prod',
      eventsHosts: { staging: '', production: '' },
      platformDomains: [],
      websiteStatus: null,
      internalUser: false,
      experiments: null,
    });
    expect(platformWanted(c)).toBe(false);
  });

  test('only strict true enables a client', () => {
    expect(platformWanted(normalizePlatformContext({ legacyTracking: 'true', performance: 1 }))).toBe(false);
    expect(platformWanted(normalizePlatformContext({ performance: true }))).toBe(true);
  });

  test('events hosts must be bare http(s) origins', () => {
    const c = normalizePlatformContext({
      environment: 'qa',
      eventsHosts: { staging: 'https://events.staging.test', production: 'javascript:alert(1)' },
    });
    expect(c.environment).toBe('qa');
    expect(c.eventsHosts).toEqual({ staging: 'https://events.staging.test', production: '' });
    expect(normalizePlatformContext({ eventsHosts: { production: 'https://x.test/path' } }).eventsHosts.production).toBe('');
  });

  test('unknown environments and odd types fall back', () => {
    const c = normalizePlatformContext({ environment: 'live', websiteStatus: '6', platformDomains: ['a.test', 3, ''], experiments: [] });
    expect(c.environment).toBe('prod');
    expect(c.websiteStatus).toBeNull();
    expect(c.platformDomains).toEqual(['a.test']);
    expect(c.experiments).toBeNull();
  });
});

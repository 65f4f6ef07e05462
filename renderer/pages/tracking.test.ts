import { describe, expect, it } from 'vitest';
import { showsPillCart, skipPageView, type SkipInput } from './tracking.ts';

const base: SkipInput = { trackingDisabled: false, member: null, pageType: 2, path: '/about', videoPaywall: false };

describe('C4 skipPageView', () => {
  it.each([
    [{}, null],
    [{ trackingDisabled: true, pageType: 100 }, 'tracking-disabled'],
    [{ member: { roles: ['admin'], inConfigArea: false }, pageType: 100 }, 'logged-in-member'],
    [{ member: { roles: ['viewer'], inConfigArea: false } }, null],
    [{ member: { roles: ['viewer'], inConfigArea: true } }, 'logged-in-member'],
    [{ member: { roles: [], inConfigArea: false } }, 'logged-in-member'],
    [{ pageType: 100 }, 'not-found'],
    [{ pageType: 301 }, 'not-found'],
    [{ pageType: 101 }, 'error'],
    [{ pageType: 102 }, 'search'],
    [{ path: '/search' }, 'search'],
    [{ pageType: 103, path: '/search' }, 'search'],
    [{ pageType: 103 }, 'lock-screen'],
    [{ pageType: 106 }, 'member-area-denied'],
    [{ videoPaywall: true }, 'video-paywall'],
    [{ pageType: 106, videoPaywall: true }, 'member-area-denied'],
  ] as const)('%o → %s', (change, expected) => {
    expect(skipPageView({ ...base, ...change } as SkipInput)).toBe(expected);
  });
});

describe('A2 pill cart presence', () => {
  it('is left out of the cart, checkout, order, lock, protected, denied and error pages', () => {
    const store = { expressCheckout: false, customCart: false };
    const withPill = [1, 2, 3, 50, 100, 102, 203, 211, 300].filter((type) => showsPillCart(type, store));
    expect(withPill).toEqual([1, 2, 3, 50, 100, 102, 203, 211, 300]);
    expect([101, 103, 105, 106, 200, 201, 202, 205].some((type) => showsPillCart(type, store))).toBe(false);
    expect(showsPillCart(2, { expressCheckout: true, customCart: false })).toBe(false);
    expect(showsPillCart(2, { expressCheckout: false, customCart: true })).toBe(false);
  });
});

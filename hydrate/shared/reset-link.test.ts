import { describe, expect, it } from 'vitest';
import { RESET_FRAGMENT, withoutResetToken } from './reset-link.ts';

describe('withoutResetToken', () => {
  it("leaves a reset link's token out of an address or a fragment, and keeps every other address as it is", () => {
    expect(withoutResetToken('https://shop.example/members?x=1#reset-password=AbC_d-1234')).toBe('https://shop.example/members?x=1#reset-password');
    expect(withoutResetToken('#reset-password=AbC_d-1234')).toBe('#reset-password');
    expect(withoutResetToken(`/#${RESET_FRAGMENT}=`)).toBe('/#reset-password');
    for (const kept of ['https://shop.example/members', 'https://shop.example/#forgot-password', '#top', '', '/a#b#reset-password=x']) expect(withoutResetToken(kept)).toBe(kept);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { endOfTurn } from './turn-batching.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('endOfTurn', () => {
  it('releases the callers of one turn together, in call order', async () => {
    const order: string[] = [];
    const first = endOfTurn().then(() => order.push('a1')).then(() => order.push('a2'));
    const second = endOfTurn().then(() => order.push('b1'));
    await Promise.all([first, second]);
    // Released one by one, a's second step would run before b's first.
    expect(order).toEqual(['a1', 'b1', 'a2']);
  });

  it('is not stopped by faked global timers', async () => {
    vi.useFakeTimers();
    await expect(endOfTurn()).resolves.toBeUndefined();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { backgroundLoop } from './background-loop.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('backgroundLoop', () => {
  it('joins a run that is going instead of starting a second one', async () => {
    let release: (n: number) => void = () => {};
    const work = vi.fn(() => new Promise<number>((resolve) => (release = resolve)));
    const loop = backgroundLoop(work, () => 60_000, () => {});
    const a = loop.run();
    const b = loop.run();
    release(7);
    expect(await a).toBe(7);
    expect(await b).toBe(7);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('reports a failed run, answers null and keeps going on the timer', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let calls = 0;
    const loop = backgroundLoop(
      async () => {
        calls++;
        if (calls === 1) throw new Error('database gone');
        return calls;
      },
      (result) => (result === null ? 1000 : 60_000),
      (error) => errors.push(error),
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(2);
    await loop.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toBe(2);
  });

  it('stop waits for the run going, and no run follows it', async () => {
    vi.useFakeTimers();
    let release: () => void = () => {};
    let finished = false;
    let calls = 0;
    const loop = backgroundLoop(
      () => {
        calls++;
        return new Promise<void>((resolve) => (release = resolve)).then(() => void (finished = true));
      },
      () => 0,
      () => {},
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    const stopped = loop.stop();
    release();
    await stopped;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(1);
  });
});

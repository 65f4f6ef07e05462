/**
 * The option values of a bench command line, read in order: `bench` and `bench:http` share
 * the checks and the messages. `option` is the name just read; `value()` takes the next word.
 */
export class ArgReader {
  private at = -1;

  constructor(private readonly argv: readonly string[]) {}

  /** The next option name, or undefined after the last. */
  next(): string | undefined {
    return this.argv[++this.at];
  }

  get option(): string {
    return this.argv[this.at] ?? '';
  }

  value(): string {
    const option = this.option;
    const v = this.argv[++this.at];
    if (v === undefined) throw new Error(`${option} needs a value`);
    return v;
  }

  /** A number from `min` to `max`. */
  number(min = 0, max = Number.POSITIVE_INFINITY): number {
    const option = this.option;
    const n = Number(this.value());
    if (!Number.isFinite(n) || n < min || n > max) {
      const wanted = max < Number.POSITIVE_INFINITY ? `a number from ${min} to ${max}` : min === 0 ? 'a non-negative number' : `a number of at least ${min}`;
      throw new Error(`${option} needs ${wanted}`);
    }
    return n;
  }
}

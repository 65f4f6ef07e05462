// Template text plus a lazily built line index. Tokens and nodes carry offsets into the
// text; line and column are computed only when a diagnostic is shown.

export interface Span {
  readonly start: number;
  readonly end: number;
}

export class Source {
  private lineStarts: number[] | null = null;

  constructor(
    readonly text: string,
    readonly name = 'template',
  ) {}

  /** 1-based line and column (UTF-16 code units) of an offset; only `\n` breaks lines. */
  position(offset: number): { line: number; column: number } {
    const starts = this.lineStarts ?? (this.lineStarts = computeLineStarts(this.text));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo] + 1 };
  }

  lineText(line: number): string {
    const starts = this.lineStarts ?? (this.lineStarts = computeLineStarts(this.text));
    const start = starts[line - 1] ?? this.text.length;
    const next = starts[line];
    return this.text.slice(start, next === undefined ? this.text.length : next - 1);
  }
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  let i = text.indexOf('\n');
  while (i >= 0) {
    starts.push(i + 1);
    i = text.indexOf('\n', i + 1);
  }
  return starts;
}

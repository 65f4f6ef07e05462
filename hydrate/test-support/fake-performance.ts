/**
 * Test-only stand-ins for PerformanceObserver and `performance`: tests emit entries by
 * type and control `now()`, as happy-dom has neither paint nor layout-shift entries.
 */
export interface FakeEntry {
  entryType?: string;
  name?: string;
  startTime: number;
  duration?: number;
  [key: string]: unknown;
}

export interface FakePerformance {
  Observer: new (callback: (list: { getEntries(): PerformanceEntry[] }) => void) => {
    observe(options: { type: string; buffered?: boolean; durationThreshold?: number }): void;
    disconnect(): void;
  };
  performance: { now(): number; getEntriesByType(type: string): PerformanceEntry[] };
  emit(type: string, entries: FakeEntry[]): void;
  /** Types currently observed (disconnected observers are gone). */
  observedTypes(): string[];
  /** Options each observe() call received. */
  observeCalls: Array<{ type: string; buffered?: boolean; durationThreshold?: number }>;
  setNow(ms: number): void;
  setNavigation(entry: Partial<PerformanceNavigationTiming> | null): void;
}

export function fakePerformance(unsupported: string[] = []): FakePerformance {
  let now = 0;
  let navigation: Partial<PerformanceNavigationTiming> | null = null;
  const live = new Set<{ type: string; callback: (list: { getEntries(): PerformanceEntry[] }) => void }>();
  const observeCalls: FakePerformance['observeCalls'] = [];

  class Observer {
    private registrations: Array<{ type: string; callback: (list: { getEntries(): PerformanceEntry[] }) => void }> = [];
    constructor(private readonly callback: (list: { getEntries(): PerformanceEntry[] }) => void) {}
    observe(options: { type: string; buffered?: boolean; durationThreshold?: number }): void {
      observeCalls.push(options);
      if (unsupported.includes(options.type)) throw new TypeError(`unsupported ${options.type}`);
      const reg = { type: options.type, callback: this.callback };
      this.registrations.push(reg);
      live.add(reg);
    }
    disconnect(): void {
      for (const reg of this.registrations) live.delete(reg);
      this.registrations = [];
    }
  }

  return {
    Observer,
    performance: {
      now: () => now,
      getEntriesByType: (type) => (type === 'navigation' && navigation ? [navigation as PerformanceEntry] : []),
    },
    emit(type, entries) {
      const list = entries.map((e) => ({ entryType: type, name: '', duration: 0, ...e }) as unknown as PerformanceEntry);
      for (const reg of [...live]) if (reg.type === type) reg.callback({ getEntries: () => list });
    },
    observedTypes: () => [...live].map((r) => r.type),
    observeCalls,
    setNow(ms) {
      now = ms;
    },
    setNavigation(entry) {
      navigation = entry;
    },
  };
}

/** Sets `document.visibilityState` and fires `visibilitychange`, as a browser does on tab switch. */
export function setVisibility(doc: Document, state: 'visible' | 'hidden'): void {
  Object.defineProperty(doc, 'visibilityState', { configurable: true, get: () => state });
  doc.dispatchEvent(new Event('visibilitychange'));
}

/**
 * Replaceable seams for what happy-dom cannot do (STOREFRONT §0 test harness): layout
 * measurement, page navigation and reload. Islands call these instead of touching
 * `location` or layout APIs, so a test can stub them and assert where the page would go.
 */
export interface Size {
  width: number;
  height: number;
}

export interface Env {
  measure(element: Element): Size;
  navigate(url: string): void;
  reload(): void;
}

const defaults: Env = {
  measure(element) {
    const rect = element.getBoundingClientRect();
    return { width: rect.width, height: rect.height };
  },
  navigate(url) {
    window.location.assign(url);
  },
  reload() {
    window.location.reload();
  },
};

export const env: Env = { ...defaults };

/** Replaces some seams; returns a function that restores the previous ones. */
export function overrideEnv(patch: Partial<Env>): () => void {
  const previous = { ...env };
  Object.assign(env, patch);
  return () => {
    Object.assign(env, previous);
  };
}

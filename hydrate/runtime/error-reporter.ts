import type { HttpClient } from './http-client.ts';
import { withoutResetToken } from '../shared/reset-link.ts';

/** A11 limits (D3). */
export const REPORTER_LIMITS = {
  maxAcceptedPerPage: 20,
  maxQueued: 10,
  maxStackChars: 5000,
  debounceMs: 1000,
} as const;

export const REPORT_PATH = '/api/events/RecordJavascriptErrors';

export interface ErrorReport {
  event: string;
  data: Record<string, unknown>;
  timestamp: number;
}

export interface ErrorReporter {
  reportError(event: string, data?: Record<string, unknown>): void;
  /** Listens to window `error` and `unhandledrejection`; returns the detach function. */
  attach(win: Window): () => void;
  /** Reports waiting for the debounce (for tests and diagnostics). */
  queued(): readonly ErrorReport[];
  accepted(): number;
}

/** The text of a caught value, for a report's `message`. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function describe(value: unknown): { message: string; stack: string | undefined } {
  if (value instanceof Error) return { message: value.message, stack: value.stack };
  if (typeof value === 'object' && value !== null && 'message' in value) {
    const m = (value as { message: unknown }).message;
    const s = (value as { stack?: unknown }).stack;
    return { message: String(m), stack: typeof s === 'string' ? s : undefined };
  }
  return { message: String(value), stack: undefined };
}

export function createErrorReporter(client: HttpClient): ErrorReporter {
  let queue: ErrorReport[] = [];
  let accepted = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function flush(): void {
    timer = null;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    // Swallowed on purpose: a failing report endpoint must not cause retries or report loops.
    client.request('POST', REPORT_PATH, { json: batch }).catch(() => undefined);
  }

  function reportError(event: string, data: Record<string, unknown> = {}): void {
    if (accepted >= REPORTER_LIMITS.maxAcceptedPerPage) return;
    if (queue.length >= REPORTER_LIMITS.maxQueued) return;
    accepted++;
    const copy: Record<string, unknown> = { ...data };
    if (typeof copy.stack === 'string' && copy.stack.length > REPORTER_LIMITS.maxStackChars) {
      copy.stack = copy.stack.slice(0, REPORTER_LIMITS.maxStackChars);
    }
    queue.push({ event, data: copy, timestamp: Date.now() });
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(flush, REPORTER_LIMITS.debounceMs);
  }

  function attach(win: Window): () => void {
    const onError = (e: ErrorEvent) => {
      const { message, stack } = describe(e.error ?? e.message);
      reportError('uncaught_error', {
        message: e.message || message,
        stack,
        url: withoutResetToken(win.location.href),
        filename: e.filename,
        lineno: e.lineno,
        colno: e.colno,
      });
    };
    const onRejection = (e: PromiseRejectionEvent) => {
      const { message, stack } = describe(e.reason);
      reportError('unhandled_rejection', { message, stack, url: withoutResetToken(win.location.href) });
    };
    win.addEventListener('error', onError);
    win.addEventListener('unhandledrejection', onRejection);
    return () => {
      win.removeEventListener('error', onError);
      win.removeEventListener('unhandledrejection', onRejection);
    };
  }

  return { reportError, attach, queued: () => queue, accepted: () => accepted };
}

import { env } from './env.ts';
import { errorMessage, type ErrorReporter } from './error-reporter.ts';

/** A13 provider interface, the shape of the usual captcha widget API. */
export interface CaptchaProvider {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      size: 'compact' | 'normal';
      theme: string;
      callback: (token: string) => void;
      'expired-callback': () => void;
    },
  ): unknown;
  reset(widgetId: unknown): void;
  getResponse(widgetId: unknown): string;
}

declare global {
  interface Window {
    sfCaptchaProvider?: CaptchaProvider;
  }
}

export const CAPTCHA_MISSING_MESSAGE = 'ReCaptcha has not been set up!';
export const COMPACT_BELOW_PX = 320;

export interface CaptchaOptions {
  siteKey: string;
  theme?: string | null;
  alignment?: string | null;
  reporter: ErrorReporter;
  /** Called whenever solved-ness changes (callback, expiry, reset). */
  onChange?: (solved: boolean) => void;
}

export interface CaptchaHandle {
  /** Settles when rendering finished; rejects when no provider is installed. */
  ready: Promise<void>;
  solved(): boolean;
  token(): string;
  reset(): void;
  destroy(): void;
}

export function mountCaptcha(container: HTMLElement, options: CaptchaOptions): CaptchaHandle {
  const win = container.ownerDocument.defaultView!;
  let widgetId: unknown = null;
  let provider: CaptchaProvider | null = null;
  let callbackToken = '';
  let destroyed = false;

  const token = (): string => {
    if (!provider || destroyed) return '';
    let response = '';
    try {
      response = provider.getResponse(widgetId) ?? '';
    } catch {
      response = '';
    }
    return response || callbackToken;
  };
  const changed = () => options.onChange?.(token() !== '');

  const ready = new Promise<void>((resolve, reject) => {
    const found = win.sfCaptchaProvider;
    if (!found) {
      reject(new Error(CAPTCHA_MISSING_MESSAGE));
      return;
    }
    provider = found;
    const alignment = options.alignment || 'center';
    widgetId = found.render(container, {
      sitekey: options.siteKey,
      size: env.measure(container).width < COMPACT_BELOW_PX ? 'compact' : 'normal',
      theme: options.theme || 'light',
      callback: (t) => {
        callbackToken = t;
        changed();
      },
      'expired-callback': () => {
        callbackToken = '';
        changed();
      },
    });
    container.setAttribute('data-captcha-state', 'rendered');
    container.classList.add(`sf-captcha-align-${alignment}`);
    resolve();
  });
  ready.catch((err: unknown) => {
    container.setAttribute('data-captcha-state', 'error');
    options.reporter.reportError('captcha', { message: errorMessage(err) });
  });

  return {
    ready,
    solved: () => token() !== '',
    token,
    reset() {
      callbackToken = '';
      if (provider && !destroyed) provider.reset(widgetId);
      changed();
    },
    destroy() {
      destroyed = true;
      callbackToken = '';
      container.replaceChildren();
      container.removeAttribute('data-captcha-state');
    },
  };
}

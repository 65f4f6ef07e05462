import { CONTEXT_SCRIPT_ID, ISLAND_PROTOCOL_VERSION, PROTOCOL_VERSION_ATTR } from '../../hydrate/protocol/markers.ts';
import { serializeProps } from '../../hydrate/protocol/props.ts';
import { escapeHtml } from './html.ts';
import { moneySymbolCss } from './money.ts';

// C5: the HTML document around a rendered page.

export const ISLANDS_SCRIPT = '<script type="module" src="/assets/islands.js"></script>';
export const CAPTCHA_LOCAL_SCRIPT = '<script type="module" src="/assets/captcha-local.js"></script>';

/**
 * Text for screen readers only, kept off the screen whatever the site's CSS: the built-in
 * markup names things this way (the cart's Remove column header, the price formatters'
 * "Sale Price:" and "Original Price:"), and a site without a `.visually-hidden` rule of its own
 * showed those words. Written before the site's stylesheet, so a site's own rule still wins.
 */
export const VISUALLY_HIDDEN_CSS =
  '.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }';

/** CSS every page carries: A0.4 cart readiness, the A2 fade-in, D2's legacy money symbol, and the visually hidden texts. */
export function rendererCss(currency: string): string {
  return (
    'html:not(.sf-cart-ready) .sqs-add-to-cart-button { visibility: hidden; }\n' +
    '[hidden] { display: none !important; }\n' +
    `${VISUALLY_HIDDEN_CSS}\n` +
    '.sf-pill-cart-wrapper { opacity: 0; transition: opacity 300ms ease-out; }\n' +
    '.sf-pill-cart-wrapper.sf-fade-in { opacity: 1; }\n' +
    // The popup overlay is a modal dialog over the viewport whatever the theme; themes style its panel.
    '.sf-popup-overlay { position: fixed; inset: 0; z-index: 900; overflow-y: auto; }\n' +
    `${moneySymbolCss(currency)}\n`
  );
}

/** Scripts written right to left (ISO 15924): Arabic, Hebrew, Thaana, Syriac, N'Ko, Adlam, Hanifi Rohingya, Mandaic, Samaritan. */
const RTL_SCRIPTS = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg', 'Mand', 'Samr']);
const directions = new Map<string, 'rtl' | 'ltr'>();

/**
 * The writing direction of a site's locale: an Arabic or Hebrew site's pages are `dir="rtl"`
 * (they were laid out left to right, punctuation and prices at the wrong end). Decided by
 * the locale's script, written (`az-Arab`) or likely (`fa` -> Arab, `he` -> Hebr): Intl's
 * text info goes by the language alone in some engines (`az-Arab` read left to right).
 */
export function textDirection(locale: string): 'rtl' | 'ltr' {
  let direction = directions.get(locale);
  if (direction === undefined) {
    let script: string | undefined;
    try {
      script = new Intl.Locale(locale).maximize().script;
    } catch {
      script = undefined;
    }
    direction = script !== undefined && RTL_SCRIPTS.has(script) ? 'rtl' : 'ltr';
    // Sites have one locale each: the map stays as small as the number of sites served.
    if (directions.size < 64) directions.set(locale, direction);
  }
  return direction;
}

export interface ShellInput {
  locale: string;
  title: string;
  pageType: number;
  /** Head CSS, raw; or `style`, the element `shellStyle(css)` made once per site. */
  css?: string;
  style?: string;
  body: string;
  pillCart: string;
  /** sf-context (A0.1): an object serialized here with `<` escaped, or that JSON text already. */
  context: Record<string, unknown> | string;
  /** The local captcha provider is configured (site key and provider `local`). */
  captchaLocal: boolean;
  /**
   * The site's own head content (its `head` partial, rendered with the page context): written
   * last in `<head>`, after the renderer's tags and styles, so it can add to or override them.
   */
  head?: string;
}

/** The head's `<style>` element; the site's CSS cannot close it early. */
export function shellStyle(css: string): string {
  return `<style>\n${css.replace(/<\/style/gi, '<\\/style')}</style>\n`;
}

export function renderShell(input: ShellInput): string {
  const frame = shellFrame(input);
  const captcha = frame.captchaLocal && (frame.pillCartHasCaptcha || input.body.includes(CAPTCHA_CONTAINER)) ? CAPTCHA_LOCAL_LINE : '';
  return frame.head + (input.style ?? shellStyle(input.css ?? '')) + frame.open + input.body + frame.close + captcha + frame.end;
}

/** The marker of a captcha widget in a page's markup: the page then needs the local captcha script. */
export const CAPTCHA_CONTAINER = 'class="captcha-container"';
export const CAPTCHA_LOCAL_LINE = `${CAPTCHA_LOCAL_SCRIPT}\n`;

/**
 * The document around a page, in the order it is written: `head`, the `<style>` element,
 * `open`, the body, `close`, the captcha script line when the page needs it, `end`. A server
 * can then send a site's style as bytes encoded once, and look for a captcha widget in the
 * body's bytes instead of scanning its text.
 */
export interface ShellFrame {
  head: string;
  open: string;
  close: string;
  end: string;
  /** The local captcha provider is configured: a page with a captcha widget loads its script. */
  captchaLocal: boolean;
  pillCartHasCaptcha: boolean;
}

export function shellFrame(input: Omit<ShellInput, 'css' | 'style' | 'body'>): ShellFrame {
  let json: string;
  if (typeof input.context === 'string') json = input.context;
  else {
    const serialized = serializeProps(input.context);
    // The context is built from plain data; a failure here is a renderer bug, and an empty
    // object still lets the islands start with their defaults.
    json = serialized.ok ? serialized.text : '{}';
  }
  return {
    head:
      '<!doctype html>\n' +
      // dir only for a right-to-left locale: left to right is the default.
      `<html lang="${escapeHtml(input.locale)}"${textDirection(input.locale) === 'rtl' ? ' dir="rtl"' : ''}>\n` +
      '<head>\n' +
      '<meta charset="utf-8">\n' +
      '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
      `<title>${escapeHtml(input.title)}</title>\n`,
    open: `${input.head ? `${input.head}\n` : ''}</head>\n<body class="sf-page-type-${input.pageType}">\n`,
    close:
      '\n' +
      (input.pillCart ? `${input.pillCart}\n` : '') +
      `<script type="application/json" id="${CONTEXT_SCRIPT_ID}" ${PROTOCOL_VERSION_ATTR}="${ISLAND_PROTOCOL_VERSION}">${json}</script>\n`,
    end: `${ISLANDS_SCRIPT}\n</body>\n</html>\n`,
    captchaLocal: input.captchaLocal,
    pillCartHasCaptcha: input.pillCart.includes(CAPTCHA_CONTAINER),
  };
}

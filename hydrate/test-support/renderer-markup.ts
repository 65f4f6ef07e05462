/**
 * Renderer-made island markup that STOREFRONT section A defines. The fixed blocks come from
 * the pure module the renderer writes them from; the parametrised ones are test-only copies.
 */
export { ACCOUNT_SIGNED_IN_HTML, ACCOUNT_SIGNED_OUT_HTML, PILL_CART_HTML } from '../shared/island-markup.ts';

export function bnplHtml(opts: {
  context?: string;
  itemId?: string;
  productType?: number;
  priceCents?: number;
  currency?: string;
  json: string;
}): string {
  return (
    `<div class="sf-bnpl" data-island="bnpl" data-context="${opts.context ?? 'product'}"\n` +
    `     data-item-id="${opts.itemId ?? 'p1'}" data-product-type="${opts.productType ?? 1}" data-price-cents="${opts.priceCents ?? 5000}" data-currency="${opts.currency ?? 'USD'}">\n` +
    `  <script type="application/json" data-bnpl-context>\n    ${opts.json}\n  </script>\n</div>`
  );
}

export function bnplContext(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    afterPayAvailable: true,
    afterPayMin: 100,
    afterPayMax: 200000,
    shopperLanguage: 'en',
    stripeAccountCountry: 'US',
    ...overrides,
  });
}

export interface SiteFormField {
  id: string;
  type: string;
  title?: string;
  required?: boolean;
  maxLength?: string;
  name?: string;
  /** Inner controls markup; defaults per type. */
  controls?: string;
}

function defaultControls(f: SiteFormField): string {
  switch (f.type) {
    case 'textarea':
      return `<textarea id="${f.id}" name="${f.name ?? f.id}"></textarea>`;
    case 'name':
      return `<input name="${f.id}-First" type="text"><input name="${f.id}-Last" type="text">`;
    case 'hidden':
      return `<input type="hidden" name="${f.name ?? f.id}" value="">`;
    case 'section':
      return '';
    default:
      return `<input id="${f.id}" name="${f.name ?? f.id}" type="${f.type === 'email' ? 'email' : 'text'}">`;
  }
}

export function siteFormHtml(opts: {
  formId?: string;
  fields: SiteFormField[];
  captchaEnabled?: boolean;
  successRedirect?: string;
  newsletter?: boolean;
  captchaTheme?: string;
}): string {
  const fields = opts.fields
    .map((f) => {
      if (f.type === 'section') {
        return `\n  <div class="sf-field" data-field-id="${f.id}" data-field-type="section"><h3 class="title">${f.title ?? ''}</h3></div>`;
      }
      return (
        `\n  <div class="sf-field" data-field-id="${f.id}" data-field-type="${f.type}" data-required="${f.required ? 'true' : 'false'}" data-max-length="${f.maxLength ?? ''}">` +
        `\n    <label class="title" for="${f.id}">${f.title ?? f.id}${f.required ? ' <span class="required">*</span>' : ''}</label>` +
        `\n    ${f.controls ?? defaultControls(f)}` +
        `\n  </div>`
      );
    })
    .join('');
  return (
    `<form class="sf-site-form" data-island="site-form" data-form-id="${opts.formId ?? 'form1'}"\n` +
    `      data-captcha-enabled="${opts.captchaEnabled ? 'true' : 'false'}" data-captcha-theme="${opts.captchaTheme ?? 'light'}" data-captcha-alignment="center"\n` +
    `      data-success-redirect="${opts.successRedirect ?? ''}" data-content-source="c" data-page-permission-type="1"\n` +
    `      data-newsletter="${opts.newsletter ? 'true' : 'false'}" novalidate>\n` +
    `  <div class="sf-form-message sf-form-message-top" role="alert" hidden></div>` +
    fields +
    `\n  <div class="captcha-container"></div>` +
    `\n  <button type="submit" class="sf-form-submit" disabled>Send</button>` +
    `\n  <div class="sf-form-message sf-form-message-bottom" role="alert" hidden></div>` +
    `\n  <div class="sf-form-submission" hidden><p>Thanks!</p></div>` +
    `\n  <div class="sf-form-disclaimer"></div>` +
    `\n</form>`
  );
}

import { CENSUS_BUTTON_ATTR } from '../../hydrate/protocol/markers.ts';
import { ACCOUNT_SIGNED_IN_HTML, ACCOUNT_SIGNED_OUT_HTML } from '../../hydrate/shared/island-markup.ts';
import { isDarkColour, parseHexColour } from '../../hydrate/shared/colour-rules.ts';
import { imageMarkup } from '../../hydrate/shared/image-markup.ts';
import { parseOriginalSize } from '../../hydrate/shared/image-width-variants.ts';
import { selectPrompt } from '../../hydrate/shared/form-field.ts';
import type { Form, FormField } from '../store/types.ts';
import type { Block } from '../site/site-types.ts';
import { escapeHtml } from './html.ts';

// Content blocks of pages and items, rendered by the renderer itself: the site form and
// newsletter of A7, the account block of A10, product blocks (through the engine, so the
// formatter markup is the formatters'), and plain content blocks.

type Json = Record<string, unknown>;
const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

export interface BlockEnv {
  forms: ReadonlyMap<string, Form>;
  /** The product block of one product, or null when the store has no such product. */
  productBlock(productId: string): string | null;
  accountHtml: string;
  /** A7: `i` inside a collection item, `c` elsewhere. */
  contentSource: 'c' | 'i';
  /** Records a problem of the site content (unknown block, missing form …) for the page's diagnostics. */
  report(message: string): void;
}

/** A10 markup; signed in or not follows the session (C3). */
export function accountHtml(signedIn: boolean): string {
  return signedIn ? ACCOUNT_SIGNED_IN_HTML : ACCOUNT_SIGNED_OUT_HTML;
}

const TEXT_INPUT_TYPES: Readonly<Record<string, string>> = {
  text: 'text', email: 'email', number: 'number', website: 'url', currency: 'text', password: 'password', twitter: 'text',
};
const PARTS: Readonly<Record<string, string[]>> = {
  name: ['First', 'Last'],
  date: ['Month', 'Day', 'Year'],
  time: ['Hour', 'Minute', 'Ampm'],
  address: ['Line1', 'Line2', 'City', 'State', 'Zip', 'Country'],
};
const LIKERT = ['Strongly Disagree', 'Disagree', 'Neutral', 'Agree', 'Strongly Agree'];

function optionParts(option: unknown): { value: string; label: string } {
  if (typeof option === 'string') return { value: option, label: option };
  const o = (typeof option === 'object' && option !== null ? option : {}) as Json;
  const value = str(o.value, str(o.label));
  return { value, label: str(o.label, value) };
}

/** The controls of one field, in the shapes the A6/A7 value collector reads. */
function fieldControls(field: FormField): string {
  const id = escapeHtml(field.id);
  const placeholder = typeof field.placeholder === 'string' ? ` placeholder="${escapeHtml(field.placeholder)}"` : '';
  const parts = field.type === 'phone' ? (field.showCountryCode ? ['Country', 'Areacode', 'Prefix', 'Line'] : ['Areacode', 'Prefix', 'Line']) : PARTS[field.type];
  if (parts) {
    return parts
      .map((part, i) => `<input${i === 0 ? ` id="${id}"` : ''} name="${id}-${part}" type="text" placeholder="${part}" aria-label="${escapeHtml(field.title ?? '')} ${part}">`)
      .join('');
  }
  const options = Array.isArray(field.options) ? field.options.map(optionParts) : [];
  switch (field.type) {
    case 'textarea':
      return `<textarea id="${id}" name="${id}"${placeholder}></textarea>`;
    case 'hidden':
      return `<input type="hidden" name="${escapeHtml(field.name ?? field.title ?? field.id)}" value="${escapeHtml(typeof field.value === 'string' ? field.value : '')}">`;
    case 'checkbox':
    case 'radio':
      return options
        .map((o) => `<label class="option"><input type="${field.type}" name="${id}" value="${escapeHtml(o.value)}"> ${escapeHtml(o.label)}</label>`)
        .join('');
    case 'select':
      return (
        `<select id="${id}" name="${id}"><option value="">${escapeHtml(selectPrompt(field))}</option>` +
        options.map((o) => `<option value="${escapeHtml(o.value)}">${escapeHtml(o.label)}</option>`).join('') +
        '</select>'
      );
    case 'likert':
      return (Array.isArray(field.questions) ? field.questions : [])
        .map(
          (question, q) =>
            `<div class="likert-question" data-question="${escapeHtml(String(question))}"><span class="likert-question-text">${escapeHtml(String(question))}</span>` +
            LIKERT.map((answer) => `<label class="option"><input type="radio" name="${id}-${q}" value="${answer}"> ${answer}</label>`).join('') +
            '</div>',
        )
        .join('');
    default:
      return `<input id="${id}" name="${escapeHtml(field.name ?? field.id)}" type="${TEXT_INPUT_TYPES[field.type] ?? 'text'}"${placeholder}>`;
  }
}

function fieldHtml(field: FormField): string {
  const id = escapeHtml(field.id);
  const title = escapeHtml(field.title ?? '');
  if (field.type === 'section') {
    return `\n  <div class="sf-field" data-field-id="${id}" data-field-type="section"><h3 class="title">${title}</h3></div>`;
  }
  const max = typeof field.maxLength === 'number' && field.maxLength > 0 ? String(field.maxLength) : '';
  return (
    `\n  <div class="sf-field" data-field-id="${id}" data-field-type="${escapeHtml(field.type)}" data-required="${field.required ? 'true' : 'false'}" data-max-length="${max}">` +
    `\n    <label class="title" for="${id}">${title}${field.required ? ' <span class="required">*</span>' : ''}</label>` +
    (typeof field.description === 'string' && field.description !== '' ? `\n    <p class="description">${escapeHtml(field.description)}</p>` : '') +
    `\n    ${fieldControls(field)}` +
    `\n  </div>`
  );
}

/** A7 site form (and newsletter, the same island with `data-newsletter="true"`). */
export function siteFormHtml(form: Form, options: { newsletter: boolean; contentSource: 'c' | 'i'; pagePermissionType?: number; submitLabel?: string }): string {
  const extra = form.extra;
  const submission = str(extra.submissionHTML) || escapeHtml(str(extra.parsedSubmissionMessage, 'Thank you!'));
  const submit = options.submitLabel ?? str(extra.submitLabel, options.newsletter ? 'Sign Up' : 'Submit');
  return (
    `<form class="sf-site-form" data-island="site-form" data-form-id="${escapeHtml(form.id)}"\n` +
    `      data-captcha-enabled="${form.captchaEnabled ? 'true' : 'false'}" data-captcha-theme="${escapeHtml(str(extra.captchaTheme, 'light'))}" data-captcha-alignment="${escapeHtml(str(extra.captchaAlignment, 'center'))}"\n` +
    `      data-success-redirect="${escapeHtml(str(extra.successRedirect))}" data-content-source="${options.contentSource}" data-page-permission-type="${options.pagePermissionType ?? 1}"\n` +
    `      data-newsletter="${options.newsletter ? 'true' : 'false'}" novalidate>\n` +
    `  <div class="sf-form-message sf-form-message-top" role="alert" hidden></div>` +
    form.fields.map(fieldHtml).join('') +
    `\n  <div class="captcha-container"></div>` +
    // Disabled until the island takes the form (it enables it on mount). The markup has no
    // method, so a press or an Enter before then (slow script) sent the form as a GET to the
    // page: every value, email included, in the address bar and the history, and nothing
    // submitted. A disabled default button also stops Enter's implicit submission, so the
    // typed values simply wait on the page. (A POST answered 204 would keep the page too, but
    // Chromium stops a still-loading page's scripts when a navigation starts, so the islands
    // never came.)
    `\n  <button type="submit" class="sf-form-submit" disabled>${escapeHtml(submit)}</button>` +
    `\n  <div class="sf-form-message sf-form-message-bottom" role="alert" hidden></div>` +
    `\n  <div class="sf-form-submission" hidden>${submission}</div>` +
    `\n  <div class="sf-form-disclaimer">${str(extra.parsedDisclaimerMessage)}</div>` +
    `\n</form>`
  );
}

/**
 * `sizes` of an image block: the page's text column (46em, about 740 px) on a desktop, the
 * window on a phone; the browser picks the srcset candidate from it.
 */
export const IMAGE_BLOCK_SIZES = '(max-width: 720px) 100vw, 740px';

/**
 * An image block. With its `originalSize` (`1500x1000`) the picture is served by the site's
 * image service: the image template (hydrate/shared/image-markup.ts, `sqs` loader) gives it a
 * srcset of width variants, `sizes`, width and height (no layout shift), and loads it lazily
 * unless the block says `priority: high` (a picture above the fold). Without one the URL is
 * used as given.
 */
function imageHtml(block: Block, env: BlockEnv): string {
  const url = str(block.url);
  if (url === '') {
    env.report(`image block: ${block.url === undefined ? 'no "url"' : `"url" must be text, found ${JSON.stringify(block.url)}`}, so it shows nothing`);
    return '';
  }
  const caption = str(block.caption);
  const size = parseOriginalSize(block.originalSize);
  const img =
    size.ok && !url.startsWith('data:')
      ? imageMarkup({
          src: url,
          width: size.width,
          height: size.height,
          alt: str(block.alt),
          loader: 'sqs',
          sizes: IMAGE_BLOCK_SIZES,
          priority: block.priority === 'high' || block.priority === 'low' ? block.priority : null,
        })
      : `<img src="${escapeHtml(url)}" alt="${escapeHtml(str(block.alt))}"${block.priority === 'high' ? ' fetchpriority="high" loading="eager"' : block.priority === 'low' ? ' fetchpriority="low" loading="lazy"' : ' loading="lazy"'} decoding="async" style="display:block">`;
  return `<figure class="sf-block sf-image-block">${img}` + (caption ? `<figcaption>${escapeHtml(caption)}</figcaption>` : '') + '</figure>';
}

/**
 * A colour block: a panel on `colour` (hex, 3 or 6 digits, seed §5) with an optional heading
 * and text. The luminance rule of seed §9 (shared/colour-rules.ts) picks the text: light on a
 * dark colour, dark on a light one, so the author never chooses a colour nobody can read on.
 */
function colourBlockHtml(block: Block, env: BlockEnv): string {
  const colour = parseHexColour(block.colour);
  if (!colour.ok) env.report(`colour block: "${str(block.colour)}" is not a hex colour (#rgb or #rrggbb)`);
  const text = colour.ok && isDarkColour(colour.rgb) ? 'light' : 'dark';
  const style = colour.ok ? ` style="background-color:${colour.hex}"` : '';
  const heading = typeof block.heading === 'string' ? `<h2>${escapeHtml(block.heading)}</h2>` : '';
  const body = typeof block.text === 'string' ? `<p>${escapeHtml(block.text)}</p>` : '';
  return `<section class="sf-block sf-colour-block sf-colour-block--${text}-text"${style}>${heading}${body}</section>`;
}

export function renderBlock(block: Block, env: BlockEnv): string {
  switch (block.type) {
    case 'colour':
      return colourBlockHtml(block, env);
    case 'html':
      // Site content is trusted markup, written by the site's author.
      return str(block.html);
    case 'text':
      return `<p class="sf-block sf-text-block">${escapeHtml(str(block.text))}</p>`;
    case 'heading':
      return `<h2 class="sf-block sf-heading-block">${escapeHtml(str(block.text))}</h2>`;
    case 'image':
      return imageHtml(block, env);
    case 'button': {
      for (const key of ['label', 'url'] as const) {
        if (block[key] !== undefined && typeof block[key] !== 'string') env.report(`button block: "${key}" must be text, found ${JSON.stringify(block[key])}`);
      }
      const id = escapeHtml(str(block.buttonId, str(block.label)));
      return `<a class="sf-block sf-button-block sqs-button-element--primary" href="${escapeHtml(str(block.url, '#'))}" ${CENSUS_BUTTON_ATTR}="${id}">${escapeHtml(str(block.label, 'Learn more'))}</a>`;
    }
    case 'form':
    case 'newsletter': {
      const form = env.forms.get(str(block.formId));
      if (!form) {
        env.report(`${block.type} block: no form "${str(block.formId)}" in the store`);
        return '';
      }
      return siteFormHtml(form, {
        newsletter: block.type === 'newsletter' || form.isNewsletter,
        contentSource: env.contentSource,
        submitLabel: typeof block.submitLabel === 'string' ? block.submitLabel : undefined,
      });
    }
    case 'product': {
      const html = env.productBlock(str(block.productId));
      if (html === null) env.report(`product block: no product "${str(block.productId)}" in the store`);
      return html ?? '';
    }
    case 'account':
      return env.accountHtml;
    default:
      env.report(`unknown block type "${block.type}"`);
      return '';
  }
}

export function renderBlocks(blocks: readonly Block[], env: BlockEnv): string {
  return blocks.map((block) => renderBlock(block, env)).join('\n');
}

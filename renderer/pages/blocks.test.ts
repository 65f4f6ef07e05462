import { describe, expect, it } from 'vitest';
import type { Block } from '../site/site-types.ts';
import { renderBlock, siteFormHtml, type BlockEnv } from './blocks.ts';

function env(problems: string[] = []): BlockEnv {
  return { forms: new Map(), productBlock: () => null, accountHtml: '', contentSource: 'c', report: (m) => problems.push(m) };
}
const colour = (value: unknown, extra: Partial<Block> = {}) => renderBlock({ type: 'colour', colour: value, ...extra }, env());

describe('colour block (#18: the luminance rule of templates seed §9 picks the text)', () => {
  it('light text on a dark colour, dark text on a light one', () => {
    expect(colour('#1d3557', { heading: 'Indigo & ink', text: 'Dyed <by hand>' })).toBe(
      '<section class="sf-block sf-colour-block sf-colour-block--light-text" style="background-color:#1d3557"><h2>Indigo &amp; ink</h2><p>Dyed &lt;by hand&gt;</p></section>',
    );
    expect(colour('#f4e3c1')).toBe('<section class="sf-block sf-colour-block sf-colour-block--dark-text" style="background-color:#f4e3c1"></section>');
  });

  it('follows the weighted luminance, not the 24-bit number: maroon is dark, though 0x800000 > 0x7fffff', () => {
    expect(colour('#800000')).toContain('sf-colour-block--light-text');
    expect(colour('00f')).toContain('sf-colour-block--light-text');
    expect(colour('#ffff00')).toContain('sf-colour-block--dark-text');
    // At the 0.65 × 256 boundary: grey 166 (luminance 166 < 166.4) is dark, 167 is light.
    expect(colour('#a6a6a6')).toContain('--light-text');
    expect(colour('#a7a7a7')).toContain('--dark-text');
  });

  it('a colour that is not hex is a content problem, and the block keeps the theme colours', () => {
    const problems: string[] = [];
    const html = renderBlock({ type: 'colour', colour: 'teal', text: 'x' }, env(problems));
    expect(html).toBe('<section class="sf-block sf-colour-block sf-colour-block--dark-text"><p>x</p></section>');
    expect(problems).toEqual(['colour block: "teal" is not a hex colour (#rgb or #rrggbb)']);
  });
});

describe('image block (#16: served by the image service with a srcset)', () => {
  const image = (extra: Partial<Block> = {}) => renderBlock({ type: 'image', url: '/assets/site/images/studio.webp', alt: 'The studio', ...extra }, env());

  it('with its originalSize: the sqs srcset of width variants, sizes, width and height, lazy unless priority high', () => {
    const html = image({ originalSize: '1500x1000', caption: 'A & B' });
    expect(html).toContain('src="/assets/site/images/studio.webp?format=1500w"');
    expect(html).toContain('srcSet="/assets/site/images/studio.webp?format=100w 100w, ');
    expect(html).toContain('/assets/site/images/studio.webp?format=2500w 2500w"');
    expect(html).toContain(' sizes="(max-width: 720px) 100vw, 740px" width="1500" height="1000" alt="The studio"');
    expect(html).toContain('loading="lazy"');
    expect(html).not.toContain('<link rel="preload"');
    expect(html).toMatch(/^<figure class="sf-block sf-image-block"><img .*\/><figcaption>A &amp; B<\/figcaption><\/figure>$/);
    // Above the fold: at once, with high priority and the preload hint of the image template.
    const eager = image({ originalSize: '1500x1000', priority: 'high' });
    expect(eager).toContain('loading="eager" fetchPriority="high"');
    expect(eager).toContain('<link rel="preload" as="image" imageSrcSet=');
  });

  it('without an originalSize the URL is used as given', () => {
    expect(image()).toBe('<figure class="sf-block sf-image-block"><img src="/assets/site/images/studio.webp" alt="The studio" loading="lazy" decoding="async" style="display:block"></figure>');
    expect(image({ originalSize: 'big' })).not.toContain('srcSet');
  });
});

describe('image and button blocks report what they cannot show (quire check frames these)', () => {
  it('an image block without a url, or with one that is not text, shows nothing and says so', () => {
    const problems: string[] = [];
    expect(renderBlock({ type: 'image', alt: 'x' }, env(problems))).toBe('');
    expect(renderBlock({ type: 'image', url: 42 }, env(problems))).toBe('');
    expect(problems).toEqual(['image block: no "url", so it shows nothing', 'image block: "url" must be text, found 42, so it shows nothing']);
  });

  it('a button whose label or url is not text falls back, and says so', () => {
    const problems: string[] = [];
    expect(renderBlock({ type: 'button', label: 42, url: '/shop' }, env(problems))).toContain('>Learn more</a>');
    expect(renderBlock({ type: 'button', label: 'Go', url: ['/x'] }, env(problems))).toContain('href="#"');
    expect(renderBlock({ type: 'button', label: 'Go', url: '/x' }, env(problems))).toContain('href="/x"');
    expect(problems).toEqual(['button block: "label" must be text, found 42', 'button block: "url" must be text, found ["/x"]']);
  });
});

describe('site form fields', () => {
  it("a select's empty first option reads as a prompt: Select {title}, or the field's placeholder", () => {
    const html = siteFormHtml(
      {
        id: 'f',
        name: 'F',
        captchaEnabled: false,
        storageConfigured: true,
        isNewsletter: false,
        extra: {},
        fields: [
          { id: 'font', type: 'select', title: 'Font', options: ['Serif'] },
          { id: 'size', type: 'select', title: 'Size', placeholder: 'Pick one', options: ['S'] },
        ],
      },
      { newsletter: false, contentSource: 'c' },
    );
    expect(html).toContain('<select id="font" name="font"><option value="">Select Font</option><option value="Serif">Serif</option></select>');
    expect(html).toContain('<select id="size" name="size"><option value="">Pick one</option>');
  });
});

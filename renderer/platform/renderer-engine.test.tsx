import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { compile, listPlugins, parseJson } from '../../engine/index.ts';
import { imageMarkup } from '../../hydrate/shared/image-markup.ts';
import { ImageComponent } from '../../hydrate/platform/image/image-component.tsx';
import { compileCached } from '../site/load-site.ts';
import { createRendererEngine, rendererEngine } from './renderer-engine.ts';

const asset = { assetUrl: '/s/mug.jpg', originalSize: '1200x800', altText: 'Blue mug' };

describe('renderer engine', () => {
  it('adds image-component without touching the default registry', () => {
    expect(listPlugins().formatters).toHaveLength(95);
    expect(listPlugins().predicates).toHaveLength(101);
    expect(listPlugins().formatters).not.toContain('image-component');
    expect(compile('{a|image-component}').diagnostics.map((d) => d.code)).toContain('FORMATTER_UNKNOWN');
    const engine = createRendererEngine();
    expect(engine.registry.formatters.size).toBe(96);
    expect(engine.registry.predicates.size).toBe(101);
    expect(engine.registry.formatters.has('image-component')).toBe(true);
    expect(rendererEngine()).toBe(rendererEngine());
  });

  it('site templates compile with it, so they can use image-component', () => {
    const { template } = compileCached('templates/test.jsont', '{image|image-component}');
    expect(template.diagnostics).toEqual([]);
    expect(template.render({ image: asset }).html).toContain('<img src="/s/mug.jpg"');
  });

  it('renders the default formatters as the default engine does', () => {
    const source = '{title|html} {price|money-format}';
    const data = { title: '<b>', price: 12.5 };
    expect(rendererEngine().compile(source).render(data).html).toBe(compile(source).render(data).html);
  });
});

describe('image-component formatter', () => {
  const run = (source: string, data: unknown) => {
    const template = rendererEngine().compile(source);
    expect(template.diagnostics).toEqual([]);
    return template.render(data).html;
  };

  it('an asset gives src, originalSize dimensions and alt text', () => {
    expect(run('{image|image-component}', { image: asset })).toBe(imageMarkup({ src: '/s/mug.jpg', width: 1200, height: 800, alt: 'Blue mug' }));
  });

  it('key=value arguments override, with any delimiter', () => {
    const html = run('{image|image-component;loader=sqs;sizes=(max-width: 640px) 100vw, 50vw;priority=high;class=hero}', { image: asset });
    const inputs = { src: '/s/mug.jpg', width: 1200, height: 800, alt: 'Blue mug', loader: 'sqs', sizes: '(max-width: 640px) 100vw, 50vw', priority: 'high', class: 'hero' };
    expect(html).toBe(imageMarkup(inputs));
    expect(html).toContain('src="/s/mug.jpg?format=1500w"');
    expect(html).toBe(renderToStaticMarkup(<ImageComponent {...inputs} />));
  });

  it('a node of template inputs, with JSON doubles rounded', () => {
    const data = parseJson('{"img": {"src": "/a.png", "width": 640.0, "height": 480.4, "alt": "", "passthrough": {"data-id": "x"}}}');
    expect(run('{img|image-component}', data)).toBe(
      '<img src="/a.png" width="640" height="480" alt="" style="display:block" decoding="async" loading="lazy" data-id="x"/>',
    );
  });

  it('an empty alt= argument marks a decorative image', () => {
    expect(run('{img|image-component alt=}', { img: { assetUrl: '/a.png', originalSize: '10x10' } })).toContain('alt=""');
    expect(run('{img|image-component}', { img: { assetUrl: '/a.png', originalSize: '10x10' } })).toContain('Warning: alt missing');
  });

  it('a bad originalSize prints the seed text', () => {
    expect(run('{img|image-component}', { img: { ...asset, originalSize: '1200' } })).toBe(
      '<span class="sqs-image-diagnostics" hidden=""><!-- Invalid source parameter. Pass in originalSize --></span>',
    );
  });

  it('the seed errors appear as comments', () => {
    expect(run('{img|image-component priority=soon}', { img: asset })).toContain('<!-- Error: priority not high, low or null. -->');
    expect(run('{missing|image-component}', {})).toContain('<!-- Error: src, width or height missing. -->');
  });

  it('unknown or malformed arguments are compile errors', () => {
    for (const source of ['{img|image-component bogus=1}', '{img|image-component sizes}']) {
      expect(rendererEngine().compile(source).diagnostics.map((d) => d.code)).toEqual(['FORMATTER_ARGS_INVALID']);
    }
  });
});

describe('variants-select on the storefront', () => {
  const tee = {
    id: 'tee',
    structuredContent: {
      productType: 1,
      variantOptionOrdering: ['Size'],
      variants: [
        { sku: 'S', attributes: { Size: 'S' }, priceMoney: { value: '25.00', currency: 'USD' } },
        { sku: 'M', attributes: { Size: 'M' }, priceMoney: { value: '25.00', currency: 'USD' } },
      ],
    },
  };

  it("gives the value labels no role and no tab stop (axe aria-allowed-role), and changes nothing else of the reference's markup", () => {
    const reference = compile('{@|variants-select}').render(tee).html;
    const storefront = rendererEngine().compile('{@|variants-select}').render(tee).html;
    expect(reference).toContain('role="button" tabindex="0" for="variant-option-Size-S"');
    expect(storefront).not.toContain('role="button"');
    expect(storefront).not.toMatch(/<label[^>]*tabindex/);
    expect(storefront.replaceAll('<label class="sqs-button-element--secondary" for=', '<label class="sqs-button-element--secondary" role="button" tabindex="0" for=')).toBe(reference);
  });

  it('changes the template, never the data: an option name holding the label text is printed as the reference prints it', () => {
    // The select's aria-label prints the name unescaped (the reference's bytes); rewriting each
    // output would have rewritten the merchant's text in it as well.
    const label = '<label class="sqs-button-element--secondary" role="button" tabindex="0" for=';
    const odd = { ...tee, structuredContent: { ...tee.structuredContent, variantOptionOrdering: [label], variants: [{ sku: 'S', attributes: { [label]: 'S' } }, { sku: 'M', attributes: { [label]: 'M' } }] } };
    const reference = compile('{@|variants-select}').render(odd).html;
    const storefront = rendererEngine().compile('{@|variants-select}').render(odd).html;
    const ariaLabel = (html: string) => /<select aria-label="([^\n]*)" data-variant-option-name/.exec(html)?.[1];
    expect(ariaLabel(reference)).toContain(label);
    expect(ariaLabel(storefront)).toBe(ariaLabel(reference));
    expect(storefront).not.toContain('tabindex="0" for="variant-option-');
  });
});

import { describe, expect, test } from 'vitest';
import { IMAGE_MESSAGES, imageMarkup, parseStyle, planImage } from './image-markup.ts';

const base = { src: '/cup.jpg', width: 800, height: 600, alt: 'Cup' };

describe('seed §5 comments', () => {
  test('the texts', () => {
    expect(Object.values(IMAGE_MESSAGES)).toEqual([
      'Error: src, width or height missing.',
      'Error: width or height not a positive integer (negative value).',
      'Error: width or height not a positive integer (non-integer value).',
      'Warning: alt missing (must be meaningful text, or an empty string for decorative images).',
      'Error: priority not high, low or null.',
      'Error: unknown loader type.',
      'Error: srcset used with a loader other than raw.',
      'Error: sizes missing with loader sqs.',
    ]);
  });

  test.each([
    ['src missing', { width: 1, height: 1, alt: '' }, IMAGE_MESSAGES.missing],
    ['width missing', { src: '/a', height: 1, alt: '' }, IMAGE_MESSAGES.missing],
    ['height empty', { src: '/a', width: 1, height: '', alt: '' }, IMAGE_MESSAGES.missing],
    ['negative width', { ...base, width: -3 }, IMAGE_MESSAGES.negative],
    ['zero rounds to not positive', { ...base, height: 0.4 }, IMAGE_MESSAGES.negative],
    ['non-numeric height', { ...base, height: '12px' }, IMAGE_MESSAGES.notInteger],
    ['infinite width', { ...base, width: Infinity }, IMAGE_MESSAGES.notInteger],
    ['priority', { ...base, priority: 'auto' }, IMAGE_MESSAGES.badPriority],
    ['loader', { ...base, loader: 'imgix' }, IMAGE_MESSAGES.unknownLoader],
    ['srcset with sqs', { ...base, loader: 'sqs', sizes: '1px', srcset: '/a 1x' }, IMAGE_MESSAGES.srcsetNeedsRaw],
    ['sqs without sizes', { ...base, loader: 'sqs' }, IMAGE_MESSAGES.sizesMissing],
  ])('%s: an error comment and no image', (_name, inputs, message) => {
    const html = imageMarkup(inputs);
    expect(html).toBe(`<span class="sqs-image-diagnostics" hidden=""><!-- ${message} --></span>`);
  });

  test('negative and non-integer together give both messages once each', () => {
    const plan = planImage({ src: '/a', width: -1, height: 'x', alt: '' });
    expect(plan.comments).toEqual([IMAGE_MESSAGES.negative, IMAGE_MESSAGES.notInteger]);
    expect(planImage({ src: '/a', width: -1, height: -2, alt: '' }).comments).toEqual([IMAGE_MESSAGES.negative]);
  });

  test('a missing alt is only a warning: the image is still drawn, without alt', () => {
    expect(imageMarkup({ src: '/a.png', width: 2, height: 3 })).toBe(
      '<span class="sqs-image-diagnostics" hidden=""><!-- Warning: alt missing (must be meaningful text, or an empty string for decorative images). --></span>' +
        '<img src="/a.png" width="2" height="3" style="display:block" decoding="async" loading="lazy"/>',
    );
  });
});

describe('image attributes', () => {
  test('width and height are rounded; display:block and async decoding always', () => {
    expect(imageMarkup({ ...base, width: 99.5, height: '200.49' })).toBe(
      '<img src="/cup.jpg" width="100" height="200" alt="Cup" style="display:block" decoding="async" loading="lazy"/>',
    );
  });

  test('seed §4 priority: high is eager with fetch priority high, low is lazy and low, none is lazy', () => {
    expect(planImage({ ...base, priority: 'high' }).img).toMatchObject({ loading: 'eager', fetchPriority: 'high' });
    expect(planImage({ ...base, priority: 'low' }).img).toMatchObject({ loading: 'lazy', fetchPriority: 'low' });
    expect(planImage({ ...base, priority: null }).img).toMatchObject({ loading: 'lazy', fetchPriority: null });
    expect(imageMarkup({ ...base, priority: 'high' })).toBe(
      '<link rel="preload" as="image" href="/cup.jpg" fetchPriority="high"/>' +
        '<img src="/cup.jpg" width="800" height="600" alt="Cup" style="display:block" decoding="async" loading="eager" fetchPriority="high"/>',
    );
  });

  test('sqs loader: src is the width variant, srcset the seven widths', () => {
    const img = planImage({ ...base, width: 640, loader: 'sqs', sizes: '100vw' }).img;
    expect(img?.src).toBe('/cup.jpg?format=750w');
    expect(img?.srcSet?.split(', ').map((c) => c.split(' ')[1])).toEqual(['100w', '300w', '500w', '750w', '1000w', '1500w', '2500w']);
    expect(img?.sizes).toBe('100vw');
  });

  test('raw loader keeps src and the given srcset', () => {
    const img = planImage({ ...base, loader: 'raw', srcset: '/a 1x, /b 2x' }).img;
    expect(img).toMatchObject({ src: '/cup.jpg', srcSet: '/a 1x, /b 2x' });
  });

  test('attribute values are escaped as React escapes them', () => {
    expect(imageMarkup({ ...base, alt: `"a" & 'b' <c>` })).toContain('alt="&quot;a&quot; &amp; &#x27;b&#x27; &lt;c&gt;"');
  });
});

describe('style', () => {
  test('display is always block and first; names lower-cased; repeated names keep the last value', () => {
    expect(parseStyle('DISPLAY: inline; Color: red; margin: 0; color: blue')).toEqual([
      { name: 'display', value: 'block' },
      { name: 'color', value: 'blue' },
      { name: 'margin', value: '0' },
    ]);
  });

  test('semicolons inside quotes and brackets do not split; junk declarations are dropped', () => {
    expect(parseStyle('background: url("a;b"); x; : y; 1a: 2; --Gap: 3px')).toEqual([
      { name: 'display', value: 'block' },
      { name: 'background', value: 'url("a;b")' },
      { name: '--Gap', value: '3px' },
    ]);
  });
});

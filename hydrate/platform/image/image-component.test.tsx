import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { imageMarkup, IMAGE_MESSAGES, type ImageInputs } from '../../shared/image-markup.ts';
import { ImageComponent } from './image-component.tsx';

const base = { src: '/s/cup.jpg', width: 800, height: 600, alt: 'A cup' };

const TABLE: [string, ImageInputs][] = [
  ['plain raw image', base],
  ['rounded sizes as strings', { ...base, width: '799.6', height: 600.4 }],
  ['decorative (empty alt)', { ...base, alt: '' }],
  ['alt missing: warning and image', { src: '/a.png', width: 10, height: 10 }],
  ['class and style', { ...base, class: 'thumb big', style: 'object-fit: cover; border-radius:4px; -webkit-filter: none; --ring: 1px' }],
  ['style with a data URL and a display override', { ...base, style: 'display:none;background:url("data:image/png;base64,AA;BB")' }],
  ['priority high', { ...base, priority: 'high' }],
  ['priority low', { ...base, priority: 'low' }],
  ['sqs loader', { ...base, loader: 'sqs', sizes: '(max-width: 640px) 100vw, 50vw' }],
  ['sqs loader, high priority', { ...base, loader: 'sqs', sizes: '100vw', priority: 'high' }],
  ['raw srcset with sizes', { ...base, srcset: '/a-1.jpg 1x, /a-2.jpg 2x', sizes: '50vw' }],
  ['raw srcset, high priority', { ...base, srcset: '/a-1.jpg 1x, /a-2.jpg 2x', priority: 'high' }],
  ['raw sizes without srcset, high priority', { ...base, sizes: '50vw', priority: 'high', class: 'hero' }],
  ['data URL, high priority', { ...base, src: 'data:image/svg+xml,%3Csvg%3E', priority: 'high' }],
  ['high priority with alt missing', { src: '/a.png', width: 1, height: 1, priority: 'high' }],
  ['escaping', { ...base, src: '/a.jpg?x=1&y="2"', alt: `<Tom's "cup">` }],
  ['passthrough', { ...base, passthrough: { 'data-image-id': 'i1', 'aria-describedby': 'cap', onclick: 'x', 'data-n': 3 } }],
  ['missing src', { width: 1, height: 1, alt: '' }],
  ['negative width', { ...base, width: -5 }],
  ['non-integer height', { ...base, height: 'tall' }],
  ['bad priority', { ...base, priority: 'urgent' }],
  ['unknown loader', { ...base, loader: 'cdn' }],
  ['srcset with sqs', { ...base, loader: 'sqs', sizes: '100vw', srcset: '/a 1x' }],
  ['sqs without sizes', { ...base, loader: 'sqs' }],
  ['everything wrong', { src: '', width: -1, height: 'x', priority: 1, loader: 'x', srcset: 'y' }],
];

describe('ImageComponent renders the server markup', () => {
  test.each(TABLE)('%s', (_name, inputs) => {
    expect(renderToStaticMarkup(<ImageComponent {...inputs} />)).toBe(imageMarkup(inputs));
  });

  test('the comparison is not vacuous: errors and images both appear', () => {
    expect(imageMarkup({ ...base, width: -5 })).toContain(IMAGE_MESSAGES.negative);
    expect(renderToStaticMarkup(<ImageComponent {...base} />)).toContain('<img src="/s/cup.jpg"');
  });

  test('onLoadingComplete does not change the markup', () => {
    expect(renderToStaticMarkup(<ImageComponent {...base} onLoadingComplete={() => {}} />)).toBe(imageMarkup(base));
  });
});

describe('ImageComponent and imageMarkup agree on generated inputs', () => {
  const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', ' ', '"&\'<>', 'data:x', '/a b.jpg?q=1&r=2'));
  const dimension = fc.oneof(
    fc.integer({ min: -5, max: 3000 }),
    fc.double({ min: -10, max: 3000, noNaN: true }),
    fc.constantFrom('12', ' 7.5 ', 'x', '', null, undefined, Infinity),
  );
  const declaration = fc.tuple(
    fc.constantFrom('color', 'Object-Fit', '-webkit-filter', 'ms-transform', '--Gap', 'display', 'a-1b', 'bad name', ''),
    fc.oneof(text, fc.constantFrom('url("a;b")', 'calc(1px + 2%)', '"q;"')),
  );
  const style = fc.oneof(fc.array(declaration, { maxLength: 4 }).map((ds) => ds.map(([n, v]) => `${n}:${v}`).join(';')), text);
  const inputs = fc.record(
    {
      src: fc.oneof(text, fc.constant('/s/cup.jpg')),
      width: dimension,
      height: dimension,
      alt: fc.oneof(text, fc.constant(undefined)),
      class: text,
      style,
      priority: fc.constantFrom('high', 'low', null, undefined, 'auto'),
      loader: fc.constantFrom('sqs', 'raw', undefined, 'cdn'),
      sizes: fc.oneof(text, fc.constant(undefined)),
      srcset: fc.oneof(text, fc.constant(undefined)),
      passthrough: fc.dictionary(fc.constantFrom('data-a', 'aria-label', 'data-x.y', 'onclick', 'Data-B'), fc.oneof(text, fc.integer())),
    },
    { requiredKeys: [] },
  );

  test('renderToStaticMarkup equals the server string', () => {
    fc.assert(
      fc.property(inputs, (props) => {
        expect(renderToStaticMarkup(<ImageComponent {...props} />)).toBe(imageMarkup(props));
      }),
      { numRuns: 400 },
    );
  });
});

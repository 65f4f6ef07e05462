// `comment-link` and `like-button` print their built-in templates in code (social.ts,
// util/printed-template.ts) and run them only where that declines. These tests hold the two
// to one another through the real engine: the page, the errors, and the instructions charged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node } from '../engine/plugin-api.ts';
import { commentLinkSpec, likeButtonSpec } from './social.ts';
import { inCodeHarness } from '../test/in-code-harness.ts';

const both = inCodeHarness([commentLinkSpec(false), likeButtonSpec(false)]);

// Each formatter on the item, after another formatter in a chain, and on a value that is not an object.
const SOURCES = [
  '{.repeated section items}{@|comment-link}{@|charged}{.end}',
  '{.repeated section items}{@|like-button}{@|charged}{.end}',
  '{.repeated section items}{@|json|comment-link}{@|json|like-button}{title|like-button}{@|charged}{.end}',
];

const scalar = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -2, max: 3 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }),
  fc.constantFrom('', '0', '1', 'x'.repeat(70), '/blog/a-post', '<&">'),
);
const value = fc.oneof(scalar, fc.constant({ a: 1 }), fc.constant([0]));
const item = fc.oneof(fc.record({ fullUrl: value, id: value, publicCommentCount: value, likeCount: value, title: scalar }, { requiredKeys: [] }), scalar);
const settings = fc.record({ disqusShortname: scalar, simpleLikingEnabled: scalar }, { requiredKeys: [] });
const page = fc.record({ items: fc.array(item, { maxLength: 4 }), websiteSettings: settings, fullUrl: scalar, id: scalar }, { requiredKeys: ['items'] });

describe('comment-link and like-button printed in code', () => {
  it('print what their templates print, with the same errors and the same charges', () => {
    fc.assert(
      fc.property(page, fc.constantFrom(...SOURCES), (p, source) => {
        const { code, template } = both(source, p as Node);
        expect(code).toEqual(template);
      }),
      { numRuns: 3000 },
    );
  });

  it('end a render at a limit where and as the templates do', () => {
    fc.assert(
      fc.property(page, fc.constantFrom(...SOURCES), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 200 }), (p, source, steps, out) => {
        const a = both(source, p as Node, { maxInstructions: steps });
        expect(a.code).toEqual(a.template);
        const b = both(source, p as Node, { maxOutputLength: out });
        expect(b.code).toEqual(b.template);
      }),
      { numRuns: 1500 },
    );
  });
});

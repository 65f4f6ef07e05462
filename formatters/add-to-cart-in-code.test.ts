// `add-to-cart-btn` prints its built-in template in code (commerce.ts, `printAddToCart`) and
// runs it only where that declines. These tests hold the two to one another through the real
// engine: the page, the errors, and the instructions charged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node } from '../engine/plugin-api.ts';
import { addToCartSpec } from './commerce.ts';
import { inCodeHarness } from '../test/in-code-harness.ts';

const both = inCodeHarness([addToCartSpec(false)]);

const SOURCES = ['{.repeated section items}{@|add-to-cart-btn}{@|charged}{.end}', '{.repeated section items}{@|json|add-to-cart-btn}{title|add-to-cart-btn}{@|charged}{.end}'];

const scalar = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -2, max: 4 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }),
  fc.constantFrom('', 'Buy "now" & <save>', 'Añadir al carrito', 'x'.repeat(70), '0'),
);
const value = fc.oneof(scalar, fc.constant({ a: '<b>' }), fc.constant([1, '"']));
const content = fc.record(
  {
    productType: scalar,
    useCustomAddButtonText: scalar,
    customAddButtonText: value,
    isSubscribable: scalar,
    additionalFieldsFormId: scalar,
    additionalFieldsForm: value,
    productSubscriptionOptions: fc.constantFrom(undefined, [{ id: 'opt-1' }], []),
  },
  { requiredKeys: [] },
);
const item = fc.oneof(fc.record({ id: value, collectionId: value, title: scalar, structuredContent: content }, { requiredKeys: [] }), scalar);
const strings = fc.record({ productAddToCartText: value, productSubscribeText: value }, { requiredKeys: [] });
const page = fc.record({ items: fc.array(item, { maxLength: 3 }), localizedStrings: strings, id: scalar, collectionId: scalar }, { requiredKeys: ['items'] });

describe('add-to-cart-btn printed in code', () => {
  it('prints what its template prints, with the same errors and the same charges', () => {
    fc.assert(
      fc.property(page, fc.constantFrom(...SOURCES), (p, source) => {
        const { code, template } = both(source, p as Node);
        expect(code).toEqual(template);
      }),
      { numRuns: 3000 },
    );
  });

  it('ends a render at a limit where and as the template does', () => {
    fc.assert(
      fc.property(page, fc.constantFrom(...SOURCES), fc.integer({ min: 1, max: 120 }), fc.integer({ min: 0, max: 600 }), (p, source, steps, out) => {
        const a = both(source, p as Node, { maxInstructions: steps });
        expect(a.code).toEqual(a.template);
        const b = both(source, p as Node, { maxOutputLength: out });
        expect(b.code).toEqual(b.template);
      }),
      { numRuns: 1500 },
    );
  });
});

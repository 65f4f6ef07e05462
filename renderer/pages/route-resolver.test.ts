import { describe, expect, it } from 'vitest';
import type { ContentEntry, LoadedSite } from '../site/site-types.ts';
import { resolveRoute, templateNames } from './route-resolver.ts';

function entry(slug: string, change: Partial<ContentEntry> = {}): ContentEntry {
  return {
    file: `content/${slug}.json`, id: slug, kind: 'page', slug, title: slug, pageType: 2, template: null, home: false, password: null,
    memberArea: false, videoPaywall: false, collectionType: null, blocks: [], items: [], data: {}, ...change,
  };
}

const shop = entry('shop', { kind: 'collection', pageType: 1, collectionType: 'products' });
const blog = entry('blog', { kind: 'collection', pageType: 1, collectionType: 'blog', template: 'journal', items: [{ id: 'p1', slug: 'first', title: 'First', blocks: [], data: {} }] });
const about = entry('about', { home: true });
const site = { entries: [shop, blog, about], bySlug: new Map([shop, blog, about].map((e) => [e.slug, e])), home: about } as unknown as LoadedSite;

describe('C1 routing', () => {
  it.each([
    ['/', { kind: 'entry', entry: about }],
    ['/about/', { kind: 'entry', entry: about }],
    ['/shop/tee', { kind: 'product', entry: shop, productSlug: 'tee' }],
    ['/blog/first', { kind: 'content-item', entry: blog, item: blog.items[0] }],
    ['/blog/none', { kind: 'not-found' }],
    ['/about/x', { kind: 'not-found' }],
    ['/search', { kind: 'search' }],
    ['/cart', { kind: 'cart' }],
    ['/checkout', { kind: 'checkout', variant: 'cart' }],
    ['/checkout/gift-card', { kind: 'checkout', variant: 'gift-card' }],
    ['/checkout/subscription', { kind: 'checkout', variant: 'subscription' }],
    ['/checkout/other', { kind: 'not-found' }],
    ['/commerce/orders/o%201/confirmed', { kind: 'order-confirmed', orderId: 'o 1' }],
    ['/%zz', { kind: 'not-found' }],
    ['//shop', { kind: 'not-found' }],
    ['/shop/a/b', { kind: 'not-found' }],
  ])('%s', (path, route) => {
    expect(resolveRoute(site, path)).toEqual(route);
  });
});

describe('template lookup', () => {
  it('tries the content template, then the type names, most specific first', () => {
    expect(templateNames(1, blog)).toEqual(['journal', 'blog.list', 'collection.list']);
    expect(templateNames(50, blog)).toEqual(['journal.item', 'blog.item', 'collection.item']);
    expect(templateNames(50, shop)).toEqual(['products.item', 'collection.item']);
    expect(templateNames(2, about)).toEqual(['page']);
    // A special page type's own template (site or built-in) wins over the site's generic `page`.
    expect(templateNames(203, entry('give', { pageType: 203, template: 'giving' }))).toEqual(['giving', 'donate']);
    expect(templateNames(212, null)).toEqual(['page']);
    expect(templateNames(205, null)).toEqual(['cart-v2', 'cart']);
    expect(templateNames(105, entry('secret', { template: 'fancy' }))).toEqual(['protected']);
  });
});

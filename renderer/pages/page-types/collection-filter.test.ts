import { describe, expect, it } from 'vitest';
import { demoSite, useDemoHarness } from '../../test-support/page-harness.ts';
import { collectionFilterOf, filterContext, filterMatcher, FILTER_VALUE_LIMIT, foldLabel } from './collection-filter.ts';

describe('collectionFilterOf: the ?tag= / ?category= a collection page is asked for', () => {
  it('reads a tag or a category, trimmed; a tag wins over a category', () => {
    expect(collectionFilterOf({ tag: ' apparel ' })).toEqual({ kind: 'tag', value: 'apparel' });
    expect(collectionFilterOf({ category: 'Studio' })).toEqual({ kind: 'category', value: 'Studio' });
    expect(collectionFilterOf({ tag: 'apparel', category: 'Studio' })).toEqual({ kind: 'tag', value: 'apparel' });
  });

  it('is none for an absent, blank or non-text value, and a blank tag leaves the category', () => {
    expect(collectionFilterOf({})).toBeNull();
    expect(collectionFilterOf({ tag: '   ' })).toBeNull();
    expect(collectionFilterOf({ tag: { a: 1 } })).toBeNull();
    expect(collectionFilterOf({ tag: '', category: 'News' })).toEqual({ kind: 'category', value: 'News' });
  });

  it('takes the first of repeated values and cuts a long one', () => {
    expect(collectionFilterOf({ tag: ['a', 'b'] })).toEqual({ kind: 'tag', value: 'a' });
    expect(collectionFilterOf({ tag: 'x'.repeat(5000) })?.value).toHaveLength(FILTER_VALUE_LIMIT);
  });
});

describe('foldLabel and filterMatcher: which items a filter keeps', () => {
  it('folds case and the marks between words, keeping letters of every script', () => {
    expect(foldLabel('Behind the Scenes')).toBe('behind-the-scenes');
    expect(foldLabel('#behind-the-scenes')).toBe('behind-the-scenes');
    expect(foldLabel('  Café / Thé ')).toBe('café-thé');
    expect(foldLabel('#')).toBe('');
  });

  it('matches a tag against tags and a category against categories only', () => {
    const post = { tags: ['behind the scenes', 'dyeing'], categories: ['Studio'] };
    expect(filterMatcher({ kind: 'tag', value: 'Behind-The-Scenes' })(post)).toBe(true);
    expect(filterMatcher({ kind: 'tag', value: 'studio' })(post)).toBe(false);
    expect(filterMatcher({ kind: 'category', value: 'studio' })(post)).toBe(true);
    expect(filterMatcher({ kind: 'category', value: 'dyeing' })(post)).toBe(false);
  });

  it('keeps nothing for a value that folds to nothing, and ignores fields that are not lists of text', () => {
    expect(filterMatcher({ kind: 'tag', value: '#' })({ tags: ['', '#'] })).toBe(false);
    expect(filterMatcher({ kind: 'tag', value: 'a' })({ tags: 'a' })).toBe(false);
    expect(filterMatcher({ kind: 'tag', value: 'a' })({ tags: [1, null, 'A'] })).toBe(true);
    expect(filterMatcher({ kind: 'tag', value: 'a' })({})).toBe(false);
  });

  it('gives templates tagFilter or categoryFilter and collectionFilter', () => {
    expect(filterContext({ kind: 'tag', value: 'apparel' }, 3, '/shop')).toEqual({
      tagFilter: 'apparel',
      collectionFilter: { kind: 'tag', value: 'apparel', itemCount: 3, allUrl: '/shop' },
    });
    expect(filterContext({ kind: 'category', value: 'Studio' }, 0, '/journal')).toEqual({
      categoryFilter: 'Studio',
      collectionFilter: { kind: 'category', value: 'Studio', itemCount: 0, allUrl: '/journal' },
    });
  });
});

describe('the demo: tag and category links land on their filtered collection', () => {
  const h = useDemoHarness();
  const body = (html: string) => html.slice(html.indexOf('<body'));
  const productLinks = (html: string) => [...body(html).matchAll(/class="sf-product-card-link" href="([^"]+)"/g)].map((m) => m[1]);
  const postIds = (html: string) => [...body(html).matchAll(/<article class="demo-post-card[^"]*" id="post-([^"]+)"/g)].map((m) => m[1]);
  const heading = (html: string) => /<h1 class="sf-collection-title">([^<]*)<\/h1>/.exec(html)?.[1];

  it("the tee's #apparel link leads to the shop filtered by that tag: the tee, hoodie and cap, a heading and a way back", async () => {
    const tee = await h.inject('/shop/tee');
    expect(tee.body).toContain('<a class="demo-tag" href="/shop?tag=apparel" rel="tag">#apparel</a>');
    expect(tee.body).not.toContain('/search?q=apparel');
    for (const url of ['/shop?tag=apparel', '/shop?tag=APPAREL', '/shop?tag=%23apparel']) {
      const page = await h.inject(url);
      expect(page.statusCode, url).toBe(200);
      expect(productLinks(page.body), url).toEqual(['/shop/tee', '/shop/hoodie', '/shop/cap']);
      expect(heading(page.body), url).toMatch(/^Shop: tagged “/);
      expect(page.body, url).toContain('3 products tagged');
      expect(page.body, url).toContain('<a href="/shop">See all products</a>');
    }
    expect((await h.inject('/shop?tag=apparel')).body).toContain('<title>Shop: tagged “apparel” — ');
  });

  it('the shop without a filter still lists every product with no filter line', async () => {
    const page = await h.inject('/shop');
    expect(productLinks(page.body).length).toBeGreaterThan(3);
    expect(heading(page.body)).toBe('Shop');
    expect(body(page.body)).not.toContain('demo-filter-note');
  });

  it('a tag nothing carries says so on the shop page, with the way back, and echoes nothing unescaped', async () => {
    const page = await h.inject('/shop?tag=%3Cb%3Enope');
    expect(page.statusCode).toBe(200);
    expect(productLinks(page.body)).toEqual([]);
    expect(page.body).toContain('Nothing in the shop is tagged “&lt;b&gt;nope” right now.');
    expect(page.body).toContain('<a href="/shop">See all products</a>');
    expect(body(page.body)).not.toContain('<b>nope');
  });

  it("a journal post's tag and category links lead to the journal filtered by them", async () => {
    const post = await h.inject('/journal/indigo-dye-day');
    expect(post.body).toContain('href="/journal?tag=behind+the+scenes" rel="tag">#behind-the-scenes</a>');
    expect(post.body).toContain('<a href="/journal?category=Studio">Studio</a>');
    const tagged = await h.inject('/journal?tag=behind+the+scenes');
    expect(postIds(tagged.body)).toEqual(['post-indigo-dye-day']);
    expect(heading(tagged.body)).toBe('Journal: tagged “behind the scenes”');
    expect(tagged.body).toContain('<a href="/journal">See all posts</a>');
    // The tag as the page shows it (`#behind-the-scenes`) finds the post too.
    expect(postIds((await h.inject('/journal?tag=behind-the-scenes')).body)).toEqual(['post-indigo-dye-day']);
    const filed = await h.inject('/journal?category=Studio');
    expect(postIds(filed.body).sort()).toEqual(['post-indigo-dye-day', 'post-riso-season']);
    expect(heading(filed.body)).toBe('Journal: filed under “Studio”');
    expect(filed.body).toContain('2 posts filed under “Studio”.');
  });

  it('junk filters answer 200 with the page, never an error', async () => {
    for (const url of ['/shop?tag[]=x', '/shop?tag=%', '/shop?tag=a&tag=b', `/shop?category=${'x'.repeat(3000)}`, '/journal?tag=%00', '/about?tag=apparel']) {
      const page = await h.inject(url);
      expect(page.statusCode, url).toBe(200);
    }
  });

  it('the built-in list templates (a site without its own) say what is filtered and link back to every item', async () => {
    const demo = await demoSite();
    const templates = new Map(demo.templates);
    templates.delete('products.list');
    templates.delete('blog.list');
    h.setSite({ ...demo, templates });
    try {
      const shop = await h.inject('/shop?tag=apparel');
      expect(heading(shop.body)).toBe('Shop: tagged “apparel”');
      expect(shop.body).toContain('<p class="sf-collection-filter"><a href="/shop">See all of the Shop</a></p>');
      expect(productLinks(shop.body)).toEqual(['/shop/tee', '/shop/hoodie', '/shop/cap']);
      expect((await h.inject('/shop?category=Nope')).body).toContain('<p class="sf-empty">No product is filed under “Nope”.</p>');
      const journal = await h.inject('/journal?category=News');
      expect(heading(journal.body)).toBe('Journal: filed under “News”');
      expect([...body(journal.body).matchAll(/<li class="sf-item"><a href="([^"]+)"/g)].map((m) => m[1])).toEqual(['/journal/coffee-club-turns-one']);
      expect((await h.inject('/journal?tag=zz')).body).toContain('<p class="sf-empty">Nothing is tagged “zz”.</p>');
      // Unfiltered, the built-in list is as it was: no filter line.
      expect(body((await h.inject('/journal')).body)).not.toContain('sf-collection-filter');
    } finally {
      h.setSite(demo);
    }
  });
});

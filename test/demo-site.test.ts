// The demo site's own content (fixtures/sites/demo: home, journal, events, gallery, about,
// contact) renders what its templates promise: the content formatters and predicates see
// the data they need, the forms come from the catalogue, and nothing is reported.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSite } from '../renderer/site/load-site.ts';
import { DEMO_SITE_DIR, useDemoHarness } from '../renderer/test-support/page-harness.ts';

/** 2026-11-24 12:00 UTC: after every post, before every event. */
const NOW = Date.UTC(2026, 10, 24, 12);

const h = useDemoHarness();

beforeAll(() => {
  h.clock.now = NOW;
});

/** GETs a page and insists it rendered cleanly; returns the body. */
async function page(url: string): Promise<string> {
  const response = await h.inject(url);
  const info = h.lastPage();
  expect({ url, status: response.statusCode, diagnostics: info?.diagnostics.map((d) => `${d.source}:${d.line} ${d.code}`), problems: info?.problems }).toEqual({
    url,
    status: 200,
    diagnostics: [],
    problems: [],
  });
  return response.body;
}

const main = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));

describe('demo site content', () => {
  it('loads without a single template syntax error', async () => {
    const site = await loadSite(DEMO_SITE_DIR);
    expect(site.problems).toEqual([]);
    for (const name of ['layout', 'home', 'page', 'blog.list', 'blog.item', 'events.list', 'events.item', 'gallery.list', 'gallery.item']) {
      expect(site.templates.get(name)?.template.diagnostics, name).toEqual([]);
    }
    expect(Object.keys(site.partials)).toEqual(expect.arrayContaining(['post-meta', 'comment', 'event-when']));
  });

  it('home: hero, product blocks and the newsletter form', async () => {
    const html = main(await page('/'));
    expect(html).toContain('<p class="demo-tagline">Small-batch goods, printed and dyed by hand in Providence.</p>');
    // The hero is the renderer's image component on the sqs loader: width variants of the
    // site's image service, sized from originalSize, fetched first (and preloaded).
    const hero = '/assets/site/images/window-[0-9a-f]{8}\\.webp';
    expect(html).toMatch(
      new RegExp(
        `<section class="demo-hero">\\n<link rel="preload" as="image" imageSrcSet="${hero}\\?format=100w 100w, [^"]+, ${hero}\\?format=2500w 2500w" imageSizes="\\(max-width: 720px\\) 100vw, 600px" fetchPriority="high"/>` +
          `<img src="${hero}\\?format=1500w" srcSet="[^"]+" sizes="\\(max-width: 720px\\) 100vw, 600px" width="1500" height="1000" alt="Our shop window on Wickenden Street, stacked with tees and enamel mugs" class="demo-hero-image" style="display:block" decoding="async" loading="eager" fetchPriority="high"/>\\n<div class="demo-hero-text">`,
      ),
    );
    expect(html).not.toContain('Invalid source parameter');
    expect(html).toContain('<div class="sf-product-block" data-product-scope data-item-id="tee">');
    expect(html).toContain('<div class="sf-product-block" data-product-scope data-item-id="mug">');
    expect(html).toMatch(/<form class="sf-site-form" data-island="site-form" data-form-id="newsletter"[^>]*data-newsletter="true"/);
  });

  it('navigation lists the sections in shop order and marks the current one', async () => {
    const html = await page('/journal');
    const nav = /<nav class="sf-nav demo-nav"[^>]*>(.*?)<\/nav>/.exec(html)?.[1] ?? '';
    expect([...nav.matchAll(/<a [^>]*>([^<]+)/g)].map((m) => m[1])).toEqual(['Shop', 'Journal', 'Events', 'Gallery', 'About', 'Contact', 'Lookbook']);
    expect(nav).toContain('<a href="/journal" aria-current="page">Journal</a>');
  });

  it('journal: four dated posts, newest first, with comment links when comments are on', async () => {
    const html = main(await page('/journal'));
    const titles = [...html.matchAll(/<h2 class="demo-post-title"><a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => m[1]);
    expect(titles).toEqual(['/journal/coffee-club-turns-one', '/journal/riso-season', '/journal/enamel-that-lasts', '/journal/indigo-dye-day']);
    expect(html).toContain('<time datetime="2026-09-02">September 2, 2026</time> · by Mara Okafor · in <a href="/journal?category=Studio">Studio</a> · 41 likes');
    // comment-link: the count, or "No" for zero, with the plural rule of PLUGINS §8.
    expect(html).toContain('<a href="/journal/indigo-dye-day#comments-post-indigo-dye-day" class="sqs-comment-link" data-id="post-indigo-dye-day">\n  3\n  Comments\n  </a>');
    expect(html).toContain('<a href="/journal/enamel-that-lasts#comments-post-enamel-that-lasts" class="sqs-comment-link" data-id="post-enamel-that-lasts">\n  1\n  Comment\n  </a>');
    expect(html).toContain('class="sqs-comment-link" data-id="post-coffee-club">\n  No\n  Comments\n  </a>');
  });

  it('a post: body, author, tags, like and share buttons, and its comments with their age', async () => {
    const html = main(await page('/journal/indigo-dye-day'));
    expect(html).toContain('<h1 class="sf-item-title">Indigo dye day</h1>');
    expect(html).toContain('<p class="demo-author"><strong>Mara Okafor</strong> · Dyer, printer, keeper of the shop cat.</p>');
    expect(html).toContain('<p class="demo-tags">Tagged <a class="demo-tag" href="/journal?tag=dyeing" rel="tag">#dyeing</a> <a class="demo-tag" href="/journal?tag=behind+the+scenes" rel="tag">#behind-the-scenes</a></p>');
    expect(html).toContain('<span class="sqs-simple-like" data-item-id="post-indigo-dye-day" data-like-count="41">');
    expect(html).toContain('<div class="squarespace-social-buttons button-style" data-system-data-id="img-indigo"');
    expect(html).toContain('<h2 id="comments-title">3 Comments</h2>');
    expect(html).toContain('<strong class="demo-comment-author">Priya</strong> <span class="demo-comment-when"><span class="timesince" data-date="1788447720000">about 2 months ago</span></span>');
    expect(html).toContain('<div class="squarespace-comments" id="comments-post-indigo-dye-day" data-item-id="post-indigo-dye-day" data-public-comment-count="3" data-comment-state="1"></div>');
    expect((await page('/journal/coffee-club-turns-one')).includes('No comments yet. Be the first to say hello.')).toBe(true);
  });

  it('events: dates in the site zone, a host zone where one is given, a calendar link', async () => {
    const html = main(await page('/events'));
    expect(html).toContain('<time datetime="2026-12-05T10:00:00-05:00">Saturday, December 5, 2026</time> · 10:00\u202fAM\u2009–\u20094:00\u202fPM EST');
    expect(html).toContain('<p class="demo-event-host-time">That is Saturday 09:00 to 11:00 JST in Kyoto.</p>');
    expect(html).toContain('<p class="demo-event-count">3 events coming up.</p>');
    const item = main(await page('/events/winter-market'));
    expect(item).toContain(
      'href="http://www.google.com/calendar/event?action=TEMPLATE&amp;text=Wickenden%20Winter%20Market&amp;dates=20261205T150000Z/20261205T210000Z&amp;location=123%20Wickenden%20St%2C%20Providence%2C%20RI%2002903%2C%20United%20States"',
    );
  });

  it('shop and product pages: pictures from the image service; the first loads at once, the rest lazily', async () => {
    const shop = main(await page('/shop'));
    const cards = [...shop.matchAll(/<a class="sf-product-card-link" href="[^"]+">(<img [^>]+>)/g)].map((m) => m[1]!);
    expect(cards).toHaveLength(13);
    expect(cards.map((card) => /loading="(\w+)"/.exec(card)?.[1])).toEqual(['eager', ...Array(12).fill('lazy')]);
    expect(cards[0]).toContain('fetchpriority="high"');
    for (const card of cards) {
      expect(card).toMatch(/ srcset="(\/assets\/site\/images\/[a-z-]+-[0-9a-f]{8}\.webp\?format=\d+w \d+w(, )?){7}" sizes="\(max-width: 480px\) 100vw, 260px" width="1000" height="1000" alt="[^"]+"/);
    }
    const hoodie = main(await page('/shop/hoodie'));
    const pictures = [...hoodie.matchAll(/<img class="(sf-product-image|sf-variant-image)"[^>]*>/g)].map((m) => m[0]);
    expect(pictures).toHaveLength(3);
    expect(pictures[0]).toMatch(/^<img class="sf-product-image" src="\/assets\/site\/images\/hoodie-navy-[0-9a-f]{8}\.webp\?format=1000w" srcset="[^"]+" sizes="\(max-width: 720px\) 100vw, 520px" width="1000" height="1000" alt="The Harbor Hoodie in navy, with its hood and kangaroo pocket" loading="eager" fetchpriority="high" decoding="async">$/);
    expect(pictures[2]).toMatch(/ alt="The Harbor Hoodie in sand" data-variant-image-for="HD-L-SAND" hidden loading="lazy" decoding="async">$/);
  });

  it('gallery: every photo with its alt text, the first one wide', async () => {
    const html = main(await page('/gallery'));
    expect([...html.matchAll(/<li class="demo-gallery-tile/g)]).toHaveLength(6);
    expect(html).toContain('<li class="demo-gallery-tile demo-gallery-tile-wide"><a href="/gallery/studio">');
    expect(html).toMatch(
      /<img src="\/assets\/site\/images\/indigo-[0-9a-f]{8}\.webp\?format=1500w" srcSet="[^"]+" sizes="\(max-width: 720px\) 50vw, 340px" width="1500" height="1000" alt="Twenty tees drying after their third dip." style="display:block" decoding="async" loading="lazy"\/>/,
    );
    // The first photo is above the fold: fetched at once; the other five wait until scrolled to.
    expect([...html.matchAll(/<img [^>]*style="display:block" decoding="async" loading="lazy"\/>/g)]).toHaveLength(5);
    expect([...html.matchAll(/<img [^>]*loading="eager" fetchPriority="high"\/>/g)]).toHaveLength(1);
    expect(html).not.toContain('Invalid source parameter');
    expect(html).toContain('<p class="demo-gallery-count">6 photos</p>');
    const press = main(await page('/gallery/press'));
    expect(press).toContain('<h1 class="sf-item-title">On the press</h1><p>Federal blue over fluorescent pink.</p>');
    expect(press).toMatch(
      /<figure class="demo-gallery-figure">\n<link rel="preload" [^>]+\/><img src="\/assets\/site\/images\/press-[0-9a-f]{8}\.webp\?format=1500w" srcSet="[^"]+" sizes="[^"]+" width="1500" height="1000" alt="[^"]+" style="display:block" decoding="async" loading="eager" fetchPriority="high"\/>/,
    );
  });

  it('galleries: one per design, each a plain linked list the gallery island reads its settings from', async () => {
    for (const [url, design, photos] of [['/gallery', 'grid', 6], ['/gallery-slideshow', 'slideshow', 6], ['/gallery-slider', 'slider', 4], ['/gallery-stacked', 'stacked', 3]] as const) {
      const html = main(await page(url));
      expect(html).toContain(`data-island="gallery"`);
      expect(html).toContain(`data-gallery-design="${design}"`);
      const settings = /data-gallery-settings="([^"]*)"/.exec(html)?.[1] ?? '';
      expect(JSON.parse(settings.replace(/&quot;/g, '"').replace(/&amp;/g, '&')).design).toBe(design);
      // Without JavaScript every photo is there, linked to its own page.
      expect([...html.matchAll(/<li class="demo-gallery-tile[^"]*"><a href="\/gallery[-a-z]*\/[a-z]+">(<link rel="preload" [^>]+\/>)?<img /g)]).toHaveLength(photos);
      expect(html).toContain('<nav class="demo-gallery-more" aria-label="More galleries">');
    }
    expect(main(await page('/gallery-slideshow/indigo'))).toContain('<h1 class="sf-item-title">Indigo dye day</h1>');
  });

  it('contact: the site form and a newsletter block from the catalogue', async () => {
    const html = main(await page('/contact'));
    expect(html).toMatch(/<form class="sf-site-form" data-island="site-form" data-form-id="contact"[^>]*data-newsletter="false"/);
    expect(html).toMatch(/<form class="sf-site-form" data-island="site-form" data-form-id="newsletter"[^>]*data-newsletter="true"/);
    expect(html).toContain('<button type="submit" class="sf-form-submit" disabled>Subscribe</button>');
  });
});

import fs from 'node:fs';
import path from 'node:path';

// `quire new DIR`: a small site an author starts from. Every file is one the site loader
// reads (renderer/README.md, "Site folder"); `quire check DIR` accepts it and every page of
// it renders without a template error (new-site.test.ts renders each one).

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The starter's files, path (relative to the folder) to text. */
export const STARTER_FILES: Readonly<Record<string, string>> = {
  'site.json': json({
    title: 'My Shop',
    locale: 'en-US',
    homePage: 'home',
    description: 'Small things, made with care.',
    navigation: [
      { title: 'Home', path: '/' },
      { title: 'Shop', path: '/shop' },
      { title: 'Journal', path: '/journal' },
      { title: 'Contact', path: '/contact' },
    ],
  }),
  // The store seed: prices are integer cents (`priceCents`), stock is `qtyInStock` per variant.
  'catalog.json': json({
    site: {
      websiteId: 'my-shop',
      settings: {
        currency: 'USD',
        timeZone: 'America/New_York',
        // The store's rules (renderer/orders/README.md). Without them a first checkout offered only
        // paying offline, said "Enter your shipping address to see the shipping options" under a
        // filled address, and the receipt thanked the buyer for an order "from our shop". The test
        // card (4242 4242 4242 4242) takes no money: the README says to drop "test" before selling.
        commerce: {
          storeName: 'My Shop',
          paymentProviders: ['test', 'manual'],
          shippingOptions: [{ id: 'standard', name: 'Standard', description: '3-5 business days', costCents: 500, freeOverCents: 5000 }],
        },
      },
    },
    products: [
      {
        id: 'mug',
        title: 'Stoneware Mug',
        urlSlug: 'mug',
        collectionId: 'shop',
        productType: 1,
        variants: [{ id: 'mug-default', sku: 'MUG-1', attributes: {}, priceCents: 1800, qtyInStock: 12 }],
        extra: { excerpt: 'Holds a generous cup.', body: '<p>Thrown by hand, glazed in speckled white.</p>' },
      },
      {
        id: 'tote',
        title: 'Canvas Tote',
        urlSlug: 'tote',
        collectionId: 'shop',
        productType: 1,
        variants: [
          { id: 'tote-natural', sku: 'TOTE-NAT', attributes: { Colour: 'Natural' }, priceCents: 2400, qtyInStock: 5 },
          { id: 'tote-black', sku: 'TOTE-BLK', attributes: { Colour: 'Black' }, priceCents: 2400, qtyInStock: 0 },
        ],
        restockEnabled: true,
        extra: { excerpt: 'Heavy cotton, long handles.', body: '<p>Carries a week of groceries.</p>' },
      },
    ],
    forms: [
      {
        id: 'contact',
        name: 'Contact us',
        fields: [
          { id: 'contact-name', type: 'name', title: 'Name', required: true },
          { id: 'contact-email', type: 'email', title: 'Email', required: true },
          { id: 'contact-message', type: 'textarea', title: 'Message', maxLength: 2000 },
        ],
        extra: { submissionHTML: '<p>Thanks, we will reply soon.</p>' },
      },
    ],
  }),
  'content/home.json': json({
    kind: 'page',
    slug: 'home',
    title: 'Welcome',
    home: true,
    description: 'Small things, made with care.',
    blocks: [
      { type: 'text', text: 'This is your new site. Edit content/home.json to change this page.' },
      { type: 'button', label: 'Visit the shop', url: '/shop' },
    ],
  }),
  'content/shop.json': json({ id: 'shop', kind: 'collection', collectionType: 'products', slug: 'shop', title: 'Shop' }),
  'content/journal.json': json({
    kind: 'collection',
    collectionType: 'blog',
    slug: 'journal',
    title: 'Journal',
    items: [
      {
        id: 'post-hello',
        slug: 'hello',
        title: 'Hello, world',
        addedOn: 1767276000000,
        excerpt: 'The first post of the journal.',
        body: '<p>Posts live in content/journal.json, one item each.</p>',
      },
      {
        id: 'post-glaze',
        slug: 'a-new-glaze',
        title: 'A new glaze',
        addedOn: 1769954400000,
        excerpt: 'Speckled white, fired twice.',
        body: '<p>Our mugs now come in speckled white.</p>',
      },
    ],
  }),
  'content/contact.json': json({
    kind: 'page',
    slug: 'contact',
    title: 'Contact',
    blocks: [
      { type: 'text', text: 'Questions about an order? Write to us.' },
      { type: 'form', formId: 'contact', submitLabel: 'Send' },
    ],
  }),
  // Added to every page's <head>, rendered with the page's data.
  'partials/head.jsont': [
    '{.section website.description}<meta name="description" content="{@|htmlattr}">{.end}',
    '<link rel="icon" href="data:image/svg+xml,%3Csvg%20xmlns=%22http://www.w3.org/2000/svg%22%20viewBox=%220%200%2016%2016%22%3E%3Ccircle%20cx=%228%22%20cy=%228%22%20r=%228%22%20fill=%22%232f5d50%22/%3E%3C/svg%3E">',
    '',
  ].join('\n'),
  'partials/post-meta.jsont': '<p class="post-meta"><time datetime="{addedOn|date %Y-%m-%d}">{addedOn|date %B %e, %Y}</time></p>\n',
  'templates/layout.jsont': [
    '<noscript><p class="site-noscript">This shop needs JavaScript for its cart, forms and sign-in.</p></noscript>',
    '<header class="sf-header site-header">',
    '<a class="sf-site-title" href="/">{website.siteTitle|html}</a>',
    '<nav class="sf-nav" aria-label="Main">{.repeated section navigation}<a href="{path|htmlattr}"{.if active} aria-current="page"{.end}>{title|html}</a>{.end}</nav>',
    '<a class="sf-cart-link" href="/cart">Cart</a>',
    '</header>',
    '<main class="sf-main site-main" id="main">',
    '{mainContent}',
    '</main>',
    '<footer class="sf-footer site-footer"><p>{website.siteTitle|html}</p></footer>',
    '',
  ].join('\n'),
  'templates/page.jsont': [
    '<article class="sf-page sf-page-{page.slug}">',
    '<h1 class="sf-page-title">{page.title|html}</h1>',
    '{page.blocksHtml}',
    '</article>',
    '',
  ].join('\n'),
  'templates/products.list.jsont': [
    '<section class="sf-collection sf-collection-products">',
    '<h1 class="sf-collection-title">{collection.title|html}</h1>',
    '{.section items}<div class="sf-product-grid">{.repeated section @}{@|apply sf-product-card}{.end}</div>',
    '{.or}<p class="sf-empty">No products yet.</p>{.end}',
    '</section>',
    '',
  ].join('\n'),
  'templates/products.item.jsont': [
    '<p class="sf-breadcrumb"><a href="{collection.fullUrl|htmlattr}">{collection.title|html}</a></p>',
    '{item|apply sf-product-detail}',
    '',
  ].join('\n'),
  'templates/blog.list.jsont': [
    '<section class="sf-collection sf-collection-blog">',
    '<h1 class="sf-collection-title">{collection.title|html}</h1>',
    '{.section items}{.repeated section @}',
    '<article class="post-card"><h2><a href="{fullUrl|htmlattr}">{title|html}</a></h2>{@|apply post-meta}',
    '{.section excerpt}<p>{@|truncate 160|html}</p>{.end}</article>',
    '{.end}{.or}<p class="sf-empty">No posts yet.</p>{.end}',
    '</section>',
    '',
  ].join('\n'),
  'templates/blog.item.jsont': [
    '<article class="sf-item-page post">',
    '<p class="sf-breadcrumb"><a href="{collection.fullUrl|htmlattr}">{collection.title|html}</a></p>',
    '{.section item}<h1 class="sf-item-title">{title|html}</h1>{@|apply post-meta}',
    '<div class="sf-item-body">{body}</div>{.end}',
    '</article>',
    '',
  ].join('\n'),
  'styles.css': [
    ':root { --ink: #1f2933; --accent: #2f5d50; font-family: system-ui, sans-serif; color: var(--ink); }',
    'body { margin: 0; }',
    '.site-header, .site-main, .site-footer { max-width: 60rem; margin: 0 auto; padding: 1rem; }',
    '.site-header { display: flex; gap: 1.5rem; align-items: baseline; flex-wrap: wrap; }',
    '.sf-nav { display: flex; gap: 1rem; flex: 1; }',
    '.sf-nav a[aria-current="page"] { font-weight: 600; }',
    'a { color: var(--accent); }',
    '.sf-product-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 1.5rem; }',
    '.post-meta { color: #52606d; font-size: .9rem; }',
    // Text for screen readers only: the cart's Remove column header (the built-in cart template).
    '.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }',
    // The islands' commerce parts: without these Add To Cart and Quick View read as plain text,
    // the variant was offered twice (a select and radios) and Quick View, the alert and the pill
    // cart were drawn in the flow below the footer instead of over the page.
    '.variant-radiobtn-wrapper { display: none; }',
    '.sqs-add-to-cart-button, .sqs-product-quick-view-button, .sf-alert-ok, .product-restock-form input[type="submit"] { display: inline-block; margin: .5rem 0; padding: .6rem 1.4rem; border: 0; border-radius: 999px; background: var(--ink); color: #fff; font: 600 1rem system-ui, sans-serif; cursor: pointer; }',
    '.sqs-add-to-cart-button[aria-disabled="true"] { background: #d9d4cc; color: #3e4852; cursor: not-allowed; }',
    '.sqs-product-quick-view-button { padding: .3rem 1rem; font-size: .9rem; }',
    'html.sf-dialog-open { overflow: hidden; }',
    '.sf-quick-view { position: fixed; inset: 0; z-index: 1000; display: grid; place-items: center; padding: 1rem; background: rgba(31, 41, 51, .55); overflow-y: auto; }',
    '.sf-quick-view-content { position: relative; box-sizing: border-box; width: min(40rem, 100%); max-height: calc(100vh - 2rem); overflow-y: auto; padding: 2.5rem 1.5rem 1.5rem; border-radius: .6rem; background: #fff; }',
    '.sf-quick-view-close { position: absolute; top: .5rem; right: .5rem; min-width: 2.75rem; min-height: 2.75rem; border: 0; background: none; font-size: 1.5rem; cursor: pointer; }',
    '.sf-alert-backdrop { position: fixed; inset: 0; z-index: 1000; background: rgba(31, 41, 51, .55); }',
    '.sf-alert { position: fixed; inset: 0; z-index: 1001; margin: auto; box-sizing: border-box; width: min(26rem, calc(100vw - 2rem)); height: fit-content; padding: 1.5rem; border-radius: .6rem; background: #fff; }',
    '.sf-pill-cart-wrapper { position: fixed; right: 1.5rem; bottom: 1.5rem; z-index: 10; }',
    '.sf-pill-cart { display: flex; gap: .6rem; padding: .6rem 1.1rem; border-radius: 999px; background: var(--ink); color: #fff; text-decoration: none; }',
    '.field-error, .sf-form-message, .product-restock-error, .sf-checkout-offline-limit { color: #a3321f; font-weight: 600; }',
    // The header's item count (the islands add it after "Cart", which read "Cart1"), the cart's
    // Checkout and the checkout form: one field a line, label above, Place order a button.
    '.sf-cart-link-count { margin-left: .35rem; padding: 0 .45rem; border-radius: 999px; background: var(--ink); color: #fff; font-size: .8rem; font-weight: 700; }',
    '.sf-checkout-button, .sf-checkout-place { display: inline-block; margin: .5rem 0; padding: .6rem 1.4rem; border: 0; border-radius: 999px; background: var(--ink); color: #fff; font: 600 1rem system-ui, sans-serif; text-decoration: none; cursor: pointer; }',
    '.sf-checkout-section { margin: 0 0 1.5rem; padding: 0; border: 0; }',
    '.sf-field { display: grid; gap: .25rem; max-width: 32rem; margin-bottom: .75rem; }',
    '.sf-field input:not([type="checkbox"]):not([type="radio"]), .sf-field select, .sf-field textarea { font: inherit; padding: .45rem .6rem; }',
    '.sf-checkout-option { display: flex; gap: .6rem; align-items: center; padding: .5rem 0; }',
    '',
  ].join('\n'),
};

/**
 * Creates `folder` and any missing folders above it, one level at a time. Node's recursive
 * `mkdir` retried for ever where a level cannot be made (`quire new /proc/x` spun until killed);
 * one level at a time, the first that cannot be made throws.
 */
function makeFolder(folder: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(folder); !fs.existsSync(at); at = path.dirname(at)) {
    missing.push(at);
    if (path.dirname(at) === at) break;
  }
  for (const level of missing.reverse()) fs.mkdirSync(level);
}

export type NewSiteOutcome = { ok: true; files: string[] } | { ok: false; error: string };

/** Writes the starter into `dir` (created when missing); refuses a folder that has anything in it. */
export function writeStarterSite(dir: string): NewSiteOutcome {
  // '' (an unset shell variable) would resolve to the working folder, which `stat` does not see,
  // so the starter would land among whatever is there.
  if (dir.trim() === '') return { ok: false, error: 'a folder name is required: quire new DIR' };
  try {
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (stat && !stat.isDirectory()) return { ok: false, error: `${dir}: exists and is not a folder` };
    if (stat && fs.readdirSync(dir).length > 0) return { ok: false, error: `${dir}: the folder is not empty; choose a new or empty folder` };
    const files = Object.keys(STARTER_FILES);
    for (const file of files) {
      const target = path.join(dir, file);
      makeFolder(path.dirname(target));
      // `wx`: never overwrite, even if something appeared since the check.
      fs.writeFileSync(target, STARTER_FILES[file]!, { flag: 'wx' });
    }
    return { ok: true, files };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, error: `${dir}: cannot write the site (${code ?? (error as Error).message})` };
  }
}

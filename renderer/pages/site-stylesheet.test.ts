import { describe, expect, it } from 'vitest';
import { demoSite, useDemoHarness, withConfig } from '../test-support/page-harness.ts';

// The site's CSS is a linked, hash-named file; the renderer's own rules stay inline.

const h = useDemoHarness({ resetEach: true });

const linkOf = (html: string) => /<link rel="stylesheet" href="(\/assets\/site\/site-[0-9a-f]{16}\.css)">/.exec(html)?.[1];

describe('site stylesheet', () => {
  it('is linked from the head, served with a long cache life, and not inlined', async () => {
    const site = await demoSite();
    const page = await h.inject('/shop/tee');
    const head = page.body.slice(0, page.body.indexOf('</head>'));
    const href = linkOf(head);
    expect(href).toBeDefined();
    // The readiness rule must apply before any stylesheet arrives.
    expect(head).toContain('<style>\nhtml:not(.sf-cart-ready) .sqs-add-to-cart-button { visibility: hidden; }');
    const firstRule = site.stylesheet.trim().split('\n')[0]!;
    expect(page.body).not.toContain(firstRule);

    const css = await h.inject(href!);
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(css.body).toBe(site.stylesheet);
  });

  it('answers only the current content hash, and changes its name when the CSS changes', async () => {
    const before = linkOf((await h.inject('/')).body)!;
    expect((await h.inject('/assets/site/site-0000000000000000.css')).statusCode).toBe(404);

    const site = await demoSite();
    h.setSite({ ...site, stylesheet: site.stylesheet + '\n.changed { color: red }' });
    const after = linkOf((await h.inject('/')).body)!;
    expect(after).not.toBe(before);
    expect((await h.inject(before)).statusCode).toBe(404);
    expect((await h.inject(after)).body).toContain('.changed { color: red }');
  });

  it('is left out when the site has no CSS, and is not behind the site lock', async () => {
    const site = await demoSite();
    h.setSite(withConfig(site, { lock: { enabled: true, password: 'pw' } }));
    const locked = await h.inject('/shop/tee');
    const href = linkOf(locked.body)!;
    expect((await h.inject(href)).statusCode).toBe(200);

    h.setSite({ ...site, stylesheet: '  \n' });
    const bare = await h.inject('/shop/tee');
    expect(bare.statusCode).toBe(200);
    expect(bare.body).not.toContain('<link rel="stylesheet"');
  });
});

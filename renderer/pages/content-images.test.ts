import { describe, expect, it } from 'vitest';
import { useDemoHarness } from '../test-support/page-harness.ts';

// #16 item 7: the demo's blog pictures and image blocks are served like the product pictures,
// by the site's image service with a srcset of width variants, sizes, width and height, the
// first picture at once and the others lazily.

const h = useDemoHarness();

/** The <img> tags of a page's body. */
async function imgs(url: string): Promise<string[]> {
  const response = await h.inject(url);
  expect(response.statusCode).toBe(200);
  const body = response.body.slice(response.body.indexOf('<body'));
  return body.match(/<img [^>]*>/g) ?? [];
}

const SRCSET = (name: string) => [100, 300, 500, 750, 1000, 1500, 2500].map((w) => `/assets/site/images/${name}?format=${w}w ${w}w`).join(', ');

describe('blog and image-block pictures (#16)', () => {
  it('the journal: the lead post picture at once, the others lazy, each with its srcset, sizes and size', async () => {
    const posts = (await imgs('/journal')).filter((img) => img.includes('/assets/site/images/'));
    expect(posts.length).toBeGreaterThan(2);
    expect(posts[0]).toContain(`srcSet="${SRCSET('coffee-1df3c738.webp')}"`);
    expect(posts[0]).toContain('sizes="(max-width: 720px) 100vw, 620px" width="1500" height="1000" alt="A bag of coffee beans next to an enamel scoop"');
    expect(posts[0]).toContain('loading="eager" fetchPriority="high"');
    for (const img of posts.slice(1)) {
      expect(img).toMatch(/ srcSet="[^"]+ 2500w" sizes="\(max-width: 720px\) 100vw, 330px" width="\d+" height="\d+" alt="[^"]+"/);
      expect(img).toContain('loading="lazy"');
    }
  });

  it("a post's own page: its picture above the fold, at once, with its srcset", async () => {
    const [img] = (await imgs('/journal/coffee-club-turns-one')).filter((i) => i.includes('coffee-1df3c738'));
    expect(img).toContain(`src="/assets/site/images/coffee-1df3c738.webp?format=1500w" srcSet="${SRCSET('coffee-1df3c738.webp')}" sizes="(max-width: 720px) 100vw, 740px" width="1500" height="1000"`);
    expect(img).toContain('loading="eager" fetchPriority="high"');
  });

  it('an image block with its originalSize: the srcset; priority high loads it at once', async () => {
    const [img] = (await imgs('/about')).filter((i) => i.includes('studio-7a4e26ab'));
    expect(img).toContain(`srcSet="${SRCSET('studio-7a4e26ab.webp')}" sizes="(max-width: 720px) 100vw, 740px" width="1500" height="1000" alt="The studio&#x27;s print tables in morning light"`);
    expect(img).toContain('loading="eager" fetchPriority="high"');
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadSite } from '../site/load-site.ts';
import { templateFallbacks } from './template-fallbacks.ts';

describe('templateFallbacks', () => {
  let dir: string;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  const near = async () => (await templateFallbacks(await loadSite(dir)))[0]?.near;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fallbacks-'));
    write('content/about.json', '{"slug": "about"}');
    write('templates/layout.jsont', '{mainContent}');
  });

  it('offers the same name in another case or extension, then one slip or two letters swapped; never a name three letters away (home)', async () => {
    write('templates/home.jsont', '{@}');
    write('templates/base.jsont', '{@}');
    expect(await near()).toBeNull();
    write('templates/pgae.jsont', '{@}');
    expect(await near()).toBe('templates/pgae.jsont');
    write('templates/pages.jsont', '{@}');
    expect(await near()).toBe('templates/pages.jsont');
    write('templates/page.html', '');
    expect(await near()).toBe('templates/page.html');
  });

  it('never offers a template a page renders with, nor an editor swap file', async () => {
    write('content/cage.json', '{"slug": "cage", "template": "cage"}');
    write('templates/cage.jsont', '{@}');
    write('templates/.page.jsont.swp', '');
    expect(await near()).toBeNull();
  });

  it('names three pages, then counts the rest', async () => {
    for (const slug of ['b', 'c', 'd', 'e']) write(`content/${slug}.json`, `{"slug": "${slug}"}`);
    const [fallback] = await templateFallbacks(await loadSite(dir));
    expect(fallback!.pages).toHaveLength(5);
    expect(fallback!.message).toMatch(/^no templates\/page\.jsont, so 5 pages \(content\/\w+\.json, content\/\w+\.json, content\/\w+\.json and 2 more\) render with Quire's built-in page template: /);
  });
});

import { describe, expect, it } from 'vitest';
import { compile } from '../../engine/index.ts';
import { MAIN_MARK, printsMainPlainly, spliceMain } from './main-splice.ts';

/** The layout rendered both ways: with the page's HTML, and with the mark then spliced. */
function both(layoutSource: string, mainSource: string, data: Record<string, unknown> = {}) {
  const layout = compile(layoutSource);
  const main = compile(mainSource).render(data);
  const direct = layout.render({ ...data, mainContent: main.html }).html;
  const marked = layout.render({ ...data, mainContent: MAIN_MARK });
  return { plain: printsMainPlainly(layout), direct, spliced: spliceMain(marked, main) };
}

const longMain = '{.repeated section xs}<li>{@}</li>{.end}';
const xs = Array.from({ length: 3000 }, (_, i) => `item ${i}${i % 700 === 0 ? ' — ' : ''}`);

describe('main-splice', () => {
  it('puts the page parts where the layout printed the mark: the same text as printing the HTML', () => {
    for (const layout of ['<header>{title}</header>\n<main>{mainContent}</main>\n<footer>x</footer>', '{mainContent}', 'a{mainContent}b{mainContent}c', '{.repeated section xs}<nav>{@}</nav>{.end}<main>{mainContent}</main>']) {
      const r = both(layout, longMain, { xs, title: 'T' });
      expect(r.plain, layout).toBe(true);
      expect(r.spliced, layout).not.toBeNull();
      expect(r.spliced!.join(''), layout).toBe(r.direct);
      // The page keeps its own chunks: the one with a `—` does not widen the others.
      expect(r.spliced!.length).toBeGreaterThan(5);
    }
  });

  it('leaves layouts that could see the mark instead of the HTML to render with the HTML', () => {
    for (const layout of ['{mainContent|safe}', '{.section mainContent}{@}{.end}', '{mainContent} {mainContent|truncate 5}', '{.macro m}{mainContent}{.end}{@|apply m}', '{mainContent}{@|apply foot}', '{.eval mainContent}', 'no main here']) {
      expect(printsMainPlainly(compile(layout)), layout).toBe(false);
    }
  });

  it('returns null when the mark did not come out as rendered', () => {
    const main = compile('<p>x</p>').render({});
    expect(spliceMain(compile('{mainContent}').render({ mainContent: 'not the mark' }), main)).toBeNull();
    expect(spliceMain(compile('{mainContent}').render({ mainContent: MAIN_MARK }), main)).toEqual(['<p>x</p>']);
  });

  it('the mark is random per process and cannot come from a visitor', () => {
    expect(MAIN_MARK).toMatch(/^\u0000quire-main-[A-Za-z0-9_-]{16}\u0000$/);
  });
});

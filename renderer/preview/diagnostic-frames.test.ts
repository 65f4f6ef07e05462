import { describe, expect, it } from 'vitest';
import { OVERLAY_FRAMES, overlayHtml, type Frame } from './diagnostic-frames.ts';

describe('overlayHtml', () => {
  it("shows a limit's diagnostic first, even when it comes after more frames than the overlay shows", () => {
    const frames: Frame[] = Array.from({ length: 200 }, (_, i) => ({ code: 'APPLY_PARTIAL_RECURSION_DEPTH', where: `t:${i}:1`, text: `depth ${i}` }));
    frames.push({ code: 'LIMIT_INSTRUCTIONS', where: 't:1:1', text: 'the instruction limit' });
    const html = overlayHtml('Problems', frames);
    expect(html.indexOf('the instruction limit')).toBeGreaterThan(-1);
    expect(html.indexOf('the instruction limit')).toBeLessThan(html.indexOf('depth 0'));
    expect(html.split('<pre').length - 1).toBe(OVERLAY_FRAMES);
    expect(html).toContain('(201)');
    expect(html).toContain('101 more not shown here: <code>quire render-page SITE_DIR /path</code> prints every one of this page');
  });
});

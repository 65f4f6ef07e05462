import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JavaError } from '../engine/plugin-api.ts';
import type { FormatterSpec, Value } from '../engine/plugin-api.ts';
import { activateTwitterLinks, socialFormatters } from './social.ts';
import { COMMENT_LINK_TEMPLATE } from './templates/comment-link.ts';
import { COMMENTS_TEMPLATE } from './templates/comments.ts';
import { LIKE_BUTTON_TEMPLATE } from './templates/like-button.ts';
import { bindFormatter, TestPluginContext, type TestFrame } from './util/plugin-test-context.ts';

const byName = new Map(socialFormatters.map((f) => [f.name, f]));

function spec(name: string): FormatterSpec<any> {
  const f = byName.get(name);
  if (!f) throw new Error(`no formatter ${name}`);
  return f;
}

function fmt(name: string, value: Value, outer: TestFrame[] = [], ctx = new TestPluginContext([...outer, { node: value }])): Value {
  const f = spec(name);
  return f.apply(value, bindFormatter(f, []), ctx, []);
}

function javaErrorOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (e) {
    if (e instanceof JavaError) return `${e.javaClass}: ${e.message}`;
    throw e;
  }
}

describe('registry', () => {
  it('registers the 9 social formatters once each', () => {
    expect(socialFormatters.map((f) => f.name).sort()).toEqual([
      'activate-twitter-links', 'comment-count', 'comment-link', 'comments', 'google-calendar-url',
      'like-button', 'social-button', 'social-button-inline', 'twitter-follow-button',
    ]);
  });
});

describe('activate-twitter-links', () => {
  it('links URLs, handles and hashtags', () => {
    expect(activateTwitterLinks('see http://a.com/x?y=1, @bob and #tag')).toBe(
      'see <a target="new" href="http://a.com/x?y=1">http://a.com/x?y=1</a>, ' +
        '<a target="new" href="https://twitter.com/bob/">@bob</a> and ' +
        '<a target="new" href="https://twitter.com/hashtag/tag?src=hash">#tag</a>',
    );
  });
  it('links handles and tags only at the start or after a space', () => {
    expect(activateTwitterLinks('@a x@b #c y#d')).toBe(
      '<a target="new" href="https://twitter.com/a/">@a</a> x@b <a target="new" href="https://twitter.com/hashtag/c?src=hash">#c</a> y#d',
    );
  });
  it('does not end a URL on punctuation and matches schemes case-insensitively', () => {
    expect(activateTwitterLinks('FTP://h.org/a.')).toBe('<a target="new" href="FTP://h.org/a">FTP://h.org/a</a>.');
  });
  it("links as the reference's three passes do (URLs, then handles, then hashtags), on random text", () => {
    const url = /\b(?:https?|ftp|file):\/\/[-A-Z0-9+&@#/%?=~_|!:,.;]*[-A-Z0-9+&@#/%=~_|]/gi;
    const threePasses = (text: string): string =>
      text
        .replace(url, (u) => '<a target="new" href="' + u + '">' + u + '</a>')
        .replace(/(^| )@([a-zA-Z0-9_]+)/g, (_m, p: string, h: string) => p + '<a target="new" href="https://twitter.com/' + h + '/">@' + h + '</a>')
        .replace(/(^| )#([a-zA-Z0-9_]+)/g, (_m, p: string, t: string) => p + '<a target="new" href="https://twitter.com/hashtag/' + t + '?src=hash">#' + t + '</a>');
    const piece = fc.constantFrom('@', '#', ' ', 'a', 'Z', '_', '9', 'http://', 'ftp://', 'x.org/', '?', '.', ',', '<', '>', '/', 'é', '\n', '@@', '##', ' #', ' @');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = pieces.join('');
        expect(activateTwitterLinks(text)).toBe(threePasses(text));
      }),
      { numRuns: 2000 },
    );
  });
  it('escapes nothing and takes the node text', () => {
    expect(fmt('activate-twitter-links', '<b> & @x')).toBe('<b> & <a target="new" href="https://twitter.com/x/">@x</a>');
    expect(fmt('activate-twitter-links', undefined)).toBe('');
    expect(fmt('activate-twitter-links', 42)).toBe('42');
  });
});

describe('comment-count', () => {
  it('words the count', () => {
    expect(fmt('comment-count', { publicCommentCount: 0 })).toBe('No Comments');
    expect(fmt('comment-count', { publicCommentCount: 1 })).toBe('1 Comment');
    expect(fmt('comment-count', { publicCommentCount: '7' })).toBe('7 Comments');
    expect(fmt('comment-count', { publicCommentCount: -2 })).toBe('-2 Comments');
  });
  it('counts missing and wrong-typed input as zero', () => {
    expect(fmt('comment-count', undefined)).toBe('No Comments');
    expect(fmt('comment-count', {})).toBe('No Comments');
    expect(fmt('comment-count', { publicCommentCount: 'many' })).toBe('No Comments');
  });
});

describe('google-calendar-url', () => {
  const base = 'http://www.google.com/calendar/event?action=TEMPLATE&text=';
  it('encodes the title and formats the dates in UTC', () => {
    expect(fmt('google-calendar-url', { title: 'A b+c', startDate: 0, endDate: 90061000 })).toBe(
      base + 'A%20b%2Bc&dates=19700101T000000Z/19700102T010101Z',
    );
  });
  it('appends the non-blank address pieces', () => {
    const event = { startDate: 0, endDate: 0, location: { addressLine1: ' 1 Main ', addressLine2: '  ', addressCountry: 'UK' } };
    expect(fmt('google-calendar-url', event)).toBe(base + '&dates=19700101T000000Z/19700101T000000Z&location=%201%20Main%20%2C%20UK');
    expect(fmt('google-calendar-url', { ...event, location: {} })).toBe(base + '&dates=19700101T000000Z/19700101T000000Z');
  });
  it('treats missing input as the epoch with no title', () => {
    expect(fmt('google-calendar-url', undefined)).toBe(base + '&dates=19700101T000000Z/19700101T000000Z');
  });
  it('fails on dates out of range', () => {
    expect(javaErrorOf(() => fmt('google-calendar-url', { startDate: 9e18, endDate: 0 }))).toMatch(/^IllegalArgumentException/);
    expect(javaErrorOf(() => fmt('google-calendar-url', { startDate: 0, endDate: -8.64e15 - 1 }))).toMatch(/^IllegalArgumentException/);
  });
  it('writes the stamps a UTC Date gives, over the whole range a Date holds', () => {
    const pad = (n: number, w: number) => (n < 0 ? '-' : '') + String(Math.abs(n)).padStart(w, '0');
    const stamp = (ms: number) => {
      const d = new Date(ms);
      return pad(d.getUTCFullYear(), 4) + pad(d.getUTCMonth() + 1, 2) + pad(d.getUTCDate(), 2) + 'T' +
        pad(d.getUTCHours(), 2) + pad(d.getUTCMinutes(), 2) + pad(d.getUTCSeconds(), 2) + 'Z';
    };
    const instant = fc.oneof(fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.integer({ min: -5e12, max: 5e12 }), fc.constantFrom(-8.64e15, 8.64e15, -1, 0, 951782400000));
    fc.assert(
      fc.property(instant, instant, (a, b) => {
        expect(fmt('google-calendar-url', { startDate: a, endDate: b })).toBe(base + '&dates=' + stamp(a) + '/' + stamp(b));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('social-button', () => {
  const item = { systemDataId: 's1', mainImageId: 'm1', assetUrl: '/a', recordType: 2, fullUrl: '/p', title: 'T "q"' };
  const site: TestFrame[] = [{ node: { website: { shareButtonOptions: { facebook: true } } } }];
  it('renders the block and inline variants, escaping only the title', () => {
    const attrs = 'data-system-data-id="s1" data-asset-url="/a" data-record-type="2" data-full-url="/p" data-title="T &quot;q&quot;"';
    expect(fmt('social-button', item, site)).toBe(`<div class="squarespace-social-buttons button-style" ${attrs}></div>`);
    expect(fmt('social-button-inline', item, site)).toBe(`<span class="squarespace-social-buttons inline-style" ${attrs}></span>`);
  });
  it('falls back to mainImageId and mainImage.assetUrl', () => {
    const out = fmt('social-button', { mainImageId: 'm1', mainImage: { assetUrl: '/m' } }, site) as string;
    expect(out).toContain('data-system-data-id="m1" data-asset-url="/m" data-record-type="" data-full-url="" data-title=""');
  });
  it('is empty without share options', () => {
    expect(fmt('social-button', item)).toBe('');
    expect(fmt('social-button', item, [{ node: { website: { shareButtonOptions: [] } } }])).toBe('');
    expect(fmt('social-button-inline', item, [{ node: { website: {} } }])).toBe('');
    expect(fmt('social-button', undefined)).toBe('');
  });
});

describe('twitter-follow-button', () => {
  const script =
    "<script>Y.use('squarespace-follow-buttons', function(Y) { Y.on('domready', function() { Y.Squarespace.FollowButtonUtils.renderAll(); }); });</script>";
  it('uses userName, else the last piece of profileUrl', () => {
    expect(fmt('twitter-follow-button', { userName: 'amy' })).toBe(script + '<div class="squarespace-follow-button" data-username="amy"></div>');
    expect(fmt('twitter-follow-button', { userName: '', profileUrl: 'https://twitter.com/bo//' })).toBe(
      script + '<div class="squarespace-follow-button" data-username="bo"></div>',
    );
  });
  it('fails without any user', () => {
    expect(javaErrorOf(() => fmt('twitter-follow-button', {}))).toMatch(/^ArrayIndexOutOfBoundsException/);
    expect(javaErrorOf(() => fmt('twitter-follow-button', undefined))).toMatch(/^ArrayIndexOutOfBoundsException/);
  });
});

describe('template formatters', () => {
  /** A context whose built-in templates record how they were run. */
  function recording() {
    const ctx = new TestPluginContext([{ node: {} }]);
    const runs: { source: string; node: Value; isPrivate: boolean }[] = [];
    for (const source of [COMMENT_LINK_TEMPLATE, COMMENTS_TEMPLATE, LIKE_BUTTON_TEMPLATE]) {
      ctx.templates[source.trim()] = (node, isPrivate) => {
        runs.push({ source, node, isPrivate });
        return 'ran';
      };
    }
    return { ctx, runs };
  }

  it('run their own template publicly against the node', () => {
    for (const [name, source] of [['comment-link', COMMENT_LINK_TEMPLATE], ['comments', COMMENTS_TEMPLATE], ['like-button', LIKE_BUTTON_TEMPLATE]] as const) {
      const { ctx, runs } = recording();
      const node = { id: name };
      expect(fmt(name, node, [], ctx)).toBe('ran');
      expect(runs).toEqual([{ source, node, isPrivate: false }]);
    }
  });
  it('like-button renders nothing for a falsy node', () => {
    for (const node of [undefined, null, {}, '', 0]) {
      const { ctx, runs } = recording();
      expect(fmt('like-button', node, [], ctx)).toBe('');
      expect(runs).toEqual([]);
    }
  });
});

describe('robustness', () => {
  it('never fails except with a JavaError, whatever the input', async () => {
    const fc = await import('fast-check');
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (v, outer) => {
        for (const f of socialFormatters) {
          try {
            fmt(f.name, v as Value, [{ node: outer as Value }]);
          } catch (e) {
            if (!(e instanceof JavaError)) throw e;
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

// Social formatters (PLUGINS §8): comment counts and links, like and share buttons,
// Twitter markup and Google Calendar links. Markup is byte-exact with the reference.

import { JavaError, asLong, isTruthy, jsonEquals, TEXT_PER_STEP, textOf, textOrEmpty } from '../engine/plugin-api.ts';
import type { BindContext, FormatterSpec, PluginContext, Ref, TemplateHandle, Value } from '../engine/plugin-api.ts';
import { COMMENT_LINK_TEMPLATE } from './templates/comment-link.ts';
import { COMMENTS_TEMPLATE } from './templates/comments.ts';
import { LIKE_BUTTON_TEMPLATE } from './templates/like-button.ts';
import { pad2, sharedDateFields } from './util/date-pattern.ts';
import { formUrlEncodeSpaces } from './util/uri-encode.ts';
import { escapeAttr, field } from './util/image.ts';
import { isJavaWhitespace } from './util/java-text.ts';
import { sizeOf } from './util/size-of.ts';
import { printed, printedTemplateFormatter, type PrintedBound } from './util/printed-template.ts';

// ---- activate-twitter-links --------------------------------------------------------------

const URL_PATTERN = /\b(?:https?|ftp|file):\/\/[-A-Z0-9+&@#/%?=~_|!:,.;]*[-A-Z0-9+&@#/%=~_|]/gi;
/**
 * The reference links handles (`(^| )@(\w+)`) in one pass and then hashtags (`(^| )#(\w+)`) in
 * another. One pass finds both: a handle's link ends in `</a>`, so it neither makes nor
 * hides a `#` after a space or at the start. The tag is put in the URL form-encoded, which
 * leaves letters, digits and `_` as they are. 18% less than three passes (bench/results,
 * 2026-11-29: 0.89 against 1.09 µs for a tweet with a URL, a handle and a tag).
 */
const MENTION_PATTERN = /(^| )([@#])([a-zA-Z0-9_]+)/g;

function linkMention(_m: string, prefix: string, mark: string, name: string): string {
  return mark === '@'
    ? prefix + '<a target="new" href="https://twitter.com/' + name + '/">@' + name + '</a>'
    : prefix + '<a target="new" href="https://twitter.com/hashtag/' + name + '?src=hash">#' + name + '</a>';
}

export function activateTwitterLinks(text: string): string {
  // A URL holds `://`; the reference's patterns find nothing in a text without it, `@` or `#`.
  if (text.indexOf('://') >= 0) text = text.replace(URL_PATTERN, (url) => '<a target="new" href="' + url + '">' + url + '</a>');
  if (text.indexOf('@') < 0 && text.indexOf('#') < 0) return text;
  return text.replace(MENTION_PATTERN, linkMention);
}

// ---- google-calendar-url -----------------------------------------------------------------

function pad(n: number, width: number): string {
  const s = String(Math.abs(n));
  return (n < 0 ? '-' : '') + (s.length < width ? '0'.repeat(width - s.length) + s : s);
}

/** The largest instant a JavaScript Date holds, either side of 1970 (ECMAScript TimeClip). */
const MAX_INSTANT = 8.64e15;

/**
 * `%Y%m%dT%H%M%SZ` in UTC. The fields come from the date formatters' arithmetic
 * (`sharedDateFields`), not a `Date`: its six `getUTC…` calls were a quarter of
 * `google-calendar-url` over fresh event-list data.
 */
function calendarStamp(epochMs: number): string {
  if (!(Math.abs(epochMs) <= MAX_INSTANT)) throw new JavaError('IllegalArgumentException', `Instant out of range: ${epochMs}`);
  const f = sharedDateFields(epochMs, 'UTC');
  return pad(f.year, 4) + pad2(f.month) + pad2(f.day) + 'T' + pad2(f.hour) + pad2(f.minute) + pad2(f.second) + 'Z';
}

/** Java `StringUtils.isBlank`: empty or only whitespace. */
function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isJavaWhitespace(s.charCodeAt(i))) return false;
  return true;
}

const ADDRESS_KEYS = ['addressLine1', 'addressLine2', 'addressCountry'];

function googleCalendarUrl(value: Value): string {
  let out = 'http://www.google.com/calendar/event?action=TEMPLATE&text=' + formUrlEncodeSpaces(textOf(field(value, 'title')));
  out += '&dates=' + calendarStamp(asLong(field(value, 'startDate'))) + '/' + calendarStamp(asLong(field(value, 'endDate')));
  const location = field(value, 'location');
  if (location !== undefined) {
    let where = '';
    for (const key of ADDRESS_KEYS) {
      const piece = textOf(field(location, key));
      if (isBlank(piece)) continue;
      where += (where.length ? ', ' : '') + piece;
    }
    if (!isBlank(where)) out += '&location=' + formUrlEncodeSpaces(where);
  }
  return out;
}

// ---- buttons -----------------------------------------------------------------------------

function socialButton(value: Value, website: Value, inline: boolean, ctx: PluginContext): string {
  if (website === undefined || sizeOf(field(website, 'shareButtonOptions'), ctx) === 0) return '';
  const systemDataId = field(value, 'systemDataId');
  const id = systemDataId !== undefined ? systemDataId : field(value, 'mainImageId');
  const assetUrl = field(value, 'assetUrl');
  const url = assetUrl !== undefined ? assetUrl : field(field(value, 'mainImage'), 'assetUrl');
  const tag = inline ? 'span' : 'div';
  return (
    '<' + tag + ' class="squarespace-social-buttons ' + (inline ? 'inline-style' : 'button-style') +
    '" data-system-data-id="' + textOf(id) + '" data-asset-url="' + textOf(url) +
    '" data-record-type="' + textOf(field(value, 'recordType')) + '" data-full-url="' + textOf(field(value, 'fullUrl')) +
    '" data-title="' + escapeAttr(textOrEmpty(field(value, 'title'))) + '"></' + tag + '>'
  );
}

function socialButtonFormatter(name: string, inline: boolean): FormatterSpec<Ref> {
  return {
    name,
    bind: (_args, ctx) => websiteRef(ctx),
    apply: (value, website, ctx) => socialButton(value, ctx.resolve(website), inline, ctx),
  };
}

function websiteRef(ctx: BindContext): Ref {
  const r = ctx.parseRef('website');
  if (r === null) throw new Error("internal: bad built-in reference 'website'");
  return r;
}

const FOLLOW_SCRIPT =
  "<script>Y.use('squarespace-follow-buttons', function(Y) { Y.on('domready', function() { " +
  'Y.Squarespace.FollowButtonUtils.renderAll(); }); });</script>';

function twitterFollowButton(value: Value): string {
  let user = textOf(field(value, 'userName'));
  if (user.length === 0) {
    const pieces = textOf(field(value, 'profileUrl')).split('/').filter((p) => p.length > 0);
    // The reference indexes the last piece unguarded.
    if (pieces.length === 0) throw new JavaError('ArrayIndexOutOfBoundsException', 'Index -1 out of bounds for length 0');
    user = pieces[pieces.length - 1];
  }
  return FOLLOW_SCRIPT + '<div class="squarespace-follow-button" data-username="' + user + '"></div>';
}

function commentCount(value: Value): string {
  const n = asLong(field(value, 'publicCommentCount'));
  if (n === 0) return 'No Comments';
  return n === 1 ? '1 Comment' : n + ' Comments';
}

function templateFormatter(name: string, source: string, guard?: (v: Value) => boolean): FormatterSpec<TemplateHandle> {
  return {
    name,
    bind: (_args, ctx) => ctx.compileTemplate(source),
    apply: (value, template, ctx: PluginContext) =>
      guard && !guard(value) ? '' : ctx.runTemplate(template, value, false),
  };
}

// ---- comment-link and like-button, printed in code (util/printed-template.ts) ----------------

/**
 * `{.equal? x n}` of a small literal, as the predicate finds it; undefined where it would charge
 * work (a container, a long text), which the template then does.
 */
function equalsSmall(v: Value, n: number): boolean | undefined {
  if (typeof v === 'object' && v !== null) return undefined;
  if (typeof v === 'string' && v.length >= TEXT_PER_STEP) return undefined;
  return jsonEquals(v, n);
}

const COMMENT_LINK_PATHS = ['websiteSettings.disqusShortname', 'fullUrl', 'id', 'publicCommentCount'];
/** The instructions COMMENT_LINK_TEMPLATE and LIKE_BUTTON_TEMPLATE charge: measured, and held to the templates by the tests. */
const COMMENT_LINK_STEPS_DISQUS = 6;
/** The site's own comments; one more when the count is not 1 (the `s` of `Comments`). */
const COMMENT_LINK_STEPS_OWN = 13;

function printCommentLink(refs: readonly Ref[], ctx: PluginContext): { text: string; steps: number } | undefined {
  const fullUrl = ctx.resolve(refs[1]);
  const id = ctx.resolve(refs[2]);
  if (isTruthy(ctx.resolve(refs[0]))) {
    return { text: '\n  <a href="' + printed(fullUrl) + '" class="sqs-comment-link sqs-disqus-comment-link" data-id="' + printed(id) + '"></a>\n', steps: COMMENT_LINK_STEPS_DISQUS };
  }
  const count = ctx.resolve(refs[3]);
  const none = equalsSmall(count, 0);
  const one = equalsSmall(count, 1);
  if (none === undefined || one === undefined) return undefined;
  const ids = printed(id);
  return {
    text: '\n  <a href="' + printed(fullUrl) + '#comments-' + ids + '" class="sqs-comment-link" data-id="' + ids + '">\n  ' + (none ? 'No' : printed(count)) + '\n  Comment' + (one ? '' : 's') + '\n  </a>\n',
    steps: COMMENT_LINK_STEPS_OWN + (one ? 0 : 1),
  };
}

const LIKE_BUTTON_PATHS = ['websiteSettings.simpleLikingEnabled', 'id', 'likeCount'];
const LIKE_BUTTON_STEPS_ON = 6;
const LIKE_BUTTON_STEPS_OFF = 1;

const LIKE_BUTTON_OFF = { text: '', steps: LIKE_BUTTON_STEPS_OFF };

function printLikeButton(refs: readonly Ref[], ctx: PluginContext): { text: string; steps: number } {
  if (!isTruthy(ctx.resolve(refs[0]))) return LIKE_BUTTON_OFF;
  return {
    text:
      '\n  <span class="sqs-simple-like" data-item-id="' +
      printed(ctx.resolve(refs[1])) +
      '" data-like-count="' +
      printed(ctx.resolve(refs[2])) +
      '">\n    <span class="like-icon"></span>\n    <span class="like-count"></span>\n  </span>\n',
    steps: LIKE_BUTTON_STEPS_ON,
  };
}

export function commentLinkSpec(inCode: boolean): FormatterSpec<PrintedBound> {
  return printedTemplateFormatter('comment-link', COMMENT_LINK_TEMPLATE, COMMENT_LINK_PATHS, printCommentLink, inCode);
}

export function likeButtonSpec(inCode: boolean): FormatterSpec<PrintedBound> {
  return printedTemplateFormatter('like-button', LIKE_BUTTON_TEMPLATE, LIKE_BUTTON_PATHS, printLikeButton, inCode, isTruthy);
}

export const socialFormatters: FormatterSpec<any>[] = [
  {
    name: 'activate-twitter-links',
    apply: (value) => activateTwitterLinks(textOf(value)),
  },
  {
    name: 'comment-count',
    apply: commentCount,
  },
  commentLinkSpec(true),
  templateFormatter('comments', COMMENTS_TEMPLATE),
  {
    name: 'google-calendar-url',
    apply: googleCalendarUrl,
  },
  likeButtonSpec(true),
  socialButtonFormatter('social-button', false),
  socialButtonFormatter('social-button-inline', true),
  {
    name: 'twitter-follow-button',
    apply: twitterFollowButton,
  },
];

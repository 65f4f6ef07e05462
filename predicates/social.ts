// Social predicates (PLUGINS §9): whether an item shows comments, and whether the site uses
// Disqus. Note `disqusShortName` (capital N) here versus `disqusShortname` in the
// `comment-link` / `comments` templates: both spellings are the reference's.

import { asLong, isTruthy } from '../engine/plugin-api.ts';
import type { BindContext, PredicateSpec, Ref } from '../engine/plugin-api.ts';
import { field } from '../formatters/util/image.ts';

const COMMENT_STATE_ON = 1;

function ref(ctx: BindContext, text: string): Ref {
  const r = ctx.parseRef(text);
  if (r === null) throw new Error(`internal: bad built-in reference '${text}'`);
  return r;
}

export const socialPredicates: PredicateSpec<any>[] = [
  {
    name: 'comments?',
    bind: (_args: string[], ctx: BindContext) => ref(ctx, 'websiteSettings'),
    test(node, settingsRef: Ref, ctx) {
      const on = asLong(field(node, 'commentState')) === COMMENT_STATE_ON || asLong(field(node, 'publicCommentCount')) > 0;
      const settings = ctx.resolve(settingsRef);
      // Site-wide switch: present settings without `commentsEnabled` turn comments off.
      if (settings !== undefined && !isTruthy(field(settings, 'commentsEnabled'))) return false;
      return on;
    },
  },
  {
    name: 'disqus?',
    bind: (_args: string[], ctx: BindContext) => ref(ctx, 'websiteSettings.disqusShortName'),
    test: (_node, nameRef: Ref, ctx) => isTruthy(ctx.resolve(nameRef)),
  },
];

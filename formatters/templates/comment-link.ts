// Built-in template of the `comment-link` formatter (PLUGINS §8), not private: the Disqus
// switch comes from `websiteSettings` in the page context. The newlines and two-space
// indents after each tag are part of the reference markup.
export const COMMENT_LINK_TEMPLATE = `
{.if websiteSettings.disqusShortname}
  <a href="{fullUrl}" class="sqs-comment-link sqs-disqus-comment-link" data-id="{id}"></a>
{.or}
  <a href="{fullUrl}#comments-{id}" class="sqs-comment-link" data-id="{id}">
  {.equal? publicCommentCount 0}No{.or}{publicCommentCount}{.end}
  Comment{.equal? publicCommentCount 1}{.or}s{.end}
  </a>
{.end}
`;

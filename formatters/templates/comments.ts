// Built-in template of the `comments` formatter (PLUGINS §8), not private: `item` and
// `collection` are resolved from the node outward, so `{item|comments}` finds the item
// itself and `{collection|comments}` the enclosing collection.
export const COMMENTS_TEMPLATE = `
{.if websiteSettings.disqusShortname}
  <div class="squarespace-comments" id="disqus_thread"></div>
{.or}
  <div class="squarespace-comments" id="comments-{id}"{.if item} data-item-id="{item.id}" data-public-comment-count="{item.publicCommentCount}" data-comment-state="{item.commentState}"{.or}{.if collection} data-collection-id="{collection.id}" data-public-comment-count="{collection.publicCommentCount}" data-comment-state="{collection.commentState}"{.end}{.end}></div>
{.end}
`;

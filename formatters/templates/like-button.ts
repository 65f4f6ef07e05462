// Built-in template of the `like-button` formatter (PLUGINS §8), not private: liking is
// switched on by `websiteSettings.simpleLikingEnabled` in the page context. The formatter
// itself handles a falsy node (empty output) before running this.
export const LIKE_BUTTON_TEMPLATE = `
{.if websiteSettings.simpleLikingEnabled}
  <span class="sqs-simple-like" data-item-id="{id}" data-like-count="{likeCount}">
    <span class="like-icon"></span>
    <span class="like-count"></span>
  </span>
{.end}
`;

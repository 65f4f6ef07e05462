import { escapeAttribute } from './image-markup.ts';

/**
 * A product review from the reviews request page (page type 209, issue 18): its limits, the
 * messages shown next to the fields, the check the form runs before sending and the server
 * runs again (renderer/api/routes/review-routes.ts), and the form's server markup, which the
 * review-form island revives.
 */
export const REVIEW_LIMITS = { nameMax: 100, textMax: 2000 } as const;
export const REVIEW_FIELD_TEXT = {
  rating: 'Choose a rating from 1 to 5.',
  name: 'Name is required.',
  nameLong: `Name must be at most ${REVIEW_LIMITS.nameMax} characters.`,
  text: 'Review is required.',
  textLong: `Review must be at most ${REVIEW_LIMITS.textMax} characters.`,
} as const;
export const REVIEW_THANKS = 'Thank you! Your review is awaiting moderation and will appear here once approved.';
export const REVIEW_FIELDS = ['rating', 'name', 'text'] as const;
export type ReviewField = (typeof REVIEW_FIELDS)[number];

/** The field errors of a review (empty when it is valid), in the form's order. */
export function reviewErrors(body: { rating?: unknown; name?: unknown; text?: unknown }): Partial<Record<ReviewField, string>> {
  const errors: Partial<Record<ReviewField, string>> = {};
  const rating = typeof body.rating === 'string' && /^[1-5]$/.test(body.rating) ? Number(body.rating) : body.rating;
  if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 5) errors.rating = REVIEW_FIELD_TEXT.rating;
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (name === '') errors.name = REVIEW_FIELD_TEXT.name;
  else if (name.length > REVIEW_LIMITS.nameMax) errors.name = REVIEW_FIELD_TEXT.nameLong;
  const text = typeof body.text === 'string' ? body.text.trim() : '';
  if (text === '') errors.text = REVIEW_FIELD_TEXT.text;
  else if (text.length > REVIEW_LIMITS.textMax) errors.text = REVIEW_FIELD_TEXT.textLong;
  return errors;
}

/** The id of a field's error message (its aria-describedby). */
export const reviewErrorId = (field: ReviewField): string => `sf-review-${field}-error`;

/**
 * The form the server writes inside `<div data-island="review-form">`; it works once revived. All
 * three fields are required, so each is marked ` *` as the checkout and site forms mark theirs.
 */
export function reviewFormHtml(productId: string): string {
  const stars = [1, 2, 3, 4, 5]
    .map((n) => `<label class="sf-review-star"><input type="radio" name="rating" value="${n}"> ${n} ${n === 1 ? 'star' : 'stars'}</label>`)
    .join('');
  return (
    `<form class="sf-review-form" data-product-id="${escapeAttribute(productId)}" novalidate>` +
    `<h2>Write a review</h2>` +
    `<fieldset class="sf-review-rating-choices"><legend>Rating <span class="required">*</span></legend>${stars}</fieldset>` +
    `<div class="sf-review-field"><label for="sf-review-name">Name <span class="required">*</span></label><input id="sf-review-name" name="name" type="text" aria-required="true" maxlength="${REVIEW_LIMITS.nameMax}" autocomplete="name"></div>` +
    `<div class="sf-review-field"><label for="sf-review-text">Review <span class="required">*</span></label><textarea id="sf-review-text" name="text" rows="5" aria-required="true" maxlength="${REVIEW_LIMITS.textMax}"></textarea></div>` +
    // Disabled until the island takes the form (as the site form's, renderer/pages/blocks.ts):
    // pressed before, the form went as a GET to the page, the review in the URL, nothing sent.
    `<button type="submit" class="sf-review-submit" disabled>Send review</button>` +
    `<p class="sf-review-error" role="alert" hidden></p>` +
    `</form>` +
    `<div class="sf-review-thanks" tabindex="-1" hidden></div>`
  );
}

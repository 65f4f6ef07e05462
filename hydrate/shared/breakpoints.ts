/**
 * The platform's one layout breakpoint (templates seed 001, "Mobile breakpoint up to 432 px,
 * desktop from 433 px"). Pure: the islands read it through `matchMedia`, and the demo theme's
 * phone layout switches at the same width (`@media (max-width: 432px)` in its styles), so what
 * the scripts call a phone is what the stylesheet lays out as one.
 */
export const MOBILE_MAX_WIDTH_PX = 432;
export const DESKTOP_MIN_WIDTH_PX = MOBILE_MAX_WIDTH_PX + 1;
/** True up to and including 432 CSS pixels of window width. */
export const MOBILE_MEDIA_QUERY = `(max-width: ${MOBILE_MAX_WIDTH_PX}px)`;

/**
 * Fixed island markup the renderer writes and the islands hydrate (STOREFRONT A2 pill cart,
 * A10 account block). Pure strings: the renderer puts them in its pages and the island tests
 * hydrate exactly the same text, so the two can never drift apart. The sign-in fields carry
 * visible labels (issue 16: unlabelled fields are axe's critical `label` finding); the ids are
 * fixed because a page holds at most one account block. Sign In is written disabled and the
 * island enables it once it handles the submit: pressed (or Enter in a field) before then, the
 * form went as a GET, the server sent the page on without the fields (renderer/pages/index.ts),
 * and the visitor lost the email they typed, was not signed in, and was told nothing. A
 * disabled default button also stops Enter's implicit submission, so what was typed waits.
 * "Forgot your password?" (designed here) opens the island's reset steps (account.tsx).
 */

export const PILL_CART_HTML =
  '<div class="sf-pill-cart-wrapper" data-island="pill-cart" data-state="hidden" hidden>\n' +
  '  <a class="sf-pill-cart" href="/cart" aria-label="Cart">\n' +
  '    <span class="sf-pill-count"></span>\n' +
  '    <span class="sf-pill-subtotal"></span>\n' +
  '  </a>\n' +
  '</div>';

export const ACCOUNT_SIGNED_OUT_HTML =
  '<div class="sf-account" data-island="account">\n' +
  '  <form class="sf-login" novalidate>\n' +
  '    <div class="sf-login-field">\n' +
  '      <label for="sf-login-email">Email</label>\n' +
  '      <input type="email" id="sf-login-email" name="email" autocomplete="username">\n' +
  '    </div>\n' +
  '    <div class="sf-login-field">\n' +
  '      <label for="sf-login-password">Password</label>\n' +
  '      <input type="password" id="sf-login-password" name="password" autocomplete="current-password">\n' +
  '    </div>\n' +
  '    <label class="sf-login-remember"><input type="checkbox" name="rememberMe"> Remember me</label>\n' +
  '    <button type="submit" disabled>Sign In</button>\n' +
  '    <p class="sf-login-error" role="alert" hidden></p>\n' +
  '  </form>\n' +
  '  <p class="sf-login-forgot"><a href="#forgot-password">Forgot your password?</a></p>\n' +
  '</div>';

/**
 * The order status page (211, renderer/pages/page-types/order-pages.ts serves it here), whose
 * "Your orders" lists a signed-in buyer's orders. The signed-in account block links it: nothing
 * else did, so a member's order history was reached only by typing its address or from the
 * confirmation page of a new order.
 */
export const ORDER_STATUS_PATH = '/commerce/orders/status';

export const ACCOUNT_SIGNED_IN_HTML =
  '<div class="sf-account" data-island="account">\n' +
  `  <p class="sf-account-orders"><a href="${ORDER_STATUS_PATH}">Your orders</a></p>\n` +
  '  <button type="button" class="sf-logout">Sign Out</button>\n' +
  '</div>';

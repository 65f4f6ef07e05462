// Built-in JSON-T templates: the default template of every page type (used when the site
// folder has none of that name) and the renderer's `sf-*` partials, which hold the
// renderer-made markup of STOREFRONT section A around the commerce formatters' output.
// Site templates reach the partials with `{item|apply sf-product-detail}` and so on.
// `.section` looks only at the current frame (LANGUAGE §0.4), so nested blocks that read
// outer data use `.if` and plain variables, which walk up the stack.

/** The product page part: one product scope (A1) with every formatter island. */
const SF_PRODUCT_DETAIL = `<article class="sf-product" data-product-scope data-item-id="{id}">
<div class="sf-product-images">{sf.images}</div>
<div class="sf-product-summary">
<h1 class="sf-product-title">{title|html}</h1>
<div class="sf-product-status" data-item-id="{id}">{@|product-status}</div>
{@|product-price}
{@|product-scarcity}
{@|variants-select}{@|quantity-input}{@|add-to-cart-btn}
{@|product-restock-notification}
{sf.bnpl}
{sf.download}
<div class="sf-product-body">{body}</div>
</div>
{sf.reviews}
</article>`;

/** One product of a grid: badge, price and quick view (C1 type 1), the latter only while its toggle (issue 18) is on. */
const SF_PRODUCT_CARD = `<div class="sf-product-card" data-product-scope data-item-id="{id}">
<a class="sf-product-card-link" href="{fullUrl}">{sf.thumbnail}<span class="sf-product-card-title">{title|html}</span></a>
<div class="sf-product-status" data-item-id="{id}">{@|product-status}</div>
{@|product-price}
{.if features.quick-view}{@|product-quick-view}{.end}
</div>`;

/** A product block inside a page: the buying parts without the page chrome. */
const SF_PRODUCT_BLOCK = `<div class="sf-product-block" data-product-scope data-item-id="{id}">
<a class="sf-product-block-title" href="{fullUrl}">{title|html}</a>
<div class="sf-product-status" data-item-id="{id}">{@|product-status}</div>
{@|product-price}
{@|variants-select}{@|quantity-input}{@|add-to-cart-btn}
{@|product-restock-notification}
</div>`;

/** The site chrome around every page except the error page (101). */
const LAYOUT = `<header class="sf-header">
<a class="sf-site-title" href="/">{website.siteTitle|html}</a>
<nav class="sf-nav">{.repeated section navigation}<a href="{path|htmlattr}"{.if active} aria-current="page"{.end}>{title|html}</a>{.end}</nav>
<a class="sf-cart-link" href="/cart">Cart</a>
</header>
<main class="sf-main">
{mainContent}
</main>
<footer class="sf-footer"><p>{website.siteTitle|html}</p></footer>`;

const PAGE = `<div class="sf-page sf-page-{page.slug}">
<h1 class="sf-page-title">{page.title|html}</h1>
{page.blocksHtml}
</div>`;

const COLLECTION_LIST = `<section class="sf-collection sf-collection-{collection.typeName}">
<h1 class="sf-collection-title">{collection.title|html}{.section tagFilter}: tagged “{@|html}”{.end}{.section categoryFilter}: filed under “{@|html}”{.end}</h1>{.section collectionFilter}
<p class="sf-collection-filter"><a href="{allUrl|htmlattr}">See all of the {collection.title|html}</a></p>{.end}
{.section items}<ul class="sf-items">{.repeated section @}
<li class="sf-item"><a href="{fullUrl}">{title|html}</a>{.section excerpt}<p class="sf-item-excerpt">{@|html}</p>{.end}</li>{.end}
</ul>{.or}<p class="sf-empty">{.if collectionFilter}Nothing is {.if tagFilter}tagged{.or}filed under{.end} “{collectionFilter.value|html}”.{.or}Nothing here yet.{.end}</p>{.end}
</section>`;

const COLLECTION_ITEM = `<article class="sf-item-page">
<p class="sf-breadcrumb"><a href="{collection.fullUrl}">{collection.title|html}</a></p>
<h1 class="sf-item-title">{item.title|html}</h1>
{.section item.body}<div class="sf-item-body">{@}</div>{.end}
{item.blocksHtml}
</article>`;

const PRODUCTS_LIST = `<section class="sf-collection sf-collection-products">
<h1 class="sf-collection-title">{collection.title|html}{.section tagFilter}: tagged “{@|html}”{.end}{.section categoryFilter}: filed under “{@|html}”{.end}</h1>{.section collectionFilter}
<p class="sf-collection-filter"><a href="{allUrl|htmlattr}">See all of the {collection.title|html}</a></p>{.end}
{.section items}<div class="sf-product-grid">{.repeated section @}
{@|apply sf-product-card}{.end}
</div>{.or}<p class="sf-empty">{.if collectionFilter}No product is {.if tagFilter}tagged{.or}filed under{.end} “{collectionFilter.value|html}”.{.or}No products yet.{.end}</p>{.end}
</section>`;

const PRODUCTS_ITEM = `<p class="sf-breadcrumb"><a href="{collection.fullUrl}">{collection.title|html}</a></p>
{item|apply sf-product-detail}`;

const NOT_FOUND = `<section class="sf-not-found">
<h1>Page not found</h1>
<p>We couldn't find the page you were looking for.</p>
<p><a href="/">Back to the home page</a></p>
</section>`;

const SEARCH = `<section class="sf-search">
<h1>Search</h1>
<form class="sf-search-form" action="/search" method="get" role="search">
<input type="search" name="q" value="{search.query|htmlattr}" aria-label="Search">
<button type="submit">Search</button>
</form>
{.if search.query}{.section items}<ul class="sf-search-results">{.repeated section @}
<li class="sf-search-result"><a href="{fullUrl}">{title|html}</a></li>{.end}
</ul>{.or}<p class="sf-search-empty">No results for “{search.query|html}”.</p>{.end}{.end}
</section>`;

/** Lock screen (103) and protected page (105): one password form, worded by `lock`. */
const PASSWORD_FORM = `<section class="sf-password sf-password-{lock.scopeKind}">
<h1>{lock.heading|html}</h1>
<p>{lock.message|html}</p>
<form class="sf-password-form" method="post" action="/unlock">
<input type="hidden" name="scope" value="{lock.scope|htmlattr}">
<input type="hidden" name="returnTo" value="{lock.returnTo|htmlattr}">
<input type="password" name="password" aria-label="Password" autocomplete="current-password">
<button type="submit">Enter</button>
</form>
</section>`;

const ACCESS_DENIED = `<section class="sf-access-denied">
<h1>Members only</h1>
<p>Sign in with a member account to see this page.</p>
{sf.account}
</section>`;

const CART = `<section class="sf-cart-page" data-cart-id="{cart.id}">
<h1>Shopping Cart</h1>
{.section cart.entries}<div class="sf-cart-contents" data-island="cart-page">
<table class="sf-cart-entries">
<thead><tr><th scope="col">Item</th><th scope="col">Price</th><th scope="col">Quantity</th><th scope="col">Total</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
<tbody>{.repeated section @}
<tr class="sf-cart-entry" data-entry-id="{id}" data-item-id="{itemId}" data-sku="{sku|htmlattr}"{.section formId} data-form-id="{@|htmlattr}" data-additional-fields="{additionalFields|htmlattr}"{.end}>
<td class="sf-entry-title">{.section fullUrl}<a href="{@|htmlattr}">{title|html}</a>{.or}{title|html}{.end}{.section variantText}<span class="sf-entry-variant">{@|html}</span>{.end}{.section fieldValues}<dl class="sf-entry-fields">{.repeated section @}<div class="sf-entry-field"><dt>{label|html}</dt> <dd>{value|html}</dd></div>{.end}</dl>{.end}{.section formId}<a class="sf-entry-edit-form" href="#">Edit form</a>{.end}</td>
<td class="sf-entry-price">{unitPriceText}</td>
<td class="sf-entry-quantity"><input class="sf-entry-quantity-input" type="number" min="1" max="{maxQuantity}" step="1" value="{quantity}" aria-label="Quantity of {title|htmlattr}"{.if unavailableText} aria-describedby="sf-entry-unavailable-{id|htmlattr}"{.end} data-unit-price-cents="{purchasePriceCents}" data-max-per-variant="{maxPerVariant}" data-max-per-item="{maxPerItem}">{.if unavailableText}<p class="sf-entry-message sf-entry-unavailable" id="sf-entry-unavailable-{id|htmlattr}" role="status">{unavailableText|html}</p>{.end}</td>
<td class="sf-entry-total">{totalText}</td>
<td><button type="button" class="sf-entry-remove" aria-label="Remove {title|htmlattr}">Remove</button></td>
</tr>{.end}
</tbody>
</table>
<div class="sf-cart-totals">
<p class="sf-cart-subtotal">Subtotal <span>{cart.subtotalText}</span></p>
{.if cart.minimumNotice}<p class="sf-cart-minimum" role="status">{cart.minimumNotice|html}</p>{.end}
</div>
{.if cart.canCheckout}<a class="sf-checkout-button" href="{cart.checkoutUrl|htmlattr}">Checkout</a>{.end}
</div>
{sf.bnpl}
{.or}<p class="sf-cart-empty">You have nothing in your shopping cart.</p>
<p><a href="/">Continue Shopping</a></p>{.end}
{sf.cartForms}
</section>`;

const CHECKOUT = `<section class="sf-checkout">
<h1>Checkout</h1>
<div class="sf-checkout-app" data-island="checkout" data-checkout-kind="{checkout.kind|htmlattr}" data-cart-token="{checkout.cartToken|htmlattr}" data-item-id="{checkout.itemId|htmlattr}" data-sku="{checkout.sku|htmlattr}">
<div class="sf-checkout-form sf-checkout-pending">
<div class="sf-checkout-main">
<div class="sf-checkout-section"><p class="sf-checkout-loading" role="status">Loading the checkout form…</p><span class="sf-checkout-ph-field"></span></div>
{.if checkout.requiresShipping}<div class="sf-checkout-section sf-checkout-address"><span class="sf-checkout-ph-heading"></span><span class="sf-checkout-ph-field"></span><span class="sf-checkout-ph-field"></span><span class="sf-checkout-ph-field" data-field-id="sf-checkout-line1"></span><span class="sf-checkout-ph-field" data-field-id="sf-checkout-line2"></span><span class="sf-checkout-ph-field"></span><span class="sf-checkout-ph-field"></span><span class="sf-checkout-ph-field"></span><span class="sf-checkout-ph-field sf-checkout-ph-select"></span></div>
<div class="sf-checkout-section"><span class="sf-checkout-ph-heading"></span>{.section checkout.shippingOptions}{.repeated section @}<span class="sf-checkout-ph-option{.if described} sf-checkout-ph-described{.end}"></span>{.end}{.or}<span class="sf-checkout-ph-hint"></span>{.end}</div>
{.end}<div class="sf-checkout-section"><span class="sf-checkout-ph-heading"></span><span class="sf-checkout-ph-field"></span></div>
<div class="sf-checkout-section"><span class="sf-checkout-ph-heading"></span>{.repeated section checkout.providerChoices}<span class="sf-checkout-ph-option"></span>{.section offlineLimit}<p class="sf-checkout-offline-limit" id="{id|htmlattr}">{text|html}</p>{.end}{.end}{.if checkout.payByCard}<span class="sf-checkout-ph-card{.if checkout.testCard} sf-checkout-ph-test-card{.end}"></span>{.or}<span class="sf-checkout-ph-hint"></span>{.section checkout.soleOfflineLimit}<p class="sf-checkout-offline-limit" id="{id|htmlattr}">{text|html}</p>{.end}{.end}</div>
</div>
<section class="sf-checkout-summary" aria-labelledby="sf-checkout-summary-title">
<h2 id="sf-checkout-summary-title">Order summary</h2>
<table class="sf-order-summary"><thead><tr><th scope="col">Item</th><th scope="col">Qty</th><th scope="col">Total</th></tr></thead>
<tbody>{.repeated section checkout.lines}<tr class="sf-order-line"><td>{title|html}{.section variantText}<span class="sf-order-variant"> {@|html}</span>{.end}{.section fieldValues}<dl class="sf-entry-fields">{.repeated section @}<div class="sf-entry-field"><dt>{label|html}</dt> <dd>{value|html}</dd></div>{.end}</dl>{.end}</td><td>{quantity}</td><td>{totalText}</td></tr>{.end}</tbody></table>
<dl class="sf-checkout-totals">
<div><dt>Subtotal</dt><dd data-total="subtotal">{checkout.subtotalText}</dd></div>
{.section checkout.shippingText}<div><dt>Shipping</dt><dd data-total="shipping">{@|html}</dd></div>{.end}
<div><dt>Tax</dt><dd data-total="tax">{checkout.taxText}</dd></div>
<div class="sf-checkout-grand-total"><dt>Total</dt><dd data-total="grand">{checkout.grandTotalText}</dd></div>
</dl>
{.section checkout.minimumMessage}<p class="sf-checkout-minimum" role="status">{@|html}</p>{.end}
<span class="sf-checkout-ph-place"></span>
</section>
</div>
</div>
</section>`;

// The order pages' shared part (issue 15), applied to the page's `order`: lines, totals, and
// what an order placed through checkout adds (subscription, gift card codes, address, payment,
// and the owner's refunds without a cancel: "Refunded $9.00 of $18.00 to Visa ending 4242").
const SF_ORDER_SUMMARY = `{.if testMode}<p class="sf-order-test-mode">Test mode: no payment was taken.</p>{.end}
<table class="sf-order-summary">
<thead><tr><th scope="col">Item</th><th scope="col">Qty</th><th scope="col">Total</th></tr></thead>
<tbody>{.repeated section lines}<tr class="sf-order-line"><td>{title|html}{.section variantText} <span class="sf-order-variant">{@|html}</span>{.end}{.section fieldValues}<dl class="sf-entry-fields">{.repeated section @}<div class="sf-entry-field"><dt>{label|html}</dt> <dd>{value|html}</dd></div>{.end}</dl>{.end}</td><td>{quantity}</td><td>{totalText}</td></tr>{.end}</tbody>
</table>
<dl class="sf-order-totals">
{.section subtotalText}<div><dt>Subtotal</dt><dd>{@}</dd></div>{.end}
{.section discountTotalText}<div><dt>Discount</dt><dd>-{@}</dd></div>{.end}
{.if shipsNothing}{.or}<div><dt>Shipping</dt><dd>{shippingTotalText}</dd></div>{.end}
<div><dt>Tax</dt><dd>{taxTotalText}</dd></div>
<div class="sf-order-grand-total"><dt>Total</dt><dd>{grandTotalText}</dd></div>
</dl>
{.section subscription}<p class="sf-order-subscription">Your subscription: {periodText|html}.</p>{.end}
{.section downloads}<h2>Your downloads</h2><ul class="sf-order-downloads">{.repeated section @}<li><a href="{url|htmlattr}" download>Download {title|html}</a></li>{.end}</ul>{.end}
{.section downloadLimitText}<p class="sf-order-download-limit">{@|html}</p>{.end}
{.section downloadsPendingText}<p class="sf-order-downloads-pending">{@|html}</p>{.end}
{.section giftCardCodes}<h2>Your gift card</h2><ul class="sf-order-gift-cards">{.repeated section @}<li><code>{@|html}</code></li>{.end}</ul>{.end}
{.section shippingAddress}<h2>Shipping to</h2><address class="sf-order-address">{firstName|html} {lastName|html}<br>{line1|html}<br>{.section line2}{@|html}<br>{.end}{city|html}, {region|html} {postalCode|html}<br>{country|html}</address>{.end}
{.section shippingOptionName}<p class="sf-order-shipping-method">Shipping method: {@|html}</p>{.end}
{.section paymentLabel}<p class="sf-order-payment">Payment: {@|html}</p>{.end}
{.section refundsText}<p class="sf-order-refunds">{@|html}</p>{.end}`;

const ORDER_CONFIRMED = `<section class="sf-order-page sf-order-confirmed">
<h1>Thank you!</h1>
<p class="sf-order-number">{.section order.orderNumber}Order #{@}{.or}Order {order.id|html}{.end}</p>
{.section order.cancelledText}<p class="sf-order-cancelled">{@|html}</p>{.or}<p>Your order has been placed.{.section order.email} A receipt is on its way to {@|html}.{.end}</p>{.end}
{order|apply sf-order-summary}
{.section order.orderNumber}<p class="sf-order-status-link">To check on it later, open <a href="/commerce/orders/status">Order status</a> with its number and your email.</p>{.end}
</section>`;

const ORDER_RECEIVED = `<section class="sf-order-page sf-order-received">
<h1>Order received</h1>
{.section order}<p class="sf-order-number">Order #{orderNumber}</p>
{.section cancelledText}<p class="sf-order-cancelled">{@|html}</p>{.or}{.if paymentPending}<p>We have your order and hold it until your payment arrives: pay by bank transfer{.if shipsNothing}{.or} or on pickup{.end}, quoting your order number.{.section email} The details are on their way to {@|html}.{.end}</p>{.or}<p class="sf-order-paid">We have your order, and its payment has arrived.</p>{.end}{.end}
{@|apply sf-order-summary}{.end}
</section>`;

const SUBSCRIPTION_CONFIRMED = `<section class="sf-order-page sf-subscription-confirmed">
<h1>Subscription confirmed</h1>
{.section order}<p class="sf-order-number">Order #{orderNumber}</p>
<p>Your subscription has started.{.section email} A receipt is on its way to {@|html}.{.end}</p>
{@|apply sf-order-summary}{.end}
</section>`;

// The form POSTs to this page, which comes back with focus nowhere: `autofocus` takes it to
// what the look-up answered (the first wrong field, the message, or the order found), so a
// keyboard or screen-reader visitor lands on the answer instead of at the top of the page.
const ORDER_STATUS = `<section class="sf-order-page sf-order-status">
<h1>Order status</h1>
{.section myOrders}<section class="sf-my-orders" aria-labelledby="sf-my-orders-title">
<h2 id="sf-my-orders-title">Your orders</h2>
{.if orders}<table class="sf-my-orders-list">
<thead><tr><th scope="col">Order</th><th scope="col">Date</th><th scope="col">Status</th><th scope="col">Total</th></tr></thead>
<tbody>{.repeated section orders}<tr class="sf-my-order"><td><a href="{url|htmlattr}">#{orderNumber}</a></td><td>{createdOn|datetime date:long}</td><td>{statusText|html}</td><td>{grandTotalText|html}</td></tr>
{.end}</tbody>
</table>{.or}<p class="sf-my-orders-none">Orders you place while signed in are listed here.</p>{.end}
{.if nextUrl}<p class="sf-my-orders-more"><a href="{nextUrl|htmlattr}">Older orders</a></p>{.end}
{.if firstUrl}<p class="sf-my-orders-first"><a href="{firstUrl|htmlattr}">Newest orders</a></p>{.end}
</section>{.end}
<form class="sf-order-status-form" method="post" action="{orderStatus.action|htmlattr}">
<p>Enter the number from your receipt and the email address you ordered with.</p>
<div class="sf-order-status-field">{.section orderStatus.orderNumberError}<p class="field-error" id="sf-order-status-number-error">{@|html}</p>{.end}
<label for="sf-order-status-number">Order number</label>
<input id="sf-order-status-number" name="orderNumber" type="text" inputmode="numeric" autocomplete="off" value="{orderStatus.orderNumber|htmlattr}"{.section orderStatus.orderNumberError} aria-invalid="true" aria-describedby="sf-order-status-number-error" autofocus{.end}></div>
<div class="sf-order-status-field">{.section orderStatus.emailError}<p class="field-error" id="sf-order-status-email-error">{@|html}</p>{.end}
<label for="sf-order-status-email">Email</label>
<input id="sf-order-status-email" name="email" type="email" autocomplete="email" value="{orderStatus.email|htmlattr}"{.section orderStatus.emailError} aria-invalid="true" aria-describedby="sf-order-status-email-error"{.if orderStatus.orderNumberError}{.or} autofocus{.end}{.end}></div>
<button type="submit" class="sf-order-status-submit">Look up order</button>
</form>
{.section orderStatus.message}<p class="sf-order-status-message" role="status" tabindex="-1" autofocus>{@|html}</p>{.end}
{.section order}<h2 class="sf-order-number" tabindex="-1"{.if orderStatus.message}{.or} autofocus{.end}>Order #{orderNumber}</h2>
<p class="sf-order-status-state">Status: <strong>{statusText|html}</strong></p>
{.section refundText}<p class="sf-order-refund">{@|html}</p>{.end}
{@|apply sf-order-summary}
{.section downloadsByMail}<form class="sf-order-downloads-mail" method="post" action="{orderStatus.action|htmlattr}">
<p>{text|html}</p>
<input type="hidden" name="orderNumber" value="{orderStatus.orderNumber|htmlattr}"><input type="hidden" name="email" value="{orderStatus.email|htmlattr}">
<button type="submit" name="sendDownloadLinks" value="1" class="sf-order-downloads-mail-submit">Email me the download links</button>
</form>{.end}{.end}
</section>`;

// A modal dialog over the viewport (hydrate/islands/popup-overlay.ts shows it, traps focus and
// closes it); the content box is what the theme styles as the panel, the root is the backdrop.
const POPUP_OVERLAY = `<div class="sf-popup-overlay" data-overlay-id="{overlay.id|htmlattr}" data-overlay-version="{overlay.version|htmlattr}" data-overlay-delay-ms="{overlay.delayMs}" role="dialog" aria-modal="true" aria-label="{overlay.label|htmlattr}" hidden>
<div class="sf-popup-overlay-content">
{.if overlay.title}<h2 class="sf-popup-overlay-title">{overlay.title|html}</h2>{.end}
{overlay.blocksHtml}
<button type="button" class="sf-popup-overlay-close" aria-label="Close">×</button>
</div>
</div>`;

// The special page types (C1 203–301, renderer/pages/page-types/): each shows its own data
// around the content file's blocks.

const DONATE = `<section class="sf-donate">
<h1 class="sf-page-title">{page.title|html}</h1>
{page.blocksHtml}
{.if donation.amounts}<form class="sf-donate-form" method="get" action="{donation.confirmPath|htmlattr}">
<fieldset><legend>{.if donation.fund}Give to {donation.fund|html}{.or}Choose an amount{.end}</legend>
{.repeated section donation.amounts}<label class="sf-donate-amount"><input type="radio" name="amount" value="{cents}"{.if checked} checked{.end}> {text|html}</label>
{.end}</fieldset>
<button type="submit" class="sf-donate-button">Donate</button>
</form>{.end}
</section>`;

const CONTRIBUTION_CONFIRMED = `<section class="sf-contribution-confirmed">
<h1 class="sf-page-title">{page.title|html}</h1>
<p class="sf-contribution-thanks">{.if contribution.amountText}Thank you for your contribution of <strong>{contribution.amountText|html}</strong>{.if contribution.fund} to {contribution.fund|html}{.end}.{.or}Thank you for your contribution.{.end}</p>
{page.blocksHtml}
</section>`;

const MEMBERSHIP_CONFIRMED = `<section class="sf-membership-confirmed">
<h1 class="sf-page-title">{page.title|html}</h1>
{.if membership.active}<p class="sf-membership-welcome">Welcome, {membership.name|html}. Your membership is active.</p>
{.if membership.pages}<h2>Members' pages</h2>
<ul class="sf-membership-pages">{.repeated section membership.pages}<li><a href="{path|htmlattr}">{title|html}</a></li>{.end}</ul>{.end}
{.or}<p class="sf-membership-signin">Sign in with your member account to see your membership.</p>
{sf.account}{.end}
{page.blocksHtml}
</section>`;

const REVIEWS_REQUEST = `<section class="sf-reviews-request">
<h1 class="sf-page-title">{page.title|html}</h1>
{.section reviewRequest}<div class="sf-review-product">
<p>How do you like your <a href="{productUrl|htmlattr}">{title|html}</a>?</p>
<p class="sf-review-summary">{.if reviewCount}Reviews so far: {reviewCount}, rated {averageText} out of 5 on average.{.or}No reviews yet: yours would be the first.{.end}</p>
<p><a class="sf-review-link" href="{productUrl|htmlattr}">See {title|html} and its reviews</a></p>
{formHtml}
{reviewsHtml}
</div>{.or}<p>Thank you for shopping with us. The link in your order email opens this page with the review form for what you bought.</p>{.end}
{page.blocksHtml}
</section>`;

const COMPOSER_PREVIEW = `<section class="sf-composer-preview">
<p class="sf-composer-note">{page.title|html}: how buyers see this digital product.</p>
<h1>{composer.title|html}</h1>
{.section item}<div class="sf-product-images">{sf.images}</div>
<div class="sf-product-body">{body}</div>
{sf.download}{.end}
<p class="sf-composer-price">Price <span>{composer.priceText|html}</span></p>
<p class="sf-composer-delivery">{composer.deliveryText|html}</p>
{page.blocksHtml}
</section>`;

const NEWSLETTER_UNSUBSCRIBE = `<section class="sf-newsletter-unsubscribe">
<h1 class="sf-page-title">{page.title|html}</h1>
{.if unsubscribe.valid}{.if unsubscribe.subscribed}<p class="sf-unsubscribe-question">Unsubscribe <strong>{unsubscribe.email|html}</strong> from the {unsubscribe.siteTitle|html} newsletter?</p>
<form class="sf-unsubscribe-form" method="post" action="/newsletter/unsubscribe">
<input type="hidden" name="email" value="{unsubscribe.email|htmlattr}">
<input type="hidden" name="token" value="{unsubscribe.token|htmlattr}">
<input type="hidden" name="returnTo" value="{unsubscribe.returnTo|htmlattr}">
<button type="submit" class="sf-unsubscribe-button">Unsubscribe</button>
</form>{.or}<p class="sf-unsubscribe-done" role="status"><strong>{unsubscribe.email|html}</strong> is unsubscribed: it gets no more newsletters from {unsubscribe.siteTitle|html}.</p>{.end}
{.or}<p class="sf-unsubscribe-invalid">This unsubscribe link is not valid. Use the link in the newsletter you received.</p>{.end}
{page.blocksHtml}
</section>`;

const COMMERCE_EMAIL_PREVIEW = `<section class="sf-email-preview">
<h1 class="sf-page-title">{page.title|html}</h1>
{page.blocksHtml}
{.repeated section emails}<article class="sf-email" aria-labelledby="sf-email-{id}">
<h2 id="sf-email-{id}">{name|html}</h2>
<p class="sf-email-subject">Subject: <strong>{subject|html}</strong></p>
{.if html}<div class="sf-email-html">{html}</div>{.end}
<pre class="sf-email-text">{text|html}</pre>
</article>
{.end}
</section>`;

/**
 * Page type 101 never uses the site's templates (C1: "without the site template's dynamic
 * parts"), so it is plain text with no data.
 */
export const ERROR_PAGE_BODY = `<main class="sf-error-page">
<h1>Something went wrong</h1>
<p>The page could not be displayed. Please try again later.</p>
<p><a href="/">Back to the home page</a></p>
</main>`;

export const BUILTIN_PARTIALS: Readonly<Record<string, string>> = {
  'sf-product-detail': SF_PRODUCT_DETAIL,
  'sf-product-card': SF_PRODUCT_CARD,
  'sf-product-block': SF_PRODUCT_BLOCK,
  'sf-order-summary': SF_ORDER_SUMMARY,
};

/** Default templates by name; the renderer looks a name up in the site first. */
export const BUILTIN_TEMPLATES: Readonly<Record<string, string>> = {
  layout: LAYOUT,
  page: PAGE,
  cover: PAGE,
  'collection.list': COLLECTION_LIST,
  'collection.item': COLLECTION_ITEM,
  'products.list': PRODUCTS_LIST,
  'products.item': PRODUCTS_ITEM,
  'not-found': NOT_FOUND,
  search: SEARCH,
  'lock-screen': PASSWORD_FORM,
  protected: PASSWORD_FORM,
  'access-denied': ACCESS_DENIED,
  cart: CART,
  'cart-v2': CART,
  checkout: CHECKOUT,
  'order-confirmed': ORDER_CONFIRMED,
  'order-received': ORDER_RECEIVED,
  'subscription-confirmed': SUBSCRIPTION_CONFIRMED,
  'order-status': ORDER_STATUS,
  'popup-overlay': POPUP_OVERLAY,
  donate: DONATE,
  'contribution-confirmed': CONTRIBUTION_CONFIRMED,
  'membership-confirmed': MEMBERSHIP_CONFIRMED,
  'reviews-request': REVIEWS_REQUEST,
  'digital-product-composer-preview': COMPOSER_PREVIEW,
  'newsletter-unsubscribe': NEWSLETTER_UNSUBSCRIBE,
  'commerce-email-preview': COMMERCE_EMAIL_PREVIEW,
};

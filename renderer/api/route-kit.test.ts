import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from './index.ts';
import { API_ERROR_CODE_LIST } from './error-codes.ts';
import { ADMIN_TOKEN, CRUMB, USER_PASSWORD, json, useApiHarness } from '../test-support/api-harness.ts';

// Every route's schema, seen from outside: wrong-typed input at each route gets a 4xx in the
// B0.2 shape with the endpoint's own code (never a 500, never Fastify's default body), and
// the OpenAPI document lists every route with its method and body schema.

const h = useApiHarness();

interface Case {
  /** Query string without `?`. */
  query?: string;
  /** A JSON body (sent as application/json); `raw` sends text with `type` instead. */
  body?: unknown;
  raw?: { type: string; payload: string };
  /** Send without the crumb and admin token (to see which check answers first). */
  bare?: boolean;
  /** Send with a signed-in user's cookie and xsrf token. */
  user?: boolean;
  status: number;
  code?: string;
  error?: string;
}

const NOT_OBJECT = { status: 400, code: 'BAD_REQUEST', error: 'Request body must be a JSON object.' };
const BAD_QUERY = { status: 400, code: 'BAD_QUERY', error: 'Invalid query parameter.' };
const INVALID_ITEM_ID = { status: 400, code: 'INVALID_ITEM_ID', error: 'itemId is required.' };
const INVALID_CENSUS = { status: 400, code: 'INVALID_CENSUS', error: 'Invalid census payload.' };
const LIMIT = { status: 400, code: 'BAD_QUERY', error: 'limit must be between 1 and 100.' };
const CURSOR = { status: 400, code: 'INVALID_CURSOR', error: 'Invalid cursor.' };
const PRODUCT_NOT_FOUND = { status: 404, code: 'PRODUCT_NOT_FOUND', error: 'Product not found.' };
const INVALID_EVENT = { status: 400, code: 'INVALID_EVENT', error: 'event is required.' };
const form = (payload: string) => ({ type: 'application/x-www-form-urlencoded', payload });

/** Wrong-typed input per route (method and path pattern of `storefrontApiRoutes()`). */
const CASES: Record<string, { params?: string[]; cases: Case[] }> = {
  'GET /api/commerce/shopping-cart': {
    cases: [
      { query: 'mock=1', ...BAD_QUERY },
      { query: 'calculateSubtotal=yes', ...BAD_QUERY },
      { query: 'mock=true&mock=false', ...BAD_QUERY },
    ],
  },
  'POST /api/commerce/shopping-cart/entries': {
    cases: [
      { body: { itemId: 5, quantity: 1 }, ...INVALID_ITEM_ID },
      { body: { itemId: '', quantity: 1 }, ...INVALID_ITEM_ID },
      { body: { quantity: 'x' }, ...INVALID_ITEM_ID },
      // B2 looks the product up before it checks the quantity: the first failure wins.
      { body: { itemId: 'nope', quantity: 'x' }, status: 404, code: 'ITEM_NOT_FOUND' },
      { body: { itemId: 'p1', quantity: '1' }, status: 400, code: 'QUANTITY_NAN' },
      { body: { itemId: 'p1', quantity: 1 }, query: 'express=true&express=true', ...BAD_QUERY },
      { body: [], ...NOT_OBJECT },
      { body: 'p1', ...NOT_OBJECT },
    ],
  },
  'PUT /api/commerce/shopping-cart/entries/:entryId/additionalFields': {
    params: ['e-unknown'],
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { itemId: 5, sku: 5, additionalFields: 5 }, status: 404, code: 'ENTRY_NOT_FOUND' },
    ],
  },
  'PUT /api/commerce/shopping-cart/entries/:entryId': {
    params: ['e-unknown'],
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { quantity: 'x' }, status: 404, code: 'ENTRY_NOT_FOUND' },
    ],
  },
  'DELETE /api/commerce/shopping-cart/entries/:entryId': {
    params: ['e-unknown'],
    // No body: whatever is sent is ignored.
    cases: [{ body: [1, 2], status: 404, code: 'ENTRY_NOT_FOUND' }],
  },
  'GET /api/commerce/checkout': {
    cases: [
      { ...BAD_QUERY },
      { query: 'cartToken=a&cartToken=b', ...BAD_QUERY },
    ],
  },
  'POST /api/commerce/checkout/quote': {
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { cartToken: 5 }, status: 400, code: 'BAD_REQUEST', error: 'Invalid cartToken.' },
      { body: { cartToken: 'c', couponCodes: 'A' }, status: 400, code: 'BAD_REQUEST', error: 'Invalid couponCodes.' },
    ],
  },
  'POST /api/commerce/checkout/place': {
    cases: [
      { body: {}, bare: true, status: 403, code: 'CRUMB_FAIL' },
      { body: [], ...NOT_OBJECT },
      { body: { cartToken: 'c' }, status: 400, code: 'BAD_REQUEST', error: 'Invalid payment.' },
      { body: { cartToken: 'c', payment: { provider: 'test', cardNumber: 4242 }, idempotencyKey: 'k-12345678' }, status: 400, code: 'BAD_REQUEST', error: 'Invalid payment.' },
    ],
  },
  'POST /api/commerce/checkout/gift-card': {
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { itemId: 1, sku: 'GC-50' }, status: 400, code: 'BAD_REQUEST', error: 'Invalid itemId.' },
      { body: { itemId: 'gc', sku: 'GC-7' }, status: 404, code: 'GIFT_CARD_NOT_FOUND', error: 'Gift card not found.' },
    ],
  },
  'GET /api/commerce/orders': {
    cases: [
      { bare: true, status: 401, code: 'ADMIN_REQUIRED' },
      { query: 'limit=0', ...LIMIT },
      { query: 'cursor=zzz', ...CURSOR },
      { query: 'status=shipped', status: 400, code: 'BAD_QUERY', error: 'status must be one of awaiting-payment, paid, fulfilled, partially-refunded, refunded, cancelled.' },
      { query: `q=${'x'.repeat(201)}`, status: 400, code: 'BAD_QUERY', error: 'q can be at most 200 characters.' },
    ],
  },
  'GET /api/commerce/orders/:orderId': {
    params: ['o-unknown'],
    cases: [{ status: 404, code: 'ORDER_NOT_FOUND' }],
  },
  'POST /api/commerce/orders/:orderId/status': {
    params: ['o-unknown'],
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { status: 'shipped' }, status: 400, code: 'BAD_REQUEST', error: "status must be 'paid', 'fulfilled' or 'cancelled'." },
      { body: { status: 'paid' }, status: 404, code: 'ORDER_NOT_FOUND' },
    ],
  },
  'POST /api/commerce/orders/:orderId/downloads/reset': {
    params: ['o-unknown'],
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { itemId: 5 }, status: 400, code: 'BAD_REQUEST', error: "itemId must be the id of one of the order's digital products." },
      { body: {}, status: 400, code: 'BAD_REQUEST', error: "itemId must be the id of one of the order's digital products." },
      { body: { itemId: 'x'.repeat(201) }, status: 400, code: 'BAD_REQUEST' },
      { body: { itemId: 'poster' }, status: 404, code: 'ORDER_NOT_FOUND' },
      { bare: true, body: { itemId: 'poster' }, status: 401, code: 'ADMIN_REQUIRED' },
    ],
  },
  'POST /api/commerce/orders/:orderId/refunds': {
    params: ['o-unknown'],
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { amountCents: '100', idempotencyKey: 'refund-key-1' }, status: 400, code: 'BAD_REQUEST', error: 'amountCents must be a whole number of cents, at least 1.' },
      { body: { amountCents: 0, idempotencyKey: 'refund-key-1' }, status: 400, code: 'BAD_REQUEST', error: 'amountCents must be a whole number of cents, at least 1.' },
      { body: { amountCents: 100 }, status: 400, code: 'BAD_REQUEST', error: 'idempotencyKey must be 8 to 100 letters, digits, - or _, new for each refund.' },
      { body: { amountCents: 100, idempotencyKey: 'refund-key-1', reason: 5 }, status: 400, code: 'BAD_REQUEST', error: 'reason can be at most 500 characters.' },
      { body: { amountCents: 100, idempotencyKey: 'refund-key-1' }, status: 404, code: 'ORDER_NOT_FOUND' },
      { bare: true, body: { amountCents: 100, idempotencyKey: 'refund-key-1' }, status: 401, code: 'ADMIN_REQUIRED' },
    ],
  },
  'POST /api/commerce/orders/:orderId/downloads/resend': {
    params: ['o-unknown'],
    cases: [
      { status: 404, code: 'ORDER_NOT_FOUND', error: 'Order not found.' },
      { bare: true, status: 401, code: 'ADMIN_REQUIRED' },
    ],
  },
  'POST /api/commerce/order-status': {
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { orderNumber: '1', email: 'a@example.com' }, status: 400, code: 'BAD_REQUEST', error: 'Invalid orderNumber.' },
    ],
  },
  'POST /api/commerce/order-status/download-links': {
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { orderNumber: '1', email: 'a@example.com' }, status: 400, code: 'BAD_REQUEST', error: 'Invalid orderNumber.' },
      { body: { orderNumber: 1, email: 5 }, status: 400, code: 'BAD_REQUEST', error: 'Invalid email.' },
      { body: { orderNumber: 999, email: 'a@example.com' }, status: 404, code: 'ORDER_NOT_FOUND', error: 'Order not found.' },
    ],
  },
  'POST /api/commerce/reviews': {
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { productId: 'p1', rating: 9, name: 'A', text: 'B' }, status: 400, code: 'REVIEW_INVALID', error: 'The review has errors.' },
    ],
  },
  'POST /api/3/commerce/cart/subscription': {
    cases: [
      { body: { itemId: ['psub'], qty: 1 }, ...INVALID_ITEM_ID },
      { body: { itemId: 'psub', qty: 1.5 }, status: 400, code: 'QUANTITY_NOT_INTEGER' },
      { body: null, ...NOT_OBJECT },
    ],
  },
  'GET /api/commerce/inventory/stock/': {
    cases: [
      { query: '', ...INVALID_ITEM_ID },
      { query: 'itemId=', ...INVALID_ITEM_ID },
      { query: 'itemId=p1&itemId=p2', ...INVALID_ITEM_ID },
    ],
  },
  'GET /api/commerce/inventory/stock': {
    cases: [{ query: 'itemId=p1&itemId=p1', ...INVALID_ITEM_ID }],
  },
  'PUT /api/commerce/inventory/stock/:itemId/:variantId': {
    params: ['p1', 'v1'],
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { qtyInStock: '3' }, status: 400, code: 'BAD_REQUEST', error: 'qtyInStock must be an integer from 0 to 1000000000.' },
      { body: { unlimited: 'yes' }, status: 400, code: 'BAD_REQUEST', error: 'unlimited must be a boolean.' },
      { body: { qtyInStock: 1, expected: { qtyInStock: 1 } }, status: 400, code: 'BAD_REQUEST', error: 'expected must be { qtyInStock: integer 0 to 1000000000, unlimited: boolean }.' },
    ],
  },
  'GET /api/template/GetTemplateSchema': {
    cases: [
      { query: 'type=page', status: 400, code: 'UNSUPPORTED_TYPE', error: 'Unsupported schema type.' },
      { query: 'type=form&type=form', status: 400, code: 'UNSUPPORTED_TYPE' },
    ],
  },
  'POST /api/rest/forms/validate/:formId': {
    params: ['fv'],
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: 7, ...NOT_OBJECT },
    ],
  },
  'POST /api/events/RecordJavascriptErrors': {
    cases: [
      { body: { event: 'x' }, status: 400, code: 'INVALID_REPORTS', error: 'Expected an array of 1 to 20 error reports.' },
      { body: [{ event: 5, data: {}, timestamp: 1 }], status: 400, code: 'INVALID_REPORT', error: 'Report 0 is invalid.' },
      {
        body: [{ event: 'ok', data: {}, timestamp: 1 }, { event: 'x', data: {}, timestamp: '1' }],
        status: 400,
        code: 'INVALID_REPORT',
        error: 'Report 1 is invalid.',
      },
    ],
  },
  'POST /api/site-users/account/notifications/restock': {
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { productId: 5, variantId: 'vso1', siteVisitorEmail: 'a@example.com' }, ...PRODUCT_NOT_FOUND },
      { body: { productId: 'pso', variantId: 'vso1', siteVisitorEmail: 5 }, status: 400, code: 'EMAIL_BLANK' },
    ],
  },
  'GET /api/site-users/account/notifications/restock': {
    cases: [
      { query: 'productId=pso', status: 400, code: 'BAD_QUERY', error: 'productId and variantId are required.' },
      { query: 'productId=pso&variantId=vso1&limit=0', ...LIMIT },
      { query: 'productId=pso&variantId=vso1&limit=1e2', ...LIMIT },
      { query: 'productId=pso&variantId=vso1&cursor=a&cursor=b', ...CURSOR },
    ],
  },
  'GET /api/site-users/account/notifications/restock/groups': {
    cases: [
      { query: 'limit=101', ...LIMIT },
      { query: 'limit=5&limit=5', ...LIMIT },
      { query: 'cursor=x&cursor=y', ...CURSOR },
    ],
  },
  'POST /api/site-users/account/notifications/restock/send': {
    cases: [
      { body: [], ...NOT_OBJECT },
      { body: { productId: true, variantId: 'vso1' }, ...PRODUCT_NOT_FOUND },
    ],
  },
  'POST /api/site-users/account/notifications/restock/send/all': {
    cases: [
      { body: { sendRequests: 'all' }, status: 400, code: 'BAD_REQUEST', error: 'sendRequests must hold 1 to 100 items.' },
      { body: { sendRequests: [] }, status: 400, code: 'BAD_REQUEST', error: 'sendRequests must hold 1 to 100 items.' },
      { body: [], ...NOT_OBJECT },
    ],
  },
  'POST /api/form/FormSubmissionKey': {
    // No body (B15): any body, of any type, is ignored.
    cases: [{ body: [1], status: 200 }],
  },
  'POST /api/form/SaveFormSubmission': {
    cases: [
      { body: { form: 5, key: 'k' }, status: 400, code: 'FORM_PARSE', error: 'Could not parse the form fields, please check your entries.' },
      { body: { key: 5 }, status: 400, code: 'FORM_PARSE' },
      { body: [], ...NOT_OBJECT },
    ],
  },
  'POST /api/site-users/account/session': {
    cases: [
      { body: { email: 5, password: 'x' }, status: 400, code: 'MISSING_CREDENTIALS', error: 'Email and password are required.' },
      { body: { email: ' \t', password: 'x' }, status: 400, code: 'MISSING_CREDENTIALS' },
      { body: { email: 'a@example.com', password: '' }, status: 400, code: 'MISSING_CREDENTIALS' },
      { body: { email: 'a@example.com', password: 'x', rememberMe: 'yes' }, status: 400, code: 'BAD_REQUEST', error: 'rememberMe must be a boolean.' },
      // Nothing is coerced: the string "true" is not a boolean.
      { body: { email: 'a@example.com', password: 'x', rememberMe: 'true' }, status: 400, code: 'BAD_REQUEST', error: 'rememberMe must be a boolean.' },
      { body: { email: 5, rememberMe: 'yes' }, status: 400, code: 'MISSING_CREDENTIALS' },
      { body: [], ...NOT_OBJECT },
    ],
  },
  'DELETE /api/site-users/account/session': {
    cases: [
      { query: 'cloneCart=maybe', ...BAD_QUERY },
      // B18 checks its query before the crumb.
      { query: 'cloneCart=true&cloneCart=true', bare: true, ...BAD_QUERY },
    ],
  },
  'POST /api/site-users/account/locale': {
    cases: [
      { body: { language: 5 }, user: true, status: 400, code: 'INVALID_LANGUAGE', error: 'Invalid language.' },
      { body: { language: 'x'.repeat(36) }, user: true, status: 400, code: 'INVALID_LANGUAGE' },
      { body: [], user: true, ...NOT_OBJECT },
      // The user guard answers before any body complaint (B0.3).
      { body: { language: 5 }, status: 401, code: 'NOT_AUTHENTICATED' },
    ],
  },
  // Password reset (designed here): nothing a visitor typed is echoed.
  'POST /api/site-users/account/password-reset': {
    cases: [
      { body: { email: 5 }, status: 400, code: 'EMAIL_INVALID', error: 'Enter a valid email address.' },
      { body: { email: '' }, status: 400, code: 'EMAIL_INVALID' },
      { body: { email: 'x'.repeat(257) }, status: 400, code: 'EMAIL_INVALID' },
      { body: { email: 'no at sign' }, status: 400, code: 'EMAIL_INVALID' },
      { body: [], ...NOT_OBJECT },
    ],
  },
  'POST /api/site-users/account/password-reset/check': {
    cases: [
      { body: { token: 5 }, status: 400, code: 'RESET_LINK_INVALID', error: 'This reset link is not valid. Ask for a new one.' },
      { body: { token: 'x'.repeat(101) }, status: 400, code: 'RESET_LINK_INVALID' },
      { body: [], ...NOT_OBJECT },
    ],
  },
  'POST /api/site-users/account/password': {
    cases: [
      { body: { token: 'abc', password: 'short' }, status: 400, code: 'WEAK_PASSWORD', error: 'Choose a password of at least 8 characters.' },
      { body: { token: 'abc', password: 5 }, status: 400, code: 'WEAK_PASSWORD' },
      { body: { token: 'abc', password: 'x'.repeat(201) }, status: 400, code: 'PASSWORD_TOO_LONG', error: 'Choose a password of at most 200 characters.' },
      { body: { token: '', password: 'long enough' }, status: 400, code: 'RESET_LINK_INVALID' },
      { body: { token: 'unknown', password: 'long enough' }, status: 400, code: 'RESET_LINK_INVALID' },
      { body: [], ...NOT_OBJECT },
    ],
  },
  'POST /api/census/RecordHit': {
    cases: [
      { raw: form('event=&data=%7B%7D'), ...INVALID_EVENT },
      { raw: form(`event=${'e'.repeat(101)}&data=%7B%7D`), ...INVALID_EVENT },
      { raw: form('data=%7B%7D'), ...INVALID_EVENT },
      // Both fields wrong: B20 checks event first (the schema reports the earliest field,
      // although TypeBox lists the missing `data` before the empty `event`).
      { raw: form('event='), ...INVALID_EVENT },
      { raw: form('event=view'), status: 400, code: 'INVALID_DATA', error: 'data must be a JSON object.' },
      { body: { event: 'view', data: {} }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
    ],
  },
  'POST /api/census/button-click': {
    cases: [
      { body: { buttonId: 5, pageId: 'p', pagePath: '/' }, ...INVALID_CENSUS },
      { body: { buttonId: 'b', pageId: 'p', pagePath: '/', visitorCookie: 1 }, ...INVALID_CENSUS },
      { body: [], ...NOT_OBJECT },
    ],
  },
  'POST /api/census/button-render': {
    cases: [
      { body: { buttonId: 'b', pageId: 'p' }, ...INVALID_CENSUS },
      { raw: { type: 'application/json', payload: '{"buttonId":' }, status: 400, code: 'BAD_JSON' },
    ],
  },
  'POST /api/census/form-render': {
    cases: [
      { body: { formId: '' }, ...INVALID_CENSUS },
      { body: { formId: 5 }, ...INVALID_CENSUS },
    ],
  },
  'POST /api/census/overlay': {
    cases: [
      { body: { overlayId: 'o', action: 'explode' }, ...INVALID_CENSUS },
      { body: { overlayId: ['o'], action: 'click' }, ...INVALID_CENSUS },
    ],
  },
  'POST /api/census/RecordQuickView/:id': {
    params: ['x'.repeat(201)],
    cases: [{ status: 404, code: 'ITEM_NOT_FOUND', error: 'Item not found.' }],
  },
  'POST /api/events/RecordEvent': {
    cases: [
      { raw: form(`crumb=${CRUMB}&data=%7B%7D`), ...INVALID_EVENT },
      { raw: form(`crumb=${CRUMB}&event=e`), status: 400, code: 'INVALID_DATA' },
      // The crumb in the form is checked before its fields.
      { raw: form('event=&data=%7B%7D'), status: 403, code: 'CRUMB_FAIL' },
    ],
  },
  'POST /api/v1/clanker/events': {
    cases: [
      { body: { eventSchemaName: 5, eventContent: '{}' }, status: 400, code: 'INVALID_SCHEMA_NAME' },
      { body: [], ...NOT_OBJECT },
    ],
  },
  'POST /api/v1/clanker/validate-event-content/:schemaName': {
    params: ['Web_Event'],
    cases: [{ body: { eventContent: 5 }, status: 400, code: 'INVALID_EVENT_CONTENT' }],
  },
  'GET /api/1/performance/settings': {
    cases: [{ query: 'x=1&x=2', status: 200 }],
  },
  'GET /api/commerce/fullstory/getId': {
    cases: [{ query: 'x=1&x=2', status: 200 }],
  },
  'POST /api/1/performance/records': {
    cases: [{ body: { pageLoadId: 5, pagePath: '/', records: [] }, status: 400, code: 'INVALID_PERFORMANCE_BATCH' }],
  },
  'POST /api/content-service/product/1.1/websites/:websiteId/products': {
    params: ['w1'],
    cases: [
      { body: { navigationTitle: 5, title: 'Shop', urlId: 'shop', enabled: true }, status: 400, code: 'INVALID_COLLECTION' },
      { body: [], ...NOT_OBJECT },
    ],
  },
  'POST /api/content-service/product/1.1/websites/:websiteId/products/:collectionId/categories': {
    params: ['w1', 'col1'],
    cases: [
      { body: { displayName: 5 }, status: 400, code: 'INVALID_CATEGORY' },
      { body: 'x', ...NOT_OBJECT },
    ],
  },
  // The admin's routes (renderer/admin/admin-routes.ts); sent with the ADMIN_TOKEN, so the
  // API key routes, which need an owner session, answer OWNER_REQUIRED.
  'POST /api/admin/session': {
    cases: [
      { body: { email: 5, password: 'x' }, status: 400, code: 'MISSING_CREDENTIALS' },
      { body: { email: 'a@b.test', password: '' }, status: 400, code: 'MISSING_CREDENTIALS' },
      { body: [], ...NOT_OBJECT },
      { raw: form('email=a&password=b'), status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
    ],
  },
  'GET /api/admin/session': { cases: [{ query: 'x=1', status: 200 }] },
  'DELETE /api/admin/session': { cases: [{ bare: true, status: 200 }] },
  'GET /api/admin/inventory': {
    cases: [
      { query: 'sort=colour', ...BAD_QUERY },
      { query: 'page=0', ...BAD_QUERY },
      { query: 'q=a&q=b', ...BAD_QUERY },
      { bare: true, status: 401, code: 'ADMIN_REQUIRED' },
    ],
  },
  'GET /api/admin/submissions': {
    cases: [
      { query: 'formId=contact&cursor=%25', ...CURSOR },
      { query: 'cursor=a&cursor=b', ...CURSOR },
      { query: 'formId=a&formId=b', ...BAD_QUERY },
      { query: 'formId=nope', status: 404, code: 'FORM_NOT_FOUND' },
    ],
  },
  'GET /api/admin/submissions/export': {
    cases: [
      { query: '', ...BAD_QUERY },
      { query: 'formId=nope', status: 404, code: 'FORM_NOT_FOUND' },
    ],
  },
  // Review moderation: the status and paging of the list, and an unknown review.
  'GET /api/admin/orders/export': {
    cases: [
      { bare: true, status: 401, code: 'ADMIN_REQUIRED' },
      { query: 'status=shipped', status: 400, code: 'BAD_QUERY', error: 'status must be one of awaiting-payment, paid, fulfilled, partially-refunded, refunded, cancelled.' },
      { query: `q=${'x'.repeat(201)}`, status: 400, code: 'BAD_QUERY', error: 'q can be at most 200 characters.' },
    ],
  },
  'GET /api/admin/reviews': {
    cases: [
      { query: 'status=rejected', status: 400, code: 'BAD_QUERY', error: "status must be 'pending' or 'approved'." },
      { query: 'status=pending&status=approved', status: 400, code: 'BAD_QUERY' },
      { query: 'limit=0', ...LIMIT },
      { query: 'cursor=%25', ...CURSOR },
      { bare: true, status: 401, code: 'ADMIN_REQUIRED' },
    ],
  },
  'POST /api/admin/reviews/:reviewId/approve': {
    params: ['nope'],
    cases: [
      { status: 404, code: 'REVIEW_NOT_FOUND', error: 'Review not found.' },
      { bare: true, status: 401, code: 'ADMIN_REQUIRED' },
    ],
  },
  'DELETE /api/admin/reviews/:reviewId': {
    params: ['nope'],
    cases: [
      { status: 404, code: 'REVIEW_NOT_FOUND', error: 'Review not found.' },
      { bare: true, status: 401, code: 'ADMIN_REQUIRED' },
    ],
  },
  'GET /api/admin/api-keys': { cases: [{ status: 401, code: 'OWNER_REQUIRED' }] },
  'POST /api/admin/api-keys': {
    cases: [
      { body: { name: 5 }, status: 400, code: 'INVALID_KEY_NAME' },
      { body: [], ...NOT_OBJECT },
    ],
  },
  'DELETE /api/admin/api-keys/:keyId': { params: ['k1'], cases: [{ status: 401, code: 'OWNER_REQUIRED' }] },
  // Feature toggles (api/routes/feature-routes.ts): the public read, the admin's read, replace and drop.
  'GET /api/features': { cases: [{ query: 'x=1&x=2', bare: true, status: 200 }] },
  'GET /api/admin/features': { cases: [{ bare: true, status: 401, code: 'ADMIN_REQUIRED' }] },
  'PUT /api/admin/features': {
    cases: [
      { body: { features: { 'quick-view': 'off' } }, status: 400, code: 'INVALID_FEATURES' },
      { body: { features: { 'Quick View': false } }, status: 400, code: 'INVALID_FEATURES' },
      { body: { experiments: { 'a-test': { variant: '' } } }, status: 400, code: 'INVALID_FEATURES' },
      { body: { features: {}, colour: 'red' }, status: 400, code: 'INVALID_FEATURES' },
      { body: [], ...NOT_OBJECT },
      { bare: true, body: { features: {} }, status: 401, code: 'ADMIN_REQUIRED' },
    ],
  },
  'DELETE /api/admin/features': { cases: [{ bare: true, status: 401, code: 'ADMIN_REQUIRED' }] },
  [`GET ${OPENAPI_PATH}`]: {
    cases: [{ query: 'x=1&x=2', status: 200 }],
  },
};

function fillPath(path: string, params: string[] = []): string {
  let index = 0;
  return path.replace(/:[A-Za-z]+/g, () => encodeURIComponent(params[index++] ?? 'x'));
}

async function userAuth(): Promise<{ cookies: Record<string, string>; headers: Record<string, string> }> {
  const login = await h.inject({
    method: 'POST',
    url: '/api/site-users/account/session',
    cookies: { crumb: CRUMB },
    headers: { 'x-csrf-token': CRUMB },
    payload: { email: 'alice@example.com', password: USER_PASSWORD },
  });
  const session = login.cookies.find((cookie) => cookie.name === 'SiteUserSecureAuthToken')?.value ?? '';
  return { cookies: { SiteUserSecureAuthToken: session }, headers: { 'x-siteuser-xsrf-token': json(login).xsrfToken } };
}

function describeResponse(response: LightMyRequestResponse): string {
  return `${response.statusCode} ${response.headers['content-type']} ${response.body.slice(0, 200)}`;
}

describe('route schemas', () => {
  it('every route has wrong-typed input cases', () => {
    const routes = h.app.storefrontApiRoutes().map((route) => `${route.method} ${route.path}`);
    expect(routes.filter((route) => !CASES[route])).toEqual([]);
    expect(Object.keys(CASES).filter((route) => !routes.includes(route))).toEqual([]);
  });

  it('wrong-typed input gets the endpoint code in the B0.2 shape, never a 5xx or the default body', async () => {
    const user = await userAuth();
    const failures: string[] = [];
    for (const [route, { params, cases }] of Object.entries(CASES)) {
      const [method, path] = route.split(' ') as [string, string];
      for (const sample of cases) {
        const headers: Record<string, string> = {};
        const cookies: Record<string, string> = {};
        if (!sample.bare) {
          headers['x-csrf-token'] = CRUMB;
          cookies.crumb = CRUMB;
          headers.authorization = `Bearer ${ADMIN_TOKEN}`;
        }
        if (sample.user) {
          Object.assign(cookies, user.cookies);
          Object.assign(headers, user.headers);
        }
        const options: InjectOptions = {
          method: method as InjectOptions['method'],
          url: fillPath(path, params) + (sample.query ? `?${sample.query}` : ''),
          headers,
          cookies,
        };
        if (sample.raw) {
          headers['content-type'] = sample.raw.type;
          options.payload = sample.raw.payload;
        } else if (sample.body !== undefined) {
          headers['content-type'] = 'application/json';
          options.payload = JSON.stringify(sample.body);
        }
        const response = await h.inject(options);
        const label = `${route} ${JSON.stringify(sample)}`;
        if (response.statusCode !== sample.status) {
          failures.push(`${label} -> ${describeResponse(response)}`);
          continue;
        }
        if (sample.status < 400) continue;
        const body = json(response);
        const shapeOk =
          /^application\/json/.test(String(response.headers['content-type'])) &&
          typeof body.error === 'string' &&
          typeof body.code === 'string' &&
          /^[A-Z_]+$/.test(body.code) &&
          !('statusCode' in body) &&
          !('message' in body);
        const codeOk = body.code === sample.code && (sample.error === undefined || body.error === sample.error);
        if (!shapeOk || !codeOk) failures.push(`${label} -> ${describeResponse(response)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

function cartErrorSchema(document: any): { required: string[]; properties: { code: { enum: string[] } } } {
  return document.paths['/api/commerce/shopping-cart/entries'].post.responses['4XX'].content['application/json'].schema;
}

describe('OpenAPI document', () => {
  it(`is served at ${OPENAPI_PATH} and lists every route with its method and body schema`, async () => {
    const response = await h.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const document = json(response);
    expect(document.openapi).toMatch(/^3\./);
    const missing: string[] = [];
    const withoutBodySchema: string[] = [];
    // Routes that take no body (B15, B18, B24, B27) or only read one in the handler.
    const bodyless = new Set([
      'POST /api/form/FormSubmissionKey',
      'POST /api/census/RecordQuickView/:id',
      'DELETE /api/commerce/shopping-cart/entries/:entryId',
      'DELETE /api/site-users/account/session',
      'POST /api/admin/reviews/:reviewId/approve',
      'POST /api/commerce/orders/:orderId/downloads/resend',
    ]);
    for (const { method, path } of h.app.storefrontApiRoutes()) {
      const operation = document.paths?.[path.replace(/:([A-Za-z]+)/g, '{$1}')]?.[method.toLowerCase()];
      if (!operation) {
        missing.push(`${method} ${path}`);
        continue;
      }
      if ((method === 'POST' || method === 'PUT') && !bodyless.has(`${method} ${path}`)) {
        const content = operation.requestBody?.content ?? {};
        const schemas = Object.values(content).map((entry) => (entry as { schema?: unknown }).schema);
        if (schemas.length === 0 || schemas.some((schema) => typeof schema !== 'object' || schema === null)) {
          withoutBodySchema.push(`${method} ${path}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(withoutBodySchema).toEqual([]);
    // Every API route publishes the B0.2 error body for its 4xx answers.
    const errorBody = cartErrorSchema(document);
    expect(errorBody.required).toEqual(['error', 'code']);
    // A client generator gets the codes as an enum: the catalogue's, none other.
    expect(errorBody.properties.code.enum).toEqual(API_ERROR_CODE_LIST);
    // Path parameters and query parameters are published too.
    const cart = document.paths['/api/commerce/shopping-cart/entries/{entryId}'].put;
    expect(cart.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'entryId', required: true })]));
    const list = document.paths['/api/site-users/account/notifications/restock'].get;
    expect(list.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual(['cursor', 'limit', 'productId', 'variantId']);
  });
});

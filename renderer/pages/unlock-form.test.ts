import { describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../api/index.ts';
import { DEMO_PASSWORD, demoSite, useDemoHarness, withConfig } from '../test-support/page-harness.ts';

// POST /unlock (pages/index.ts) declares its form as a schema: a body that is not the form
// is refused in the B0.2 JSON shape before any password is compared, and the form is
// published in the OpenAPI document beside the API routes.

const h = useDemoHarness();
const site = await demoSite();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('POST /unlock form schema', () => {
  it('refuses a body that is not the form with a 400 B0.2 body, and still takes the form', async () => {
    h.setSite(withConfig(site, { lock: { enabled: true, password: DEMO_PASSWORD } }));
    const refused = [
      { headers: FORM, payload: 'scope=site&password=a&password=b' },
      { headers: FORM, payload: 'returnTo=%2Fa&returnTo=%2Fb' },
      { headers: { 'content-type': 'text/plain' }, payload: 'password=x' },
      { headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ password: 5 }) },
      {},
    ];
    for (const [index, request] of refused.entries()) {
      const response = await h.inject({ method: 'POST', url: '/unlock', remoteAddress: `198.51.100.${index + 1}`, ...request });
      expect(response.statusCode, JSON.stringify(request)).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(response.body)).toEqual({ error: 'Invalid unlock form.', code: 'BAD_REQUEST' });
    }
    const payload = new URLSearchParams({ password: DEMO_PASSWORD, returnTo: '/shop' }).toString();
    const accepted = await h.inject({ method: 'POST', url: '/unlock', remoteAddress: '198.51.100.99', headers: FORM, payload });
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe('/shop');
    expect(accepted.cookies.some((cookie) => cookie.name === 'sf_unlock')).toBe(true);
  });

  it('refuses a body that is no fields at all (JSON that does not parse, a type with no parser) the same way, at every page form', async () => {
    h.setSite(withConfig(site, { lock: { enabled: true, password: DEMO_PASSWORD } }));
    const forms = [
      ['/unlock', 'Invalid unlock form.'],
      ['/commerce/orders/status', 'Invalid order status form.'],
      ['/newsletter/unsubscribe', 'Invalid unsubscribe form.'],
    ] as const;
    const notFields = [
      { 'content-type': 'application/json', payload: '{"password":' },
      { 'content-type': 'application/json', payload: '' },
      { 'content-type': 'multipart/form-data; boundary=z', payload: '--z\r\nContent-Disposition: form-data; name="password"\r\n\r\nx\r\n--z--\r\n' },
      { 'content-type': 'application/xml', payload: '<password>x</password>' },
    ];
    let address = 0;
    for (const [url, invalid] of forms) {
      for (const { payload, ...headers } of notFields) {
        const response = await h.inject({ method: 'POST', url, remoteAddress: `198.51.101.${++address}`, headers, payload });
        const label = `${url} ${headers['content-type']} ${JSON.stringify(payload)}`;
        expect(response.statusCode, label).toBe(400);
        expect(response.headers['content-type'], label).toMatch(/^application\/json/);
        expect(JSON.parse(response.body), label).toEqual({ error: invalid, code: 'BAD_REQUEST' });
      }
    }
  });

  it('is listed in the OpenAPI document with its form content type', async () => {
    const document = JSON.parse((await h.inject(OPENAPI_PATH)).body);
    const operation = document.paths['/unlock']?.post;
    expect(Object.keys(operation?.requestBody?.content ?? {})).toEqual(['application/x-www-form-urlencoded']);
    expect(Object.keys(operation.requestBody.content['application/x-www-form-urlencoded'].schema.properties).sort()).toEqual([
      'password',
      'returnTo',
      'scope',
    ]);
  });
});

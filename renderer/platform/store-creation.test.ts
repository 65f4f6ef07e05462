import { beforeEach, describe, expect, it } from 'vitest';
import { START, adminHeaders, json, useApiHarness } from '../test-support/api-harness.ts';
import { MAIN_NAVIGATION_MISSING, MainNavigationMissingError, ROOT_CATEGORY, createStore, type StoreCreationDeps } from './store-creation.ts';

// The store-creation helper and its content-service endpoints (templates seed §4, §7, §8)
// against one PGlite database, reseeded before each test (the seed's website is `w1`).

const h = useApiHarness();
let deps: StoreCreationDeps;

beforeEach(async () => {
  let next = 0;
  deps = { store: h.store, now: () => START, newId: (prefix) => `${prefix}_${++next}` };
});

const collectionsUrl = (websiteId = 'w1') => `/api/content-service/product/1.1/websites/${websiteId}/products`;
const collectionBody = { navigationTitle: 'Shop', title: 'Shop', urlId: 'shop', description: 'All our things', enabled: true };

function post(url: string, payload: unknown, headers: Record<string, string> = adminHeaders()) {
  return h.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
}

describe('POST …/websites/{websiteId}/products (collection)', () => {
  it('needs the admin token', async () => {
    const response = await post(collectionsUrl(), collectionBody, {});
    expect(response.statusCode).toBe(401);
    expect(json(response)).toEqual({ error: 'Admin authorization required.', code: 'ADMIN_REQUIRED' });
    expect(await h.store.read.listStoreCollections('w1')).toEqual([]);
  });

  it('stores the collection and answers its id', async () => {
    const response = await post(collectionsUrl(), collectionBody);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body).toMatchObject({ ...collectionBody, websiteId: 'w1' });
    expect(typeof body.id).toBe('string');
    expect(await h.store.read.listStoreCollections('w1')).toEqual([{ ...collectionBody, id: body.id, websiteId: 'w1', createdAt: START }]);
  });

  it('a used urlId is a 409; another website is a 404', async () => {
    await post(collectionsUrl(), collectionBody);
    const again = await post(collectionsUrl(), { ...collectionBody, title: 'Other' });
    expect(again.statusCode).toBe(409);
    expect(json(again).code).toBe('URL_ID_TAKEN');
    const elsewhere = await post(collectionsUrl('w2'), collectionBody);
    expect(elsewhere.statusCode).toBe(404);
    expect(json(elsewhere).code).toBe('WEBSITE_NOT_FOUND');
    expect(await h.store.read.listStoreCollections('w1')).toHaveLength(1);
  });

  it('malformed bodies are 400 with a field error each', async () => {
    const response = await post(collectionsUrl(), { title: '', urlId: 'Not A Slug', enabled: false, description: 3 });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({
      error: 'Invalid product collection.',
      code: 'INVALID_COLLECTION',
      errors: {
        navigationTitle: 'navigationTitle must be 1 to 200 characters.',
        title: 'title must be 1 to 200 characters.',
        urlId: 'urlId must be lower-case letters and digits joined by single hyphens.',
        description: 'description must be at most 10000 characters.',
        enabled: 'enabled must be true.',
      },
    });
    expect(json(await h.inject({ method: 'POST', url: collectionsUrl(), headers: { ...adminHeaders(), 'content-type': 'application/json' }, payload: '{' })).code).toBe('BAD_JSON');
    expect(json(await post(collectionsUrl(), [collectionBody])).code).toBe('BAD_REQUEST');
    expect(await h.store.read.listStoreCollections('w1')).toEqual([]);
  });
});

describe('POST …/products/{collectionId}/categories (root category)', () => {
  const categoryBody = { displayName: 'Shop', ...ROOT_CATEGORY };

  it('stores the seed root category once per collection', async () => {
    const collection = json(await post(collectionsUrl(), collectionBody));
    const url = `${collectionsUrl()}/${collection.id}/categories`;
    const response = await post(url, categoryBody);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ collectionId: collection.id, displayName: 'Shop', parentCategoryId: '', type: 'ROOT', pageRendering: 'LIST_VIEW', displayIndex: 1 });
    expect(await h.store.read.listStoreCategories(collection.id)).toHaveLength(1);
    const second = await post(url, categoryBody);
    expect(second.statusCode).toBe(409);
    expect(json(second).code).toBe('ROOT_CATEGORY_EXISTS');
  });

  it('an unknown collection is a 404; a long name or other fixed fields are a 400', async () => {
    const unknown = await post(`${collectionsUrl()}/nope/categories`, categoryBody);
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown).code).toBe('COLLECTION_NOT_FOUND');
    const collection = json(await post(collectionsUrl(), collectionBody));
    const bad = await post(`${collectionsUrl()}/${collection.id}/categories`, { ...categoryBody, displayName: 'x'.repeat(26), type: 'CHILD', displayIndex: 2 });
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).toEqual({
      error: 'Invalid category.',
      code: 'INVALID_CATEGORY',
      errors: { displayName: 'displayName must be 1 to 25 characters.', type: 'type must be "ROOT".', displayIndex: 'displayIndex must be 1.' },
    });
    expect(await h.store.read.listStoreCategories(collection.id)).toEqual([]);
  });
});

describe('createStore (the helper)', () => {
  it('creates the collection, then its root category, with the seed fields', async () => {
    const created = await createStore(deps, { websiteId: 'w1', title: 'Summer Sale', description: 'Hot' });
    expect(created.addedToNavigation).toBe(false);
    expect(created.collection).toEqual({
      id: 'col_1', websiteId: 'w1', navigationTitle: 'Summer Sale', title: 'Summer Sale', urlId: 'summer-sale', description: 'Hot', enabled: true, createdAt: START,
    });
    expect(await h.store.read.listStoreCategories('col_1')).toEqual([
      { id: 'cat_2', collectionId: 'col_1', displayName: 'Summer Sale', parentCategoryId: '', type: 'ROOT', pageRendering: 'LIST_VIEW', displayIndex: 1, createdAt: START },
    ]);
  });

  it('URL ids: the fallback title for short slugs, then -1, -2 for used ones', async () => {
    const ids = [];
    for (const title of ['Shop', 'Shop', 'Shop', 'Go']) {
      ids.push((await createStore(deps, { websiteId: 'w1', title, fallbackTitle: 'shop' })).collection.urlId);
    }
    expect(ids).toEqual(['shop', 'shop-1', 'shop-2', 'shop-3']);
  });

  it('the category name is cut to the 25-character limit', async () => {
    const created = await createStore(deps, { websiteId: 'w1', title: 'A very long store name indeed, yes' });
    expect(created.category.displayName).toBe('A very long store name in');
  });

  it('adds a link to the first entry of the site layout', async () => {
    await h.store.read.putSiteLayout('w1', [
      { identifier: 'mainNav', links: [{ collectionId: 'home', children: [], externalLink: null, memberAreaId: null }] },
      { identifier: 'secondaryNav', links: [] },
    ]);
    const created = await createStore(deps, { websiteId: 'w1', title: 'Shop', addToMainNavigation: true });
    expect(created.addedToNavigation).toBe(true);
    const layout = (await h.store.read.getSiteLayout('w1')) as { identifier: string; links: { collectionId: string }[] }[];
    expect(layout.map((entry) => [entry.identifier, entry.links.map((link) => link.collectionId)])).toEqual([
      ['mainNav', ['home', created.collection.id]],
      ['secondaryNav', []],
    ]);
  });

  it(`without a first layout entry it stops with '${MAIN_NAVIGATION_MISSING}', keeping the store`, async () => {
    await h.store.read.putSiteLayout('w1', []);
    const failure = await createStore(deps, { websiteId: 'w1', title: 'Shop', addToMainNavigation: true }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MainNavigationMissingError);
    expect((failure as Error).message).toBe('Unable to find site main navigation');
    expect((failure as MainNavigationMissingError).collection.urlId).toBe('shop');
    expect(await h.store.read.listStoreCollections('w1')).toHaveLength(1);
    expect(await h.store.read.listStoreCategories((failure as MainNavigationMissingError).collection.id)).toHaveLength(1);
    expect(await h.store.read.getSiteLayout('w1')).toEqual([]);
  });

  it('an unknown website creates nothing', async () => {
    await expect(createStore(deps, { websiteId: 'nope', title: 'Shop' })).rejects.toMatchObject({ code: 'WEBSITE_NOT_FOUND' });
    expect(await h.store.read.listStoreCollections('nope')).toEqual([]);
  });
});

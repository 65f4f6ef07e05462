import { Type } from '@sinclair/typebox';
import { MAX_CATEGORY_LENGTH } from '../../hydrate/shared/store-url-id.ts';
import { addRoute, checkedInHandler, type RouteKit } from '../api/route-kit.ts';
import { ROOT_CATEGORY, checkCategoryBody, checkCollectionBody, createCollection, createRootCategory } from './store-creation.ts';

// The content-service endpoints of templates seed §7 that the store-creation helper calls.
// They change the catalogue's structure, so they take the [admin] guard (B0.3).

const BASE = '/content-service/product/1.1/websites/:websiteId/products';

// The bodies are checked by checkCollectionBody / checkCategoryBody, which the store-creation
// helper shares, so the helper cannot create what these endpoints refuse; they collect every
// field's message into `errors` (INVALID_COLLECTION / INVALID_CATEGORY).
const SHARED_CHECK = 'Checked by store-creation.ts, shared with the store-creation helper.';

const COLLECTION_SCHEMA = {
  summary: 'Create the product collection (templates seed §7).',
  params: Type.Object({ websiteId: Type.String() }),
  body: checkedInHandler(
    Type.Object({
      navigationTitle: Type.String({ minLength: 1, maxLength: 200 }),
      title: Type.String({ minLength: 1, maxLength: 200 }),
      urlId: Type.String({ maxLength: 250, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }),
      description: Type.Optional(Type.String({ maxLength: 10_000 })),
      enabled: Type.Literal(true),
    }),
    SHARED_CHECK,
  ),
};

const CATEGORY_SCHEMA = {
  summary: "Create a collection's root category (templates seed §7).",
  params: Type.Object({ websiteId: Type.String(), collectionId: Type.String() }),
  body: checkedInHandler(
    Type.Object({
      displayName: Type.String({ minLength: 1, maxLength: MAX_CATEGORY_LENGTH }),
      parentCategoryId: Type.Literal(ROOT_CATEGORY.parentCategoryId),
      type: Type.Literal(ROOT_CATEGORY.type),
      pageRendering: Type.Literal(ROOT_CATEGORY.pageRendering),
      displayIndex: Type.Literal(ROOT_CATEGORY.displayIndex),
    }),
    SHARED_CHECK,
  ),
};

export function registerStoreCreationRoutes(kit: RouteKit): void {
  const { deps } = kit;

  addRoute(kit, {
    method: 'POST',
    url: BASE,
    admin: true,
    schema: COLLECTION_SCHEMA,
    handler: async (request) => {
      const body = checkCollectionBody(request.body as Record<string, unknown>);
      return deps.store.transaction((repo) => createCollection(deps, repo, request.params.websiteId, body));
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: `${BASE}/:collectionId/categories`,
    admin: true,
    schema: CATEGORY_SCHEMA,
    handler: async (request) => {
      const body = checkCategoryBody(request.body as Record<string, unknown>);
      const { websiteId, collectionId } = request.params;
      return deps.store.transaction((repo) => createRootCategory(deps, repo, websiteId, collectionId, body));
    },
  });
}

import type { FastifyRequest } from 'fastify';
import { jsonObjectBody } from '../api/http.ts';
import { addRoute, type RouteKit } from '../api/route-kit.ts';
import { checkCategoryBody, checkCollectionBody, createCollection, createRootCategory } from './store-creation.ts';

// The content-service endpoints of templates seed §7 that the store-creation helper calls.
// They change the catalogue's structure, so they take the [admin] guard (B0.3).

const BASE = '/content-service/product/1.1/websites/:websiteId/products';

function params(request: FastifyRequest): { websiteId: string; collectionId: string } {
  return request.params as { websiteId: string; collectionId: string };
}

export function registerStoreCreationRoutes(kit: RouteKit): void {
  const { deps } = kit;

  addRoute(kit, {
    method: 'POST',
    url: BASE,
    admin: true,
    handler: async (request) => {
      const body = checkCollectionBody(jsonObjectBody(request));
      return deps.store.transaction((repo) => createCollection(deps, repo, params(request).websiteId, body));
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: `${BASE}/:collectionId/categories`,
    admin: true,
    handler: async (request) => {
      const body = checkCategoryBody(jsonObjectBody(request));
      const { websiteId, collectionId } = params(request);
      return deps.store.transaction((repo) => createRootCategory(deps, repo, websiteId, collectionId, body));
    },
  });
}

import { MAX_CATEGORY_LENGTH, isValidCategory, storeUrlId } from '../../hydrate/shared/store-url-id.ts';
import { ApiError, type ApiErrorCode } from '../api/errors.ts';
import type { Repository } from '../store/repository.ts';
import type { Store } from '../store/store.ts';
import type { StoreCategory, StoreCollection } from '../store/types.ts';

// The store-creation helper of templates seed §4/§7 on the server: create the product
// collection, then its root category, then (optionally) link it from the main navigation.
// The two content-service endpoints (store-creation-routes.ts) and the helper share the
// validation and the writes below, so the helper cannot create what the endpoints refuse.

/** Seed §8, character for character (no final period). */
export const MAIN_NAVIGATION_MISSING = 'Unable to find site main navigation';

/** Seed §7: the fixed fields of the root category request. */
export const ROOT_CATEGORY = { parentCategoryId: '', type: 'ROOT', pageRendering: 'LIST_VIEW', displayIndex: 1 } as const;

/** Designed limits. */
const MAX_TITLE = 200;
const MAX_DESCRIPTION = 10_000;
const MAX_URL_ID = 250;
const URL_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface CollectionBody {
  navigationTitle: string;
  title: string;
  urlId: string;
  description: string;
  enabled: true;
}

export type CategoryBody = { displayName: string } & typeof ROOT_CATEGORY;

function invalid(code: ApiErrorCode, message: string, errors: Record<string, string>): ApiError {
  return new ApiError(400, code, message, { errors });
}

function text(value: unknown, max: number, allowEmpty = false): value is string {
  return typeof value === 'string' && (allowEmpty || value.trim() !== '') && value.length <= max;
}

/** Seed §7 body of the collection request; `enabled` is always true. */
export function checkCollectionBody(body: Record<string, unknown>): CollectionBody {
  const errors: Record<string, string> = {};
  if (!text(body.navigationTitle, MAX_TITLE)) errors.navigationTitle = `navigationTitle must be 1 to ${MAX_TITLE} characters.`;
  if (!text(body.title, MAX_TITLE)) errors.title = `title must be 1 to ${MAX_TITLE} characters.`;
  if (typeof body.urlId !== 'string' || body.urlId.length > MAX_URL_ID || !URL_ID.test(body.urlId)) {
    errors.urlId = 'urlId must be lower-case letters and digits joined by single hyphens.';
  }
  if (!text(body.description ?? '', MAX_DESCRIPTION, true)) errors.description = `description must be at most ${MAX_DESCRIPTION} characters.`;
  if (body.enabled !== true) errors.enabled = 'enabled must be true.';
  if (Object.keys(errors).length > 0) throw invalid('INVALID_COLLECTION', 'Invalid product collection.', errors);
  return {
    navigationTitle: body.navigationTitle as string,
    title: body.title as string,
    urlId: body.urlId as string,
    description: (body.description ?? '') as string,
    enabled: true,
  };
}

/** Seed §7 body of the category request: a root category, displayed first, as a list. */
export function checkCategoryBody(body: Record<string, unknown>): CategoryBody {
  const errors: Record<string, string> = {};
  if (!isValidCategory(body.displayName)) errors.displayName = `displayName must be 1 to ${MAX_CATEGORY_LENGTH} characters.`;
  for (const [field, expected] of Object.entries(ROOT_CATEGORY)) {
    if (body[field] !== expected) errors[field] = `${field} must be ${JSON.stringify(expected)}.`;
  }
  if (Object.keys(errors).length > 0) throw invalid('INVALID_CATEGORY', 'Invalid category.', errors);
  return { displayName: body.displayName as string, ...ROOT_CATEGORY };
}

export interface StoreCreationDeps {
  store: Store;
  now: () => number;
  newId: (prefix: string) => string;
}

export async function requireWebsite(repo: Repository, websiteId: string): Promise<void> {
  const site = await repo.getSite();
  if (!site || site.websiteId !== websiteId) throw new ApiError(404, 'WEBSITE_NOT_FOUND', 'Website not found.');
}

export async function createCollection(deps: StoreCreationDeps, repo: Repository, websiteId: string, body: CollectionBody): Promise<StoreCollection> {
  await requireWebsite(repo, websiteId);
  const collection: StoreCollection = { id: deps.newId('col'), websiteId, ...body, createdAt: deps.now() };
  if (!(await repo.insertStoreCollection(collection))) throw new ApiError(409, 'URL_ID_TAKEN', 'This URL is already in use.');
  return collection;
}

export async function createRootCategory(
  deps: StoreCreationDeps,
  repo: Repository,
  websiteId: string,
  collectionId: string,
  body: CategoryBody,
): Promise<StoreCategory> {
  await requireWebsite(repo, websiteId);
  const collection = await repo.getStoreCollection(collectionId);
  if (!collection || collection.websiteId !== websiteId) throw new ApiError(404, 'COLLECTION_NOT_FOUND', 'Product collection not found.');
  const category: StoreCategory = { id: deps.newId('cat'), collectionId, ...body, createdAt: deps.now() };
  if (!(await repo.insertStoreCategory(category))) throw new ApiError(409, 'ROOT_CATEGORY_EXISTS', 'This collection already has a root category.');
  return category;
}

/** Thrown after the collection and category exist, when the layout has no first entry. */
export class MainNavigationMissingError extends Error {
  constructor(
    readonly collection: StoreCollection,
    readonly category: StoreCategory,
  ) {
    super(MAIN_NAVIGATION_MISSING);
    this.name = 'MainNavigationMissingError';
  }
}

export interface CreateStoreRequest {
  websiteId: string;
  title: string;
  description?: string;
  /** Used for the URL id when the title's slug is empty or under 3 characters. */
  fallbackTitle?: string;
  addToMainNavigation?: boolean;
}

export interface CreatedStore {
  collection: StoreCollection;
  category: StoreCategory;
  addedToNavigation: boolean;
}

interface LayoutEntry {
  identifier?: unknown;
  links?: unknown;
}

/**
 * Seed order: collection, root category, then the navigation. The first two commit
 * together; the navigation step is separate, so a layout without a main navigation stops
 * only that step (MainNavigationMissingError carries what was created).
 */
export async function createStore(deps: StoreCreationDeps, request: CreateStoreRequest): Promise<CreatedStore> {
  const { collection, category } = await deps.store.transaction(async (repo) => {
    const existing = (await repo.listStoreCollections(request.websiteId)).map((c) => c.urlId);
    const title = request.title.trim();
    const collectionBody = checkCollectionBody({
      navigationTitle: title,
      title,
      urlId: storeUrlId(title, existing, request.fallbackTitle),
      description: request.description ?? '',
      enabled: true,
    });
    const created = await createCollection(deps, repo, request.websiteId, collectionBody);
    const displayName = [...title].slice(0, MAX_CATEGORY_LENGTH).join('');
    const root = await createRootCategory(deps, repo, request.websiteId, created.id, checkCategoryBody({ displayName, ...ROOT_CATEGORY }));
    return { collection: created, category: root };
  });
  if (!request.addToMainNavigation) return { collection, category, addedToNavigation: false };
  await deps.store.transaction(async (repo) => {
    const layout = (await repo.getSiteLayout(request.websiteId, { lock: true })) ?? [];
    const main = layout[0] as LayoutEntry | undefined;
    if (typeof main !== 'object' || main === null) throw new MainNavigationMissingError(collection, category);
    const links = Array.isArray(main.links) ? main.links : [];
    const link = { collectionId: collection.id, children: [], externalLink: null, memberAreaId: null };
    await repo.putSiteLayout(request.websiteId, [{ ...main, links: [...links, link] }, ...layout.slice(1)]);
  });
  return { collection, category, addedToNavigation: true };
}

import { Type } from '@sinclair/typebox';
import {
  EMPTY_SITE_FEATURES,
  FEATURE,
  FEATURE_DEFAULTS,
  FEATURE_NAME_PATTERN,
  MAX_FEATURES,
  MAX_VARIANT_LENGTH,
  effectiveToggles,
  mergeSiteFeatures,
  parseSiteFeatures,
  type SiteFeatures,
} from '../../../hydrate/shared/feature-toggles.ts';
import type { Repository } from '../../store/repository.ts';
import type { Site } from '../../store/types.ts';
import { requireSite } from '../context.ts';
import { ApiError } from '../errors.ts';
import { addRoute, type RouteKit } from '../route-kit.ts';

// Feature toggles and A/B tests per site (issue 18). The site folder's `site.json`
// `features` / `experiments` are the defaults; the admin's override (table site_features,
// migration 008-site-features) wins name by name. Pages carry the same configuration in
// `sf-context.experiments`; these routes serve it to scripts and to the admin panel.

/** What the site folder says, read on every call (a preview server swaps folders). */
export type FolderFeatures = () => SiteFeatures;

/** What each known toggle does, for the admin panel's labels. */
export const KNOWN_FEATURES: readonly { name: string; description: string }[] = [
  { name: FEATURE.bnpl, description: 'Buy-now-pay-later pill and its modal on product and cart pages.' },
  { name: FEATURE.quickView, description: 'Quick View button on shop cards.' },
  { name: FEATURE.sessionRecording, description: 'Session recording gate (with the commerce-activation-session-recording test).' },
];

const NAME = Type.String({ pattern: FEATURE_NAME_PATTERN });
const PUT_SCHEMA = {
  summary: "Admin: replace the site's stored feature toggles and A/B tests (merged over the site folder's).",
  body: Type.Object(
    {
      features: Type.Optional(Type.Record(NAME, Type.Boolean(), { maxProperties: MAX_FEATURES })),
      experiments: Type.Optional(
        Type.Record(
          NAME,
          Type.Object(
            {
              variant: Type.String({ minLength: 1, maxLength: MAX_VARIANT_LENGTH }),
              segmentName: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_VARIANT_LENGTH })),
            },
            { additionalProperties: false },
          ),
          { maxProperties: MAX_FEATURES },
        ),
      ),
    },
    { additionalProperties: false },
  ),
};

const invalidFeatures = () =>
  new ApiError(400, 'INVALID_FEATURES', `features is {name: true|false} and experiments {name: {variant, segmentName?}}; names match ${FEATURE_NAME_PATTERN}, at most ${MAX_FEATURES} each.`);

function stored(row: Site): SiteFeatures | null {
  return row.features ? { features: row.features.features, experiments: row.features.experiments } : null;
}

/** The public view: every toggle in force (defaults, folder, admin) and the tests served. */
function publicView(folder: SiteFeatures, row: Site) {
  const config = mergeSiteFeatures(folder, stored(row));
  return { features: effectiveToggles(config), experiments: config.experiments };
}

/** The admin view: what is in force, and where it comes from. */
function adminView(folder: SiteFeatures, row: Site) {
  return {
    ...publicView(folder, row),
    defaults: FEATURE_DEFAULTS,
    site: folder,
    stored: row.features ?? null,
    known: KNOWN_FEATURES,
  };
}

export function registerFeatureRoutes(kit: RouteKit, folderFeatures: FolderFeatures = () => EMPTY_SITE_FEATURES): void {
  const { deps } = kit;
  /** A write on the site row's features, in one transaction with the row it is keyed by. */
  const inSiteTransaction = <T>(work: (repo: Repository, row: Site) => Promise<T>): Promise<T> =>
    deps.store.transaction(async (repo) => {
      const row = await repo.getSite();
      if (!row) throw new ApiError(503, 'SITE_NOT_CONFIGURED', 'The site has not been set up.');
      return work(repo, row);
    });

  addRoute(kit, {
    method: 'GET',
    url: '/features',
    schema: { summary: "The site's feature toggles in force and its A/B tests (site folder, then the admin's override)." },
    handler: async () => publicView(folderFeatures(), await requireSite(deps)),
  });

  addRoute(kit, {
    method: 'GET',
    url: '/admin/features',
    admin: true,
    schema: { summary: 'Admin: toggles and tests in force, the defaults, the site folder’s and the stored override.' },
    handler: async () => adminView(folderFeatures(), await requireSite(deps)),
  });

  addRoute(kit, {
    method: 'PUT',
    url: '/admin/features',
    admin: true,
    schema: PUT_SCHEMA,
    invalid: invalidFeatures,
    handler: async (request) => {
      const { value, problems } = parseSiteFeatures(request.body);
      if (problems.length > 0) {
        throw new ApiError(400, 'INVALID_FEATURES', 'Some feature toggles or tests are invalid.', {
          errors: Object.fromEntries(problems.map((p) => [p.path, p.message])),
        });
      }
      return inSiteTransaction(async (repo, row) => adminView(folderFeatures(), { ...row, features: await repo.putSiteFeatures(row.websiteId, value, deps.now()) }));
    },
  });

  addRoute(kit, {
    method: 'DELETE',
    url: '/admin/features',
    admin: true,
    schema: { summary: "Admin: drop the stored override; the site folder's toggles apply again." },
    handler: async () =>
      inSiteTransaction(async (repo, row) => {
        await repo.deleteSiteFeatures(row.websiteId);
        return adminView(folderFeatures(), { ...row, features: null });
      }),
  });
}

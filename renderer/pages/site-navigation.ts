import type { ContentEntry, LoadedSite } from '../site/site-types.ts';
import { PAGE_TYPE } from './page-type-numbers.ts';

// The site's navigations (templates seed 001: "Hidden navigation is named _hidden; member-area
// navigation _memberareas"). A content file says where its page is linked with `navigation`:
//
//   absent / true   the main navigation (unless site.json lists the main links itself, or the
//                   page is a member area: those are linked only through `_memberareas`)
//   false           nowhere
//   "_hidden"       the hidden navigation: reachable by its URL (and in the sitemap), never linked
//   "_memberareas"  the member-area navigation: linked after the main links, for signed-in
//                   members only
//
// A link to a locked page carries the seed's hint: a password-protected page 'This page is
// locked', a member-area page 'This page available only site members' (the main navigation of
// site.json may name one; it is shown only to signed-in members too).

export const HIDDEN_NAVIGATION = '_hidden';
export const MEMBER_AREA_NAVIGATION = '_memberareas';

/** The seed's hints for a locked page (templates seed 001, section 6), verbatim. */
export const LOCK_HINTS = {
  locked: 'This page is locked',
  membersOnly: 'This page available only site members',
} as const;

type Json = Record<string, unknown>;

export interface NavigationLink {
  title: string;
  path: string;
  /** True for a member-area page: shown to signed-in members only. */
  memberArea?: true;
  /** The seed's hint when the linked page is locked (password or member area). */
  lockHint?: string;
}

export interface SiteNavigations {
  main: readonly NavigationLink[];
  /** `_hidden`: pages reachable by URL that no navigation shows. */
  hidden: readonly NavigationLink[];
  /** `_memberareas`: shown after the main links to signed-in members. */
  memberAreas: readonly NavigationLink[];
}

type Placement = 'main' | 'hidden' | 'memberAreas' | null;

function placement(entry: ContentEntry): Placement {
  if (entry.pageType === PAGE_TYPE.commerceEmailPreview) return null;
  const given = entry.data.navigation;
  if (given === false) return null;
  if (given === HIDDEN_NAVIGATION) return 'hidden';
  if (given === MEMBER_AREA_NAVIGATION) return 'memberAreas';
  return entry.memberArea ? null : 'main';
}

const entryPath = (entry: ContentEntry): string => (entry.home ? '/' : `/${entry.slug}`);

function decorate(link: { title: string; path: string }, byPath: ReadonlyMap<string, ContentEntry>): NavigationLink {
  const entry = byPath.get(link.path);
  if (entry?.memberArea) return { ...link, memberArea: true, lockHint: LOCK_HINTS.membersOnly };
  if (entry?.password) return { ...link, lockHint: LOCK_HINTS.locked };
  return { ...link };
}

const navigationsBySite = new WeakMap<LoadedSite, SiteNavigations>();

/** The three navigations of a loaded site, found once per site. */
export function siteNavigations(site: LoadedSite): SiteNavigations {
  let found = navigationsBySite.get(site);
  if (!found) {
    const byPath = new Map(site.entries.map((entry) => [entryPath(entry), entry]));
    const placed = (where: Placement) =>
      site.entries
        .filter((entry) => placement(entry) === where)
        .sort((a, b) => Number(b.home) - Number(a.home))
        .map((entry) => decorate({ title: entry.title, path: entryPath(entry) }, byPath));
    found = {
      main: site.config.navigation.length ? site.config.navigation.map((link) => decorate(link, byPath)) : placed('main'),
      hidden: placed('hidden'),
      memberAreas: placed('memberAreas'),
    };
    navigationsBySite.set(site, found);
  }
  return found;
}

/** The marked lists per site, member state and path: a bounded few per site. */
const markedBySite = new WeakMap<LoadedSite, Map<string, readonly Json[]>>();
const NAV_PATHS_KEPT = 256;

/**
 * The navigation a page shows: the main links (member-area ones only to a signed-in member),
 * then, for a signed-in member, the `_memberareas` links; the current page's link `active`.
 * Shared by requests, which only read it.
 */
export function navigation(site: LoadedSite, path: string, member: boolean): readonly Json[] {
  let marked = markedBySite.get(site);
  if (!marked) markedBySite.set(site, (marked = new Map()));
  const key = `${member ? 'm' : 'v'}${path}`;
  let links = marked.get(key);
  if (links === undefined) {
    const { main, memberAreas } = siteNavigations(site);
    const shown = member ? [...main, ...memberAreas.filter((link) => !main.some((m) => m.path === link.path))] : main.filter((link) => !link.memberArea);
    links = shown.map((link) => ({ ...link, active: link.path === path || (link.path !== '/' && path.startsWith(`${link.path}/`)) }));
    // Any path may be asked for (404s included): keep the most recent few.
    if (marked.size >= NAV_PATHS_KEPT) marked.delete(marked.keys().next().value as string);
    marked.set(key, links);
  }
  return links;
}

import type { Template } from '../../engine/index.ts';
import type { SeedData } from '../store/seed.ts';
import type { PlatformContext } from '../../hydrate/shared/platform-context.ts';
import type { SiteFeatures } from '../../hydrate/shared/feature-toggles.ts';

// The in-memory form of a site folder (renderer/README.md, "Site folder"). Everything here
// is built once by loadSite(); requests only read it.

/** A navigation link of `site.json`. */
export interface NavigationLink {
  title: string;
  path: string;
}

/** Presentation and renderer-only settings of `site.json`, with defaults filled in. */
export interface SiteConfig {
  title: string;
  /** Slug of the page served at `/` when no content file is marked `home`. */
  homePage: string | null;
  /** BCP 47 tag: `<html lang>`, `sf-context.websiteLocale`, the engine locale. */
  locale: string;
  templateId: string;
  /** 1: `/cart` is page type 200; 2: page type 205. */
  cartVersion: 1 | 2;
  /** Site-wide password (C1 type 103); `password` unlocks through the `sf_unlock` cookie. */
  lock: { enabled: boolean; password: string };
  /** ORed with the store's `trackingDisabled`. */
  trackingDisabled: boolean;
  /**
   * `sf-context.platform` of every page (hydrate/platform/): `site.json` `platform` over
   * all three clients on; `false` = no member. Pages skipped as tracking-disabled get none.
   */
  platform: PlatformContext | null;
  navigation: NavigationLink[];
  /** C6 reviews: shown when the kill switch is off and one of these is on. */
  reviews: { nativeEnabled: boolean; importedEnabled: boolean };
  /** A5 context; null = no buy-now-pay-later anywhere. */
  bnpl: { afterPayAvailable: boolean; afterPayMin: number; afterPayMax: number; stripeAccountCountry: string; shopperLanguage: string } | null;
  /**
   * Deprecated: the minimum order subtotal is the store's rule, catalog.json
   * `site.settings.commerce.minimumOrderSubtotalCents`. site.json's key (null: not set) still
   * applies when the catalogue sets none: `siteSeed` folds it into the store's rules.
   */
  minimumOrderSubtotalCents: number | null;
  /**
   * Feature toggles and A/B tests of `site.json` `features` / `experiments` (issue 18); the
   * admin's stored override wins name by name (`GET/PUT /api/admin/features`).
   */
  features: SiteFeatures;
  /** Feature flags the store does not hold (videoPaywall, vanillaFormHandler, …); store flags win. */
  flags: Record<string, boolean>;
  /** Merged over the built-in English strings (`localizedStrings` of the template context). */
  localizedStrings: Record<string, string>;
  /** Everything else of `site.json`, passed to templates as `website.*`. */
  extra: Record<string, unknown>;
}

export type BlockType = 'html' | 'markdown' | 'image' | 'form' | 'newsletter' | 'product' | 'account' | 'button';

/** One content block of a page or item; unknown types render nothing and are reported. */
export interface Block {
  type: string;
  [key: string]: unknown;
}

/** An item of a non-product collection (blog post, event, gallery image …), inline in its file. */
export interface ContentItem {
  id: string;
  slug: string;
  title: string;
  blocks: Block[];
  /** Every field of the file, as written. */
  data: Record<string, unknown>;
}

export type ContentKind = 'page' | 'collection' | 'cover';

/** One file of `content/`: a page, a cover page or a collection with its items. */
export interface ContentEntry {
  file: string;
  id: string;
  kind: ContentKind;
  slug: string;
  title: string;
  /** 1 (collection), 2 (page), 3 (cover) or a special type (203 …) given by the file. */
  pageType: number;
  /** Template name override (without `.jsont`). */
  template: string | null;
  home: boolean;
  /** Page password (type 105), or null. */
  password: string | null;
  memberArea: boolean;
  videoPaywall: boolean;
  /** `blog`, `events`, `gallery`, `products`, … (collections only). */
  collectionType: string | null;
  blocks: Block[];
  items: ContentItem[];
  data: Record<string, unknown>;
}

export interface CompiledTemplate {
  /** Name without extension, e.g. `products.item`. */
  name: string;
  /** Path relative to the site folder, used in diagnostics. */
  file: string;
  hash: string;
  template: Template;
}

export interface LoadedSite {
  dir: string;
  config: SiteConfig;
  /** `catalog.json`, the store seed; null when the folder has none. */
  catalog: SeedData | null;
  entries: ContentEntry[];
  bySlug: ReadonlyMap<string, ContentEntry>;
  home: ContentEntry | null;
  /** Site templates by name (`page`, `blog.list`, `layout`, …). */
  templates: ReadonlyMap<string, CompiledTemplate>;
  /** Partial sources by name, for `{x|apply name}`; the renderer's own `sf-*` partials included. */
  partials: Readonly<Record<string, string>>;
  /** `styles.css` then `styles/*.css` of the folder; pages link it (`pages/site-stylesheet.ts`). */
  stylesheet: string;
  /** Content hash of every file read. */
  hash: string;
  /** Template syntax problems kept when loading with `allowTemplateErrors`. */
  problems: SiteProblem[];
}

export type SiteLoadErrorCode =
  | 'SITE_NOT_FOUND'
  | 'SITE_READ_FAILED'
  | 'SITE_JSON_INVALID'
  | 'SITE_SCHEMA_INVALID'
  | 'SITE_DUPLICATE_PATH'
  | 'SITE_DUPLICATE_ID'
  | 'SITE_VALUE_INVALID'
  | 'SITE_LIMIT_EXCEEDED'
  | 'TEMPLATE_SYNTAX';

export interface SiteProblem {
  code: SiteLoadErrorCode;
  /** Path relative to the site folder. */
  file: string;
  line: number;
  column: number;
  message: string;
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Diagnostic } from '../../engine/index.ts';
import { ensureCrumbCookie, type ApiDeps } from '../api/context.ts';
import { isStoreUnreachable } from '../api/http.ts';
import type { LoadedSite } from '../site/site-types.ts';
import { BUILTIN_PARTIALS } from '../site/builtin-templates.ts';
import { sendErrorPage, send, writeDocument } from './document-writer.ts';
import { baseContext, NotFound, PageJob, type Json, type PageReads, type Resolved } from './page-context.ts';
import { PageRedirect } from './page-types/page-kind.ts';
import { pageKindOf } from './page-types/table.ts';
import { lockScreenPage, notFoundResolved } from './page-types/site-states.ts';
import { pathOf, resolveRoute } from './route-resolver.ts';
import { endOfTurn } from './turn-batching.ts';
import { signedInUser } from './signed-in-user.ts';
import type { Member } from './tracking.ts';
import { isUnlocked, screenCookies, unlockSecret, visitorSession } from './visitor.ts';

// A page request: the site, its row and the visitor, then the page-type table's entry for
// the URL loads the page's data (page-types/), and the document writer renders it.

export type { PageReads } from './page-context.ts';

/** What a page render leaves on the request, for the author-preview overlay and logs. */
export interface QuirePageInfo {
  pageType: number;
  /** Name of the template used (`products.item`, `builtin:not-found`, …). */
  templateName: string;
  /** Engine diagnostics of this render, each naming its template or partial source. */
  diagnostics: Diagnostic[];
  /** Problems of the site content found while rendering (unknown block, missing form …). */
  problems: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    quirePage?: QuirePageInfo;
  }
}

export type SiteSource = LoadedSite | (() => LoadedSite);
export type ResolveMember = (request: FastifyRequest) => Member | null | Promise<Member | null>;

export interface PageRendererOptions {
  deps: ApiDeps;
  site: SiteSource;
  resolveMember?: ResolveMember;
  /** Default: `deps.store.read`, uncached. */
  reads?: PageReads;
}

export function createPageRenderer(options: PageRendererOptions) {
  const { deps } = options;
  const reads = options.reads ?? deps.store.read;
  const getSite = typeof options.site === 'function' ? options.site : () => options.site as LoadedSite;
  const resolveMember = options.resolveMember ?? null;

  /** The member behind a request; a failing lookup must not take the page down: the visitor is treated as no member. */
  function memberOf(request: FastifyRequest): Promise<Member | null> {
    return Promise.resolve()
      .then(() => resolveMember!(request))
      .catch((error: unknown) => {
        request.log.warn({ err: error }, 'resolveMember failed');
        return null;
      });
  }

  async function render(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    let site: LoadedSite | null = null;
    let trackingDisabled = false;
    // Render after every request of this turn has been read, one after another (turn-batching.ts).
    await endOfTurn();
    try {
      site = getSite();
      trackingDisabled = site.config.trackingDisabled;
      screenCookies(request);
      // A visitor without a session cookie has no session to look up, nor a promise to wait for.
      const siteRow = reads.getSite();
      const visitor = visitorSession(deps, request, reply);
      const [row, session] = visitor instanceof Promise ? await Promise.all([siteRow, visitor]) : [await siteRow, visitor];
      if (!row) throw new Error('the store has no site row; seed it first');
      trackingDisabled ||= row.settings.trackingDisabled;
      ensureCrumbCookie(request, reply);
      // The header's signed-in member (issue 16), looked up while the member lookup runs.
      const siteUser = session ? signedInUser(deps, session) : null;
      // Without a member directory (`npm start`) every visitor is no member, with no promise to wait for.
      const member = resolveMember === null ? null : await memberOf(request);
      const job = new PageJob(deps, reads, site, row, request, reply, session);
      const path = pathOf(request.url);
      // A page's own POST form (pages/index.ts: the order status look-up) is read like a query,
      // so what it sends (an email) never has to travel in the URL.
      const query = ((request.method === 'POST' ? request.body : request.query) ?? {}) as Json;
      const ctx = baseContext(job, path);
      if (siteUser) ctx.siteUser = await siteUser;

      let resolved: Resolved;
      if (site.config.lock.enabled && !isUnlocked(request, await unlockSecret(deps), row.websiteId, 'site', site.config.lock.password)) {
        resolved = await lockScreenPage.load({ job, route: { kind: 'lock-screen' }, ctx, path, query });
      } else {
        try {
          const route = resolveRoute(site, path);
          resolved = await pageKindOf(route).load({ job, route, ctx, path, query });
        } catch (error) {
          if (error instanceof PageRedirect) return reply.code(error.status).header('location', error.location).header('cache-control', 'no-store').send();
          if (!(error instanceof NotFound)) throw error;
          resolved = notFoundResolved();
        }
      }

      // Awaited even when it has nothing to wait for: the turn's pages then go out after the
      // turn's renders, not a socket write between two of them. Sent in the same microtask as
      // its render, a page cost ~9% more server CPU (bench/README.md, "HTTP path, 2026-12-03").
      const { html, template: chosen } = await writeDocument(job, ctx, resolved, path, { trackingDisabled, member });
      request.quirePage = { pageType: resolved.pageType, templateName: chosen.name, diagnostics: job.diagnostics, problems: job.problems };
      if (job.diagnostics.length || job.problems.length) {
        // The page's path (never its query, which may carry a visitor's values) and each file as
        // `quire check` names it (`partials/post-meta.jsont`, not the engine's key `post-meta`),
        // so the log line leads to the page and the file to open.
        const file = (source: string) => (!source.includes('/') && Object.hasOwn(job.site.partials, source) && !Object.hasOwn(BUILTIN_PARTIALS, source) ? `partials/${source}.jsont` : source);
        request.log.warn({ path, pageType: resolved.pageType, template: chosen.file, diagnostics: job.diagnostics.map((d) => `${file(d.source)}:${d.line}:${d.column} ${d.code}: ${d.message}`), problems: job.problems }, 'page rendered with template diagnostics');
      }
      return send(reply, resolved.status, html);
    } catch (error) {
      request.log.error({ err: error }, 'page render failed');
      // The database is down or restarting: 503 with Retry-After, so a crawler keeps the page and
      // a load balancer or uptime check sees an outage, not a broken page.
      if (!isStoreUnreachable(error)) return sendErrorPage(request, reply, site, trackingDisabled);
      reply.header('retry-after', '5');
      return sendErrorPage(request, reply, site, trackingDisabled, 503);
    }
  }

  return { render, getSite, reads };
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CompiledTemplate, LoadedSite } from '../site/site-types.ts';
import { ERROR_PAGE_BODY } from '../site/builtin-templates.ts';
import { DEFAULT_PROPS_LIMITS } from '../../hydrate/protocol/props.ts';
import { documentBytes, releaseDocument } from './document-bytes.ts';
import { MAIN_MARK, printsMainPlainly, spliceMain } from './main-splice.ts';
import { propsText, type Json, type PageJob, type Resolved } from './page-context.ts';
import { PAGE_TYPE } from './page-type-numbers.ts';
import { overlayAt, renderOverlay } from './page-types/popup-overlay.ts';
import { pathOf, templateNames } from './route-resolver.ts';
import { renderShell, rendererCss, shellFrame, shellStyle } from './shell.ts';
import { siteStylesheet } from './site-stylesheet.ts';
import { builtinTemplate, headTemplate, pickTemplate } from './template-choice.ts';
import { PILL_CART_HTML, showsPillCart, skipPageView, type Member } from './tracking.ts';

// The document writer: a loaded page (its context and `Resolved`) → the HTML document's
// bytes: the page type's template inside the layout, the head partial, the popup overlay,
// the shell frame with sf-context, and the site's styles.

/**
 * The head's styles of a site in a currency: the renderer's own few rules inline (the add
 * button must stay hidden until the cart is ready, before any stylesheet arrives), then the
 * link to the site's stylesheet. UTF-8 encoded once per loaded site and currency.
 */
const styleCache = new WeakMap<LoadedSite, Map<string, Buffer>>();
function pageStyle(site: LoadedSite, currency: string): Buffer {
  let bySite = styleCache.get(site);
  if (!bySite) styleCache.set(site, (bySite = new Map()));
  let style = bySite.get(currency);
  if (style === undefined) {
    const sheet = siteStylesheet(site);
    const link = sheet ? `<link rel="stylesheet" href="${sheet.href}">\n` : '';
    bySite.set(currency, (style = Buffer.from(shellStyle(rendererCss(currency)) + link)));
  }
  return style;
}

/** sf-context (A0.1) as JSON text; `{}` if any member cannot be serialized (a renderer bug). */
function sfContextJson(job: PageJob, resolved: Resolved, skip: string | null, path: string): string {
  const constant = job.shared.context;
  const trackingRest = constant.trackingRest;
  // The page's own members, serialized in one call: `"pageType":…,"pageId":…,…`.
  const page = propsText({
    pageType: resolved.pageType,
    pageId: resolved.pageId,
    pageTitle: resolved.pageTitle,
    pagePath: path,
    collectionId: resolved.collectionId,
    itemId: resolved.itemId,
    recordType: resolved.recordType,
  });
  if (page === null) return '{}';
  // Members in A0.1 order, written straight into the text (the site's, serialized once per
  // site and row, as they are); a null text is a member that could not be serialized.
  const tracking = trackingRest && `{"skipPageView":${skip === null ? 'null' : propsText(skip)},${trackingRest.slice(1)}`;
  const platform = job.site.config.platform && skip !== 'tracking-disabled' ? constant.platform : '';
  const siteUser = job.session ? propsText({ authenticated: true, siteUserId: job.session.siteUserId, xsrfToken: job.session.xsrfToken }) : 'null';
  const products = job.contextProductsJson();
  const order = resolved.order === null ? 'null' : propsText(resolved.order);
  if (
    constant.websiteId === null || constant.templateId === null || constant.websiteLocale === null || constant.store === null ||
    constant.captcha === null || constant.flags === null || tracking === null || platform === null || siteUser === null ||
    constant.bnpl === null || products === null || order === null || constant.experiments === null
  ) {
    return '{}';
  }
  const json =
    `{"websiteId":${constant.websiteId},"templateId":${constant.templateId},${page.slice(1, -1)},` +
    `"websiteLocale":${constant.websiteLocale},"store":${constant.store},"captcha":${constant.captcha},"flags":${constant.flags},"tracking":${tracking},` +
    // A site that disables tracking loads no platform client at all, performance included.
    (platform === '' ? '' : `"platform":${platform},`) +
    `"siteUser":${siteUser},"bnpl":${constant.bnpl},"products":${products},"order":${order},"experiments":${constant.experiments}}`;
  return json.length > DEFAULT_PROPS_LIMITS.maxChars ? '{}' : json;
}

/** What a page type's template, the layout and the shell made of a loaded page. */
export interface WrittenPage {
  html: Buffer;
  /** The template of the page type (for `request.quirePage` and logs). */
  template: CompiledTemplate;
}

/** Renders a loaded page into its document (the page's own diagnostics land on `job`). */
export async function writeDocument(job: PageJob, ctx: Json, resolved: Resolved, path: string, visitor: { trackingDisabled: boolean; member: Member | null }): Promise<WrittenPage> {
  const { site, row } = job;
  ctx.pageType = resolved.pageType;
  ctx.pageTitle = resolved.pageTitle;

  const options = job.renderOptions();
  const chosen = pickTemplate(site, templateNames(resolved.pageType, resolved.entry));
  const main = chosen.template.render(ctx, options);
  job.diagnostics.push(...main.errors);
  const layout = site.templates.get('layout') ?? builtinTemplate('layout')!;
  // The page's parts go where the layout prints a mark, each encoded on its own (main-splice.ts).
  const marked = main.html.length > 0 && printsMainPlainly(layout.template);
  ctx.mainContent = marked ? MAIN_MARK : main.html;
  let page = layout.template.render(ctx, options);
  let body = marked ? spliceMain(page, main) : page.parts;
  if (body === null) {
    ctx.mainContent = main.html;
    page = layout.template.render(ctx, options);
    body = page.parts;
  }
  ctx.mainContent = main.html;
  job.diagnostics.push(...page.errors);
  // `partials/head.jsont`: the site's head tags (description, favicon, fonts), with the page context.
  let head = '';
  const headPartial = headTemplate(site);
  if (headPartial) {
    const rendered = headPartial.render(ctx, options);
    job.diagnostics.push(...rendered.errors);
    head = rendered.html.trim();
  }

  const overlay = showsPillCart(resolved.pageType, { expressCheckout: false, customCart: false }) && overlayAt(job, path) !== null ? await renderOverlay(job, ctx, options, path) : '';
  const skip = skipPageView({ trackingDisabled: visitor.trackingDisabled, member: visitor.member, pageType: resolved.pageType, path, videoPaywall: resolved.videoPaywall });
  const store = { expressCheckout: row.settings.expressCheckout, customCart: row.settings.customCart };
  const frame = shellFrame({
    locale: site.config.locale,
    title: resolved.pageTitle === site.config.title ? site.config.title : `${resolved.pageTitle} — ${site.config.title}`,
    pageType: resolved.pageType,
    pillCart: showsPillCart(resolved.pageType, store) ? PILL_CART_HTML : '',
    context: sfContextJson(job, resolved, skip, path),
    captchaLocal: row.settings.captcha.siteKey !== null && row.settings.captcha.provider === 'local',
    head,
  });
  return { html: documentBytes(frame, pageStyle(site, job.currency), overlay === '' ? body : [...body, overlay]), template: chosen };
}

export function send(reply: FastifyReply, status: number, html: string | Buffer): FastifyReply {
  // Written by the socket once the response has finished: its slab may be written again
  // (document-bytes.ts). Not on 'close': an aborted response may still be in a pending write.
  if (typeof html !== 'string') reply.raw.once('finish', () => releaseDocument(html));
  // A Buffer: a string body would be scanned for its byte length, then encoded again on write.
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(typeof html === 'string' ? Buffer.from(html) : html);
}

/** C1 type 101: no site template, no data; only what cannot fail. */
export function sendErrorPage(request: FastifyRequest, reply: FastifyReply, site: LoadedSite | null, trackingDisabled: boolean, status = 500): FastifyReply {
  const locale = site?.config.locale ?? 'en-US';
  request.quirePage = { pageType: PAGE_TYPE.error, templateName: 'builtin:error', diagnostics: [], problems: [] };
  const html = renderShell({
    locale,
    title: site ? `Error — ${site.config.title}` : 'Error',
    pageType: PAGE_TYPE.error,
    css: rendererCss('USD'),
    body: ERROR_PAGE_BODY,
    pillCart: '',
    context: {
      pageType: PAGE_TYPE.error,
      pagePath: pathOf(request.url),
      websiteLocale: locale,
      tracking: { skipPageView: trackingDisabled ? 'tracking-disabled' : 'error' },
    },
    captchaLocal: false,
  });
  return send(reply, status, html);
}

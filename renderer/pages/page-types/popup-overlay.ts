import type { RenderOptions } from '../../../engine/index.ts';
import type { Block } from '../../site/site-types.ts';
import { NotFound, renderContentBlocks, type Json, type PageJob } from '../page-context.ts';
import { PAGE_TYPE } from '../page-type-numbers.ts';
import { pickTemplate } from '../template-choice.ts';
import { pageKind } from './page-kind.ts';

/** How long a popup overlay waits before it shows when `site.json` names no `delaySeconds`. */
const OVERLAY_DEFAULT_DELAY_MS = 5000;

/** C1 type 104: no URL of its own; rendered into the content pages by renderOverlay. */
export const popupOverlayPage = pageKind<{ kind: 'popup-overlay' }>({
  name: 'popup overlay',
  kinds: [],
  templates: { [PAGE_TYPE.popupOverlay]: ['popup-overlay'] },
  context: ['overlay'],
  load: () => Promise.reject(new NotFound()),
});

/** The site's overlay when it is enabled and shown at `path`, else null (nothing to render or wait for). */
export function overlayAt(job: PageJob, path: string): Json | null {
  const raw = job.site.config.extra.overlay;
  if (typeof raw !== 'object' || raw === null || (raw as Json).enabled !== true) return null;
  const overlay = raw as Json;
  return Array.isArray(overlay.paths) && !overlay.paths.includes(path) ? null : overlay;
}

/**
 * C1 type 104: a site with an enabled overlay (`site.json` `overlay: {enabled, id, title,
 * version, delaySeconds, paths, blocks}`) gets it rendered into its content pages (those
 * in `paths` when it is a list), hidden until the client shows it
 * (hydrate/islands/popup-overlay.ts: after the delay, unless closed at this version or
 * submitted).
 */
export async function renderOverlay(job: PageJob, ctx: Json, options: RenderOptions, path: string): Promise<string> {
  const overlay = overlayAt(job, path);
  if (overlay === null) return '';
  const blocks = Array.isArray(overlay.blocks) ? (overlay.blocks.filter((b) => typeof b === 'object' && b !== null && typeof (b as Json).type === 'string') as Block[]) : [];
  const title = typeof overlay.title === 'string' ? overlay.title : '';
  const version = typeof overlay.version === 'string' || typeof overlay.version === 'number' ? String(overlay.version) : '1';
  const seconds = overlay.delaySeconds;
  // A delay that is not a number of seconds up to an hour falls back to the default.
  const delayMs = typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 && seconds <= 3600 ? Math.round(seconds * 1000) : OVERLAY_DEFAULT_DELAY_MS;
  ctx.overlay = {
    ...overlay,
    id: typeof overlay.id === 'string' ? overlay.id : 'overlay',
    // The dialog's accessible name: its title, or a generic one when it has none.
    label: title || 'Pop-up',
    version,
    delayMs,
    blocksHtml: await renderContentBlocks(job, ctx, 'c', blocks),
  };
  const template = pickTemplate(job.site, popupOverlayPage.templates[PAGE_TYPE.popupOverlay]!);
  const result = template.template.render(ctx, options);
  job.diagnostics.push(...result.errors);
  return result.html;
}

import { createExperiments, type Experiments } from '../platform/experiments.ts';
import { FEATURE_DEFAULTS } from '../shared/feature-toggles.ts';
import type { PageContext } from './page-context.ts';

/** One experiments client per page context (the definitions never change during a page's life). */
const clients = new WeakMap<PageContext, Experiments>();

/** Warnings of a page's own toggles go nowhere: an unknown toggle is simply off. */
const quiet = () => undefined;

/**
 * Whether a feature toggle is on for this page (seed §4: its variant is the string `true`;
 * any error is off). A page whose context carries no definitions at all (older cached pages,
 * hand-written test pages) keeps the built-in defaults rather than losing every feature.
 */
export function featureOn(context: PageContext, name: string): boolean {
  if (context.experiments === null) return FEATURE_DEFAULTS[name] === true;
  let client = clients.get(context);
  if (!client) {
    client = createExperiments({ definitions: context.experiments, websiteStatus: null, internalUser: false, warn: quiet });
    clients.set(context, client);
  }
  return client.isFeatureEnabled(name).enabled;
}

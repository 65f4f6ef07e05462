import { PAGE_VIEW_EVENT, type PlatformContext } from '../shared/platform-context.ts';
import { withoutResetToken } from '../shared/reset-link.ts';
import { isRestricted } from '../runtime/analytics.ts';
import { errorMessage } from '../runtime/error-reporter.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { matchingParentDomain, resolveAnalyticsId } from './analytics-id.ts';
import { createClankerTracker, type ClankerTracker } from './clanker-tracker.ts';
import { createExperiments, type Experiments } from './experiments.ts';
import { createLegacyTracker, type LegacyPayload, type LegacyTracker } from './legacy-tracker.ts';
import type { PerformanceRecordsHandle, PerformanceRecordsOptions } from './performance-records.ts';
import { consoleWarn, type Warn } from './platform-messages.ts';
import { resolveSessionRecord, type SessionRecord } from './session-record.ts';
import { checkSessionRecording, type SessionRecordingState } from './session-recording.ts';
import { createStorageAccess } from './storage-access.ts';

export interface PlatformHandle {
  experiments: Experiments;
  legacy: LegacyTracker;
  clanker: ClankerTracker;
  analyticsId(): string;
  session(): SessionRecord;
  /** The session-recording gate (feature toggle, experiment, cores) and, when open, the id call. */
  sessionRecording: Promise<SessionRecordingState>;
  /** Settles once the page view calls are sent and the performance chunk is started. */
  ready: Promise<void>;
  stop(): void;
}

export interface PlatformSeams {
  warn?: Warn;
  observer?: PerformanceRecordsOptions['observer'];
  performance?: PerformanceRecordsOptions['performance'];
}

/** Seed §3 legacy payload of this page. */
export function legacyPayload(runtime: Runtime, platform: PlatformContext): LegacyPayload {
  const { context, win } = runtime;
  return {
    websiteId: context.websiteId || null,
    memberAccountId: platform.memberAccountId,
    website_locale: context.websiteLocale,
    member_locale: platform.memberLocale,
    templateId: context.templateId || null,
    variantId: platform.variantId,
    // A reset link's token rides in the fragment: it stays on the page (hydrate/shared/reset-link.ts).
    pageHash: withoutResetToken(win.location.hash),
    pagePath: context.pagePath || win.location.pathname,
  };
}

/**
 * Starts the platform runtime of one page: both trackers' page views (only when A12 would
 * send a page view too, i.e. `tracking.skipPageView` is null) and the performance records,
 * whose code is a separate chunk loaded only when the page asks for it.
 */
export function startPlatform(runtime: Runtime, platform: PlatformContext, seams: PlatformSeams = {}): PlatformHandle {
  const { doc, win, context, reporter } = runtime;
  const warn = seams.warn ?? consoleWarn;
  const storage = createStorageAccess(win, warn);
  const restricted = isRestricted(context, doc);
  const randomUuid = () => ((win as Window & { crypto?: Crypto }).crypto ?? globalThis.crypto).randomUUID();
  const memory = { id: null as string | null };
  let session: SessionRecord | null = null;

  const analyticsId = () =>
    resolveAnalyticsId({ doc, storage, now: Date.now(), memory, restricted, platformDomains: platform.platformDomains, randomUuid, warn });
  const sessionRecord = () =>
    (session ??= resolveSessionRecord({
      doc,
      storage,
      restricted,
      cookieDomain: matchingParentDomain(win.location.hostname, platform.platformDomains),
      randomUuid,
    }));

  const experiments = createExperiments({
    // The site's toggles and tests (sf-context.experiments, issue 18) drive the session-recording
    // gate; `platform.experiments` is the older per-page spelling, read when the page has none.
    definitions: context.experiments ?? platform.experiments,
    websiteStatus: platform.websiteStatus,
    internalUser: platform.internalUser,
    search: win.location.search,
    warn,
  });
  const legacy = createLegacyTracker({ doc, warn });
  const clanker = createClankerTracker(
    {
      environment: platform.environment,
      hosts: platform.eventsHosts,
      clientName: platform.clientName,
      clientVersion: platform.clientVersion,
      transport: platform.clankerTransport,
      validate: platform.clankerValidate,
    },
    {
      doc,
      page: {
        websiteId: context.websiteId || null,
        websiteLocale: context.websiteLocale,
        memberAccountId: platform.memberAccountId,
        memberAccountLocale: platform.memberLocale,
        resolvedLocale: null,
      },
      analyticsId,
      sessionId: () => sessionRecord().sessionId,
      warn,
    },
  );

  const tasks: Array<Promise<unknown>> = [];
  if (context.tracking.skipPageView === null) {
    if (platform.legacyTracking) {
      tasks.push(
        legacy.recordEvent(PAGE_VIEW_EVENT, legacyPayload(runtime, platform)).catch((err) => {
          reporter.reportError('legacy_tracking', { message: errorMessage(err) });
        }),
      );
    }
    if (platform.clankerTracking) {
      const { isFirstLanding, isFirstSession } = sessionRecord();
      tasks.push(
        clanker.track(PAGE_VIEW_EVENT, { is_first_landing: isFirstLanding, is_first_session: isFirstSession, page_title: doc.title }).catch((err) => {
          reporter.reportError('clanker_tracking', { message: errorMessage(err) });
        }),
      );
    }
  }

  const sessionRecording = checkSessionRecording(runtime.client, experiments, win.navigator?.hardwareConcurrency).catch((err: unknown) => {
    reporter.reportError('session_recording', { message: errorMessage(err) });
    return { state: 'off' } as const;
  });
  tasks.push(sessionRecording);

  let performance: PerformanceRecordsHandle | null = null;
  let stopped = false;
  if (platform.performance) {
    tasks.push(
      import('./performance-records.ts')
        .then(({ startPerformanceRecords }) => {
          if (stopped) return;
          performance = startPerformanceRecords({
            doc,
            client: runtime.client,
            reporter,
            pagePath: context.pagePath || win.location.pathname,
            observer: seams.observer,
            performance: seams.performance,
          });
        })
        .catch((err: unknown) => reporter.reportError('platform_load', { kind: 'performance', message: errorMessage(err) })),
    );
  }

  return {
    experiments,
    legacy,
    clanker,
    analyticsId,
    session: sessionRecord,
    sessionRecording,
    ready: Promise.all(tasks).then(() => undefined),
    stop() {
      stopped = true;
      performance?.stop();
    },
  };
}

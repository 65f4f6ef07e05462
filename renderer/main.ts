/**
 * `npm start`: serves a site folder (default `fixtures/sites/demo`) with the storefront API.
 *
 *   HOST (127.0.0.1), PORT (3000), DATA_DIR (./data, embedded PGlite), DATABASE_URL
 *   (postgres://… selects PostgreSQL), SITE_DIR, TRUST_PROXY, the connection limits
 *   (MAX_CONNECTIONS …, README "Limits"), SMTP_URL / MAIL_FROM / MAIL_* (mail/README.md);
 *   ADMIN_TOKEN, ADMIN_EMAIL / ADMIN_PASSWORD (the first admin owner, admin/first-owner.ts);
 *   flags `--workers N`, `--site DIR`.
 *
 * The store is created and migrated, and the site's `catalog.json` is synced into it on every
 * start (store/site-sync.ts: owner content from the folder, visitor data kept).
 * The islands bundle (dist/assets) is built when it is missing or its sources changed.
 */
import { spawn } from 'node:child_process';
import cluster from 'node:cluster';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ensureAssets as ensureAssetsBuilt } from './asset-bundle.ts';
import { ensureFirstOwner, firstOwnerLines, OwnerSettingsError, type FirstOwnerResult } from './admin/first-owner.ts';
import { createOutboxWorker, mailSettingsFromEnv, MailSettingsError, transportFor } from './mail/outbox-worker.ts';
import { limitedServerFactory } from './connection-limits.ts';
import { loadSite, SiteLoadError, siteLoadFailure, siteSeed } from './site/load-site.ts';
import { quireCommand } from './preview/start-command.ts';
import { findingLines, validateSiteFiles } from './site/validate-site-files.ts';
import { templateFallbacks } from './pages/template-fallbacks.ts';
import type { LoadedSite } from './site/site-types.ts';
import { syncSiteContent, syncSummary, type SyncResult } from './store/site-sync.ts';
import { ensureClusterSnapshot, ensureSiteSnapshot, seedSnapshotKey, type SnapshotUsed } from './store/cluster-cache.ts';
import type { SeedData } from './store/seed.ts';
import { openStore, StoreError } from './store/store.ts';
import { startNotes } from './start-notes.ts';
import { fastifyTrustProxy, parseStartArgs, resolveTypedPaths, shownSiteDir, StartOptionsError, TRUST_PROXY_TRUE_NOTE, typedFrom, type StartOptions } from './start-options.ts';
import { startPhase, startTracing } from './start-trace.ts';
import { preloadLocaleData } from './start-warmup.ts';

startPhase('import');

/** The project folder: the nearest one above this file with a package.json (this file runs from `renderer/` under tsx, or from the `dist/server/` bundle of `bin/start.mjs`). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

const root = projectRoot();

function fail(message: string): never {
  console.error(`quire: ${message}`);
  process.exit(2);
}

async function loadSiteOrFail(dir: string): Promise<LoadedSite> {
  try {
    return await loadSite(dir);
  } catch (error) {
    if (error instanceof SiteLoadError) fail(siteLoadFailure(error.problems, shownSiteDir(dir, process.env, root), quireCommand(typedFrom(process.env) ?? process.cwd())));
    throw error;
  }
}

const usesPostgres = (url: string | undefined): boolean => !!url && /^postgres(ql)?:\/\//.test(url);

/**
 * Builds the islands bundle in a child process (the renderer may not import the build
 * script). It runs beside the database start-up rather than before it, so the first page
 * is served sooner; pages rendered before it finishes simply hydrate on the next load.
 */
function ensureAssets(assetsDir: string): Promise<void> {
  // Rebuilt when any input changed since the last build (asset-bundle.ts), as the server bundle is.
  return ensureAssetsBuilt(assetsDir, root, () => buildAssets(assetsDir));
}

function buildAssets(assetsDir: string): Promise<void> {
  console.log('quire: building the islands bundle (dist/assets) …');
  // The build script is TypeScript; this process may be the plain-JS bundle, so load tsx explicitly.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'hydrate', 'build.ts'), assetsDir], { stdio: ['ignore', 'ignore', 'inherit'], cwd: root });
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      if (code === 0) console.log('quire: islands bundle built');
      else console.error('quire: the islands bundle could not be built; pages render without interactivity');
      resolve();
    });
  });
}

/**
 * `node bin/start.mjs --prepare` (package.json postinstall, so `npm ci` runs it): does once
 * per machine what would otherwise make the first start slow, then exits. It makes the
 * PGlite cluster snapshot a new DATA_DIR starts from (store/cluster-cache.ts) and the islands
 * bundle; bin/start.mjs has built the server bundle. Never fails: whatever it could not make
 * is made by the first start.
 */
async function prepare(): Promise<void> {
  const assetsDir = path.join(root, 'dist', 'assets');
  const [snapshot] = await Promise.all([ensureClusterSnapshot().catch(() => null), ensureAssets(assetsDir)]);
  console.log(snapshot ? `quire: embedded database snapshot ready (${path.relative(root, snapshot)})` : 'quire: no embedded database snapshot (the first start makes one)');
  if (snapshot) {
    const site = await prepareSiteSnapshot().catch(() => null);
    if (site) console.log(`quire: the store of ${site} prepared (its catalogue synced)`);
  }
}

/**
 * The snapshot of the site `npm start` serves (SITE_DIR, else the demo) with its catalogue
 * synced (store/cluster-cache.ts ensureSiteSnapshot): its first start on a new DATA_DIR then
 * skips inserting the catalogue. Null when the site cannot be read or the snapshot made.
 */
async function prepareSiteSnapshot(): Promise<string | null> {
  const options = parseStartArgs([], process.env, root);
  const seed = siteSeed(await loadSite(options.siteDir));
  const made = await ensureSiteSnapshot(seedSnapshotKey(seed), (client) => syncSiteContent(client, seed));
  return made ? path.relative(root, options.siteDir) || options.siteDir : null;
}

/** The process's open-file limit (Linux /proc; Node raises the soft limit to the hard one at start), or null. */
function openFileLimit(): number | null {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** A listen failure an operator can fix, as one line (no stack); null for anything else. */
function listenProblem(error: unknown, options: StartOptions): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = `port ${options.port} on ${options.host}`;
  if (code === 'EADDRINUSE') return `${where} is already in use (set PORT)`;
  if (code === 'EACCES') return `${where} needs privileges this process lacks (set PORT above 1023)`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return `${options.host} is not an address of this machine (set HOST)`;
  return null;
}

/**
 * Checks before the slow start-up (database, bundle) that the address can be listened on, so
 * a port in use is one line at once, and with `--workers` not a crash loop of every worker.
 */
function checkListen(options: StartOptions): Promise<void> {
  if (options.port === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (error) => {
      const problem = listenProblem(error, options);
      if (problem) fail(problem);
      // Anything else is left to the real listen, which reports it.
      resolve();
    });
    probe.listen({ host: options.host, port: options.port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/**
 * The site content sync's log line (store/site-sync.ts). With `--workers` the primary syncs
 * first, so a worker finding nothing left to change stays quiet. `prepared` is the product
 * count when a new DATA_DIR was made from the site snapshot `npm ci` prepared.
 */
function logSync(result: SyncResult, prepared: number | null = null): void {
  const summary = syncSummary(result);
  if (cluster.isWorker && summary === 'no changes') return;
  const line = prepared !== null && summary === 'no changes' ? `${prepared} product${prepared === 1 ? '' : 's'} in the store npm ci prepared` : summary;
  console.log(`quire: site content (catalog.json): ${line}`);
}

/** Opens the store, migrated and synced with the site's catalogue, logging what the sync did. */
function openSiteStore(options: StartOptions, seed: SeedData, onPhase?: (name: string) => void): ReturnType<typeof openStore> {
  let snapshot: SnapshotUsed = null;
  return openStore({
    databaseUrl: options.databaseUrl,
    seed,
    onSnapshot: (used) => (snapshot = used),
    onSync: (result) => logSync(result, snapshot === 'site' ? (seed.products ?? []).length : null),
    onPhase,
  });
}

async function serve(options: StartOptions): Promise<void> {
  // Checked before the database opens, so a bad mail setting is one line and no half start.
  let mailSettings;
  try {
    mailSettings = mailSettingsFromEnv(process.env);
  } catch (error) {
    if (error instanceof MailSettingsError) fail(error.message);
    throw error;
  }
  const site = await loadSiteOrFail(options.siteDir);
  startPhase('site-load');
  let store;
  try {
    store = await openSiteStore(options, siteSeed(site), startPhase);
  } catch (error) {
    if (error instanceof StoreError) fail(`${error.code}: ${error.message}`);
    throw error;
  }
  // The first admin owner (admin/first-owner.ts): from ADMIN_EMAIL/ADMIN_PASSWORD, else a demo owner.
  let owner: FirstOwnerResult;
  try {
    owner = await ensureFirstOwner(store, process.env);
  } catch (error) {
    if (error instanceof OwnerSettingsError) {
      await store.close().catch(() => {});
      fail(error.message);
    }
    throw error;
  }
  // Links in mail name site.json's baseUrl or, without one, where this server listens; never a
  // request's Host header (api/context.ts, `mailOrigin`).
  let origin = listenOrigin(options.host, options.port);
  const app = await buildApp({
    store,
    site,
    origin: () => origin,
    assetsDir: options.assetsDir,
    logger: { level: process.env.LOG_LEVEL ?? 'warn' },
    adminToken: process.env.ADMIN_TOKEN ?? null,
    // A hop count is Fastify's "trust the first N hops", given as its function form (start-options.ts).
    trustProxy: fastifyTrustProxy(options.trustProxy),
    // On PostgreSQL, display data may be up to 1 s behind another server's writes (README
    // "Store"). The embedded database belongs to this one process, and every write to it goes
    // through the app's store, which drops the cache: nothing can make it stale, so it is not
    // read again on a timer. That re-read ran PGlite's queries on the event loop once a second,
    // a stall every request in flight waited behind (bench/README.md, "Read cache without a
    // timer on the embedded store").
    readCacheMs: usesPostgres(options.databaseUrl) ? 1000 : Number.POSITIVE_INFINITY,
    serverFactory: limitedServerFactory(options.limits),
    retention: options.retention,
  });
  startPhase('app');
  if (startTracing) {
    let first = true;
    app.addHook('onResponse', async () => {
      if (first) startPhase('first-response');
      first = false;
    });
  }
  // The outbox worker (mail/outbox-worker.ts): SMTP with SMTP_URL, else .eml files under
  // DATA_DIR/outbox. Every cluster worker runs one; claims (SKIP LOCKED + lease) keep them
  // from delivering a message twice.
  const outbox = createOutboxWorker({
    store,
    transport: transportFor(mailSettings),
    from: mailSettings.from,
    maxAttempts: mailSettings.maxAttempts,
    retryBaseMs: mailSettings.retryBaseMs,
    retryMaxMs: mailSettings.retryMaxMs,
    pollMs: mailSettings.pollMs,
    log: (line) => console.log(line),
  });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    // One line in the start log's words (it was the only JSON log line a Ctrl-C showed).
    console.log(`quire: ${signal}: closing (requests in flight finish, then the database closes)`);
    // Stop accepting, let in-flight requests and a running delivery finish, then close the database cleanly.
    Promise.all([app.close(), outbox.stop()])
      .then(() => store.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  // Before listening: the first request must not pay for it.
  const siteRow = await store.read.getSite();
  preloadLocaleData('en-US', siteRow?.settings.timeZone ?? 'UTC');
  startPhase('locale');
  let address: string;
  try {
    address = await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    const problem = listenProblem(error, options);
    if (problem) {
      // Close the database cleanly before the one-line exit.
      await app.close().catch(() => {});
      await store.close().catch(() => {});
      fail(problem);
    }
    throw error;
  }
  startPhase('listen');
  origin = listenOrigin(options.host, Number(new URL(address).port) || options.port);
  if (typeof site.config.extra.baseUrl !== 'string' && !isLoopback(options.host) && (!cluster.isWorker || cluster.worker?.id === 1)) {
    console.warn(`quire: site.json sets no baseUrl, so links in mail start with ${origin}; set baseUrl to the site's public address`);
  }
  outbox.start();
  if (!cluster.isWorker || cluster.worker?.id === 1) console.log(`quire: serving ${shownSiteDir(options.siteDir, process.env, root)} at ${address}`);
  // Only the instance that made a change has lines to print (the others find it made).
  for (const line of firstOwnerLines(owner, address)) console.log(line);
  if (!cluster.isWorker || cluster.worker?.id === 1) {
    for (const note of startNotes(mailSettings, siteRow?.settings.commerce, await templateFallbacks(site))) (note.level === 'warn' ? console.warn : console.log)(note.text);
    if (process.env.TRUST_PROXY?.trim() === 'true') console.warn(TRUST_PROXY_TRUE_NOTE);
  }
}

/** `http://host:port` of a listen address; the wildcard addresses as `localhost`. */
function listenOrigin(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : net.isIPv6(host) ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

async function main(): Promise<void> {
  resolveTypedPaths(process.env);
  if (process.argv[2] === '--prepare') return prepare();
  let options: StartOptions;
  try {
    options = parseStartArgs(process.argv.slice(2), process.env, root, openFileLimit());
  } catch (error) {
    if (error instanceof StartOptionsError) fail(error.message);
    throw error;
  }
  if (cluster.isWorker) return serve(options);
  await checkListen(options);
  // Schema findings of the folder's data files (a misspelled key is otherwise silently
  // ignored): logged, never fatal; `quire check` is the gate.
  for (const line of findingLines(await validateSiteFiles(options.siteDir), options.siteDir)) console.warn(`quire: ${line}`);
  startPhase('site-check');
  void ensureAssets(options.assetsDir);
  let workers = options.workers;
  if (workers > 1 && !usesPostgres(options.databaseUrl)) {
    // An embedded PGlite data directory belongs to one process; sharing needs PostgreSQL.
    console.warn('quire: --workers > 1 needs DATABASE_URL=postgres://…; the embedded database serves one process');
    workers = 1;
  }
  if (workers === 1) return serve(options);
  // Migrate and seed once, before the workers race for it.
  const store = await openSiteStore(options, siteSeed(await loadSiteOrFail(options.siteDir))).catch((error: unknown) => fail(`${(error as Error).message}`));
  await store.close();
  for (let i = 0; i < workers; i++) cluster.fork();
  let stopping = false;
  // A worker that dies is replaced, but a crash loop (bad port, database gone) stops the server.
  const restarts: number[] = [];
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0]! < now - 60_000) restarts.shift();
    if (restarts.length > workers * 3) {
      console.error('quire: workers keep exiting; stopping');
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      process.exitCode = 1;
      return;
    }
    console.error(`quire: worker ${worker.process.pid} exited with ${code}; starting another`);
    cluster.fork();
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

await main();

// The comparison servers of `npm run bench:http`, one per process (forked by http.ts):
//   hello      a Fastify hello-world: the ceiling any page server on this machine can reach;
//   static     the bytes of Quire's page (fetched once from the running Quire server) sent by
//              a bare route: what carrying a page of that size costs, with no work at all;
//   reference  the product page rendered by the reference port behind one bare Fastify route;
//   reference-batched  the same route with Quire's turn batching (renderer/pages/turn-batching.ts):
//              not a target, it shows what that server technique alone gives the reference.
//
// "The same page" is found, not re-written: this process builds Quire's real app in memory
// (demo site, seeded in-memory store), requests the product page once, and records every
// top-level template render the page made (source, data, partials). The reference route
// replays exactly those renders with the reference port on every request and sends the page
// they make (a render embedded in a later one, like the page template's in the layout, is sent
// only inside it). It does no database reads, no shell, no cookies, no islands script: the
// reference gets the engine work of the page and nothing else, so the comparison leans its way.
import Fastify from 'fastify';
import { recordRenders } from './record-renders.ts';
import { loadReferencePort } from './reference-port.ts';

export interface PeerReady {
  port: number;
  /** Number of template renders the reference replays per request. */
  renders?: number;
  /** Bytes of the reference's page. */
  bytes?: number;
}

interface RecordedRender {
  source: string;
  data: unknown;
  partials: Record<string, string>;
  now: number | undefined;
}

/** Engine values → plain JSON values, as the reference expects (integral doubles become numbers). */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'bigint') return Number(v);
  if (v !== null && typeof v === 'object') {
    if ('value' in v && Object.keys(v).length === 1 && v.constructor?.name === 'JDouble') return (v as { value: number }).value;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = plain(x);
    return out;
  }
  return v;
}

async function recordPage(siteDir: string, url: string): Promise<RecordedRender[]> {
  const [page] = await recordRenders(siteDir, [url], (source, data, options): RecordedRender => ({ source, data: plain(data), partials: { ...(options.partials ?? {}) }, now: options.now }));
  if (page.status !== 200) throw new Error(`GET ${url} answered ${page.status}`);
  return page.renders;
}

async function referenceServer(siteDir: string, url: string, batched: boolean): Promise<PeerReady> {
  const renders = await recordPage(siteDir, url);
  const { cldr, compiler } = await loadReferencePort();
  // Compiled once at start-up, as Quire's renderer compiles its templates once.
  const jobs = renders.map((r) => ({ code: compiler.parse(r.source).code, json: r.data, partials: r.partials, now: r.now, sent: true }));
  const run = (j: (typeof jobs)[number]): string => compiler.execute({ code: j.code, json: j.json, partials: j.partials, cldr: cldr as never, now: j.now }).ctx.render();
  // A render whose output a later render embeds (the page template's, as the layout's
  // `mainContent`) is done on every request but sent only inside the later one, as Quire does.
  const outputs = jobs.map(run);
  jobs.forEach((j, i) => (j.sent = !jobs.slice(i + 1).some((later) => (later.json as { mainContent?: unknown }).mainContent === outputs[i])));
  const page = (): string => {
    let html = '';
    for (const j of jobs) {
      const out = run(j);
      if (j.sent) html += out;
    }
    return html;
  };
  const bytes = Buffer.byteLength(page());
  const app = Fastify({ logger: false });
  if (batched) {
    const { endOfTurn } = await import('../renderer/pages/turn-batching.ts');
    app.get(url, async (_request, reply) => {
      await endOfTurn();
      return reply.type('text/html; charset=utf-8').send(page());
    });
  } else {
    app.get(url, (_request, reply) => {
      reply.type('text/html; charset=utf-8').send(page());
    });
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { port: (app.server.address() as { port: number }).port, renders: jobs.length, bytes };
}

async function staticServer(pageUrl: string): Promise<PeerReady> {
  const res = await fetch(pageUrl);
  if (res.status !== 200) throw new Error(`GET ${pageUrl} answered ${res.status}`);
  const page = Buffer.from(await res.arrayBuffer());
  const app = Fastify({ logger: false });
  app.get('/', (_request, reply) => {
    reply.type('text/html; charset=utf-8').send(page);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { port: (app.server.address() as { port: number }).port, bytes: page.length };
}

async function helloServer(): Promise<PeerReady> {
  const app = Fastify({ logger: false });
  app.get('/', (_request, reply) => {
    reply.send('hello world');
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { port: (app.server.address() as { port: number }).port };
}

if (process.send && process.argv[2]) {
  const [kind, siteDir, url] = process.argv.slice(2);
  (kind === 'reference' || kind === 'reference-batched' ? referenceServer(siteDir, url, kind === 'reference-batched') : kind === 'static' ? staticServer(url) : helloServer()).then(
    (ready) => process.send?.({ ok: true, ready }),
    (e: unknown) => process.send?.({ ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }, () => process.exit(1)),
  );
}

// `npx tsx bench/http-counts.ts`: what one response of the real server costs, counted rather
// than timed, so that two builds can be compared on a machine whose other load makes req/s and
// CPU per response swing by ±30% (bench/README.md, "HTTP path, 2026-12-03").
//
// Starts the server as `npm start` runs it (`bin/start.mjs`, or a given bundle) with a fresh
// store, sends requests one after another on one keep-alive socket, and reports per request:
// - the heap bytes it allocated (V8's used heap over a window with no collection in it: the
//   young generation is made large enough, and a window a collection fell into is read again;
//   the least of the windows, as the read cache's refresh once a second adds to the one it falls in);
// - the promises it made (an async hook, on only during its own window);
// - optionally (`--strace`) the system calls, from `strace -f -c` over a window;
// - the server's CPU time per request, sequential and on a quiet socket: indicative only.
// `--profile FILE` adds a CPU profile of the server under autocannon load (`--connections`,
// `--seconds`) and its samples by area (engine, formatters, renderer, Fastify, Node, idle …),
// the bundle's source map naming each frame's file.
//
//   npx tsx bench/http-counts.ts [--url /shop/tee]… [--requests 300] [--rounds 5] [--cookie TEXT]
//     [--bundle dist/qa/main.mjs] [--site DIR] [--strace] [--profile out.cpuprofile --seconds 10 --connections 10]
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ArgReader } from './args.ts';
import { runIfMain } from './cli.ts';
import { freePort } from './free-port.ts';
import { median } from './report.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface CountOptions {
  urls: string[];
  requests: number;
  rounds: number;
  cookie: string | null;
  bundle: string | null;
  siteDir: string;
  strace: boolean;
  profile: string | null;
  seconds: number;
  connections: number;
}

export function parseCountArgs(argv: readonly string[]): CountOptions {
  const o: CountOptions = { urls: [], requests: 300, rounds: 5, cookie: null, bundle: null, siteDir: join(ROOT, 'fixtures/sites/demo'), strace: false, profile: null, seconds: 10, connections: 10 };
  const args = new ArgReader(argv);
  for (let option = args.next(); option !== undefined; option = args.next()) {
    switch (option) {
      case '--url': o.urls.push(args.value()); break;
      case '--requests': o.requests = args.number(1); break;
      case '--rounds': o.rounds = args.number(1); break;
      case '--cookie': o.cookie = args.value(); break;
      case '--bundle': o.bundle = resolve(args.value()); break;
      case '--site': o.siteDir = resolve(args.value()); break;
      case '--strace': o.strace = true; break;
      case '--profile': o.profile = resolve(args.value()); break;
      case '--seconds': o.seconds = args.number(1); break;
      case '--connections': o.connections = args.number(1); break;
      default: throw new Error(`unknown option ${option}`);
    }
  }
  if (o.urls.length === 0) o.urls.push('/shop/tee');
  return o;
}

/**
 * Loaded into the server before its code (`--import`): answers the bench over the IPC channel
 * with its heap and CPU figures, counts promises while asked to, and profiles on request.
 */
const PROBE = `
import v8 from 'node:v8';
import fs from 'node:fs';
import { createHook } from 'node:async_hooks';
import { Session } from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
let collections = 0, promises = 0, session = null;
new PerformanceObserver((list) => { collections += list.getEntries().length; }).observe({ entryTypes: ['gc'] });
const hook = createHook({ init(_id, type) { if (type === 'PROMISE') promises++; } });
const post = (method, params) => new Promise((ok, fail) => session.post(method, params, (e, r) => (e ? fail(e) : ok(r))));
process.on('message', async (m) => {
  if (m?.probe === undefined) return;
  let reply = {};
  if (m.probe === 'figures') {
    const cpu = process.cpuUsage();
    reply = { heap: v8.getHeapStatistics().used_heap_size, collections, promises, cpu: cpu.user + cpu.system };
  } else if (m.probe === 'promises') m.on ? hook.enable() : hook.disable();
  else if (m.probe === 'profile') {
    if (m.on) {
      session ??= new Session();
      session.connect();
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 100 });
      await post('Profiler.start');
    } else {
      fs.writeFileSync(m.file, JSON.stringify((await post('Profiler.stop')).profile));
      session.disconnect();
    }
  }
  process.send({ probe: m.probe, ...reply });
});
process.channel?.unref();
`;

interface Figures {
  heap: number;
  collections: number;
  promises: number;
  cpu: number;
}

class Server {
  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static async start(o: CountOptions, dir: string): Promise<Server> {
    const probe = join(dir, 'probe.mjs');
    writeFileSync(probe, PROBE);
    const port = await freePort();
    const entry = o.bundle ?? join(ROOT, 'bin/start.mjs');
    // A young generation of 256 MB: a window of requests allocates without a collection.
    const child = spawn(process.execPath, ['--max-semi-space-size=128', '--min-semi-space-size=128', '--import', probe, entry], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dir, 'data'), SITE_DIR: o.siteDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const server = new Server(child, port);
    for (let waited = 0; ; waited += 250) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}${o.urls[0]}`);
        await res.arrayBuffer();
        break;
      } catch {
        if (waited > 180_000) throw new Error('the server did not answer within 180 s');
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return server;
  }

  ask<T>(message: Record<string, unknown>): Promise<T> {
    return new Promise((ok) => {
      const listen = (m: { probe?: string }) => {
        if (m?.probe !== message.probe) return;
        this.child.off('message', listen);
        ok(m as T);
      };
      this.child.on('message', listen);
      this.child.send(message);
    });
  }

  stop(): Promise<void> {
    return new Promise((ok) => {
      if (this.child.exitCode !== null) return ok();
      this.child.once('exit', () => ok());
      this.child.kill('SIGTERM');
      setTimeout(() => this.child.kill('SIGKILL'), 10_000).unref();
    });
  }
}

/** A keep-alive socket sending one request at a time; answers are read by their Content-Length. */
function connection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  let pending: Buffer = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  socket.on('data', (d: Buffer) => {
    pending = pending.length === 0 ? d : Buffer.concat([pending, d]);
    wake?.();
  });
  const open = new Promise((ok) => socket.once('connect', ok));
  return {
    async request(path: string, cookie: string | null): Promise<{ status: number; bytes: number }> {
      await open;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${cookie ? `Cookie: ${cookie}\r\n` : ''}\r\n`);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end >= 0) {
          const head = pending.subarray(0, end).toString('latin1');
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (pending.length >= end + 4 + length) {
            pending = pending.subarray(end + 4 + length);
            return { status: Number(head.slice(9, 12)), bytes: end + 4 + length };
          }
        }
        await new Promise<void>((ok) => (wake = ok));
        wake = null;
      }
    },
    close: () => socket.destroy(),
  };
}

interface UrlCounts {
  url: string;
  status: number;
  responseBytes: number;
  heapBytes: number[];
  promises: number;
  cpuMicros: number[];
  syscalls: Record<string, number> | null;
}

async function countUrl(server: Server, o: CountOptions, url: string): Promise<UrlCounts> {
  const socket = connection(server.port);
  let last = { status: 0, bytes: 0 };
  const run = async (n: number) => {
    for (let i = 0; i < n; i++) last = await socket.request(url, o.cookie);
  };
  await run(3000); // warm: compiled, optimized, caches filled
  const heapBytes: number[] = [];
  const cpuMicros: number[] = [];
  for (let tries = 0; heapBytes.length < o.rounds && tries < o.rounds * 3; tries++) {
    const a = await server.ask<Figures>({ probe: 'figures' });
    await run(o.requests);
    const b = await server.ask<Figures>({ probe: 'figures' });
    if (b.collections !== a.collections) continue; // a collection fell into the window: read it again
    heapBytes.push((b.heap - a.heap) / o.requests);
    cpuMicros.push((b.cpu - a.cpu) / o.requests);
  }
  // The fewest of the windows: the read cache's refresh (once a second) adds its own to a window it falls into.
  let promises = Number.POSITIVE_INFINITY;
  await server.ask({ probe: 'promises', on: true });
  for (let round = 0; round < o.rounds; round++) {
    const a = await server.ask<Figures>({ probe: 'figures' });
    await run(o.requests);
    const b = await server.ask<Figures>({ probe: 'figures' });
    promises = Math.min(promises, (b.promises - a.promises) / o.requests);
  }
  await server.ask({ probe: 'promises', on: false });
  let syscalls: Record<string, number> | null = null;
  if (o.strace) {
    const out = join(os.tmpdir(), `http-counts-strace-${process.pid}.txt`);
    const tracer = spawn('strace', ['-f', '-c', '-o', out, '-p', String(server.child.pid)], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 1000));
    await run(o.requests);
    tracer.kill('SIGINT');
    await new Promise((r) => tracer.once('exit', r));
    syscalls = {};
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)(?:\s+\d+)?\s+(\w+)$/.exec(line);
      if (m && m[2] !== 'total') syscalls[m[2]!] = Number(m[1]) / o.requests;
    }
    rmSync(out, { force: true });
  }
  socket.close();
  return { url, status: last.status, responseBytes: last.bytes, heapBytes, promises, cpuMicros, syscalls };
}

/** Which part of the server a profile frame belongs to, from the file the source map names. */
export function areaOf(file: string, functionName: string): string {
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)') return functionName;
  if (/(^|\/)engine\//.test(file) && !file.includes('node_modules')) return 'engine';
  if (/(^|\/)(formatters|predicates)\//.test(file) && !file.includes('node_modules')) return 'formatters';
  if (/(^|\/)renderer\/pages\/document-bytes\.ts$/.test(file)) return 'renderer: document bytes';
  if (/(^|\/)(renderer|hydrate)\//.test(file) && !file.includes('node_modules')) return 'renderer';
  if (/node_modules\/(fastify|find-my-way|@fastify|light-my-request|avvio|fast-json-stringify|cookie|pino|@pinojs)/.test(file)) return 'Fastify and plugins';
  if (/pglite|wasm/.test(file)) return 'PGlite (read cache refresh)';
  if (file.startsWith('node:')) return 'Node (HTTP, streams, timers)';
  if (file === '') return `native: ${functionName}`;
  return 'other packages';
}

function profileAreas(profileFile: string, bundle: string): [string, number][] {
  const map = existsSync(`${bundle}.map`) ? new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8'))) : null;
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
    samples: number[];
  };
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const areas = new Map<string, number>();
  for (const node of profile.nodes) {
    const n = hits.get(node.id);
    if (!n) continue;
    const { url, lineNumber, columnNumber, functionName } = node.callFrame;
    let file = url.startsWith('node:') ? url : '';
    if (url.endsWith('.mjs') && map && url.endsWith(bundle.split('/').slice(-2).join('/'))) {
      const entry = map.findEntry(lineNumber, columnNumber);
      file = 'originalSource' in entry ? entry.originalSource : '';
    } else if (url !== '' && !url.startsWith('node:')) file = url;
    let area = areaOf(file, functionName);
    if (area.startsWith('native: ')) area = ['writev', 'writeUtf8String', 'writeBuffer', 'read'].includes(functionName) ? 'native: socket writes' : 'native: other';
    areas.set(area, (areas.get(area) ?? 0) + n);
  }
  return [...areas].sort((a, b) => b[1] - a[1]).map(([area, n]) => [area, n / profile.samples.length]);
}

async function profileUnderLoad(server: Server, o: CountOptions): Promise<{ reqPerSec: number; cpuMicros: number }> {
  const url = `http://127.0.0.1:${server.port}${o.urls[0]}`;
  const load = (seconds: number) => autocannon({ url, connections: o.connections, duration: seconds, pipelining: 1, ...(o.cookie ? { headers: { cookie: o.cookie } } : {}) });
  await load(2);
  await server.ask({ probe: 'profile', on: true });
  const a = await server.ask<Figures>({ probe: 'figures' });
  const result = await load(o.seconds);
  const b = await server.ask<Figures>({ probe: 'figures' });
  await server.ask({ probe: 'profile', on: false, file: o.profile });
  return { reqPerSec: result.requests.average, cpuMicros: (b.cpu - a.cpu) / Math.max(1, result.requests.total) };
}

const round = (n: number, digits = 0) => n.toFixed(digits);

async function main(): Promise<void> {
  const o = parseCountArgs(process.argv.slice(2));
  if (o.strace && spawnSync('strace', ['-V']).status !== 0) throw new Error('--strace: strace is not installed');
  const dir = mkdtempSync(join(os.tmpdir(), 'quire-http-counts-'));
  let server: Server | null = null;
  try {
    server = await Server.start(o, dir);
    console.log(`server: ${o.bundle ?? 'bin/start.mjs'}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${o.requests} requests a window, ${o.rounds} windows`);
    for (const url of o.urls) {
      const c = await countUrl(server, o, url);
      const heap = [...c.heapBytes].sort((x, y) => x - y);
      console.log(
        // The least of the windows is the request's own: a window the read cache's refresh fell into holds its allocations too.
        `${url}: ${c.status}, ${c.responseBytes} bytes on the wire; heap allocated ${round(heap[0] ?? Number.NaN)} B/request (least of the windows ${heap.map((h) => round(h)).join(', ')}); ` +
          `${round(c.promises, 2)} promises/request; CPU ${round(median(c.cpuMicros))} µs/request one at a time (indicative)`,
      );
      if (c.syscalls) console.log(`  system calls per request: ${Object.entries(c.syscalls).map(([name, n]) => `${name} ${round(n, 2)}`).join(', ')}`);
    }
    if (o.profile) {
      const load = await profileUnderLoad(server, o);
      console.log(`profile of ${o.urls[0]} under ${o.connections} connections for ${o.seconds} s: ${round(load.reqPerSec)} req/s, ${round(load.cpuMicros)} µs CPU/response; written to ${o.profile}`);
      const bundle = o.bundle ?? join(ROOT, 'dist/server/main.mjs');
      for (const [area, share] of profileAreas(o.profile, bundle)) console.log(`  ${(100 * share).toFixed(1).padStart(5)}%  ${area}`);
    }
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, 'bench:http-counts', main);

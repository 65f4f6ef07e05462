import http, { type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';

/**
 * How many sockets the server holds and for how long (README "Limits"). Without them one
 * client could hold tens of thousands of silent sockets, run the process out of file
 * descriptors and so reset every other visitor's connection.
 */
export interface ConnectionLimits {
  /** MAX_CONNECTIONS: sockets held at once by this process; more are closed on arrival. */
  maxConnections: number;
  /** MAX_CONNECTIONS_PER_IP: sockets one peer address may hold at once; 0 turns the check off. */
  maxConnectionsPerIp: number;
  /** HEADERS_TIMEOUT_MS: time to send a request's headers; a new socket's first request counts from the connect. */
  headersTimeoutMs: number;
  /** REQUEST_TIMEOUT_MS: time to send a whole request, body included. */
  requestTimeoutMs: number;
  /** KEEP_ALIVE_TIMEOUT_MS: how long an idle keep-alive socket waits for its next request. */
  keepAliveTimeoutMs: number;
  /** CONNECTION_TIMEOUT_MS: a socket with no traffic either way for this long is closed; 0: never. */
  connectionTimeoutMs: number;
  /** MAX_REQUESTS_PER_SOCKET: requests one keep-alive socket may carry; 0: no limit. */
  maxRequestsPerSocket: number;
}

/** Node checks header and request deadlines on a timer (30 s by default); this bounds how late. */
export function checkingIntervalMs(limits: Pick<ConnectionLimits, 'headersTimeoutMs'>): number {
  return Math.max(100, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4)));
}

/**
 * Applies the limits to a Node HTTP server before it listens (Fastify's `app.server`).
 * Sockets over either cap are destroyed as they arrive, before any byte is read.
 */
export function applyConnectionLimits(server: HttpServer, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  server.setTimeout(limits.connectionTimeoutMs);
  // Read when the server starts listening, so setting it here still takes effect.
  (server as HttpServer & { connectionsCheckingInterval: number }).connectionsCheckingInterval = checkingIntervalMs(limits);
  if (limits.maxConnectionsPerIp > 0) limitPerAddress(server, limits.maxConnectionsPerIp);
  closeSilentSockets(server, limits.headersTimeoutMs);
}

const FIRST_REQUEST_TIMER = Symbol('quire.firstRequestTimer');
type TimedSocket = Socket & { [FIRST_REQUEST_TIMER]?: NodeJS.Timeout };

/**
 * Node's headers deadline starts with a request's first byte, so a socket that never sends
 * one is held until the inactivity timeout. Here a socket must deliver its first request's
 * headers within `ms` of connecting.
 */
function closeSilentSockets(server: HttpServer, ms: number): void {
  server.on('connection', (socket: TimedSocket) => {
    if (socket.destroyed) return;
    const timer = setTimeout(() => socket.destroy(), ms);
    timer.unref();
    socket[FIRST_REQUEST_TIMER] = timer;
    socket.once('close', () => clearTimeout(timer));
  });
  server.on('request', (request: IncomingMessage) => {
    const socket = request.socket as TimedSocket;
    const timer = socket[FIRST_REQUEST_TIMER];
    if (timer === undefined) return;
    clearTimeout(timer);
    socket[FIRST_REQUEST_TIMER] = undefined;
  });
}

/**
 * An `Expect` other than 100-continue: Node alone answers a bare 417 (no body, no security
 * headers). RFC 9110 10.1.1 lets a server ignore an expectation it does not know, so the
 * request is served like any other and gets the app's own answer.
 */
export function serveUnknownExpectations(server: HttpServer, handler: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.on('checkExpectation', handler);
}

/**
 * A Fastify `serverFactory` that makes every server it listens on limited, including the
 * second one Fastify opens when HOST names several addresses (`localhost`: ::1 and 127.0.0.1).
 */
export function limitedServerFactory(limits: ConnectionLimits): (handler: (req: IncomingMessage, res: ServerResponse) => void) => HttpServer {
  return (handler) => {
    // Node answers an HTTP/1.1 request without a Host itself, with a bare 400 (no body, no
    // security headers); the app answers it in the API's shape instead (app.ts, refuseBadHost).
    const server = http.createServer({ requireHostHeader: false }, handler);
    serveUnknownExpectations(server, handler);
    applyConnectionLimits(server, limits);
    return server;
  };
}

function limitPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

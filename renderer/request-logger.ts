import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** The parent logger as Fastify makes it from the `logger` option: pino, which can say whether a level is on. */
interface LevelAware extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
}

/**
 * A request's logger (`request.log`, `reply.log`) that makes pino's child only when a line is
 * written at a level that is on. Fastify makes a child logger for every request; pino's
 * `child`, given Fastify's empty options, copies its serializers and formatters and serializes
 * the `reqId` binding through the redaction (~0.7% of a product page's server CPU under
 * `npm start`, bench/README.md "HTTP path, 2026-12-02"), though at the server's default level
 * (`warn`) a page view writes no line. A line, when written, is the real child's: the same
 * bindings, serializers and redaction.
 */
class LazyRequestLogger {
  #real: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: LevelAware,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.#real ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#real?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  private write(level: Level, args: unknown[]): void {
    if (this.#real === null && !this.parent.isLevelEnabled(level)) return;
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }

  isLevelEnabled(level: string): boolean {
    return this.#real === null ? this.parent.isLevelEnabled(level) : (this.#real as LevelAware).isLevelEnabled(level);
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy child for a request of the app's pino logger; a
 * route's own logger options (`logLevel`, serializers), or a logger that cannot tell its
 * levels, get pino's child at once, as Fastify's default factory makes it.
 */
export function requestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildOptions): FastifyBaseLogger {
  const parent = logger as Partial<LevelAware>;
  if (typeof parent.isLevelEnabled !== 'function' || Object.keys(options).length > 0) return logger.child(bindings, options);
  return new LazyRequestLogger(parent as LevelAware, bindings, options) as unknown as FastifyBaseLogger;
}

import path from 'node:path';

/** A bad command line or environment for `npm start`; main prints it and exits with 2. */
export class StartOptionsError extends Error {}

const fail = (message: string): never => {
  throw new StartOptionsError(message);
};

/** `npm start` options from the command line (`--workers N`, `--site DIR`) and the environment. */
export interface StartOptions {
  host: string;
  port: number;
  workers: number;
  siteDir: string;
  assetsDir: string;
  databaseUrl: string | undefined;
}


export function parseStartArgs(argv: readonly string[], env: NodeJS.ProcessEnv, root: string): StartOptions {
  let workers = 1;
  let siteDir = env.SITE_DIR ?? path.join(root, 'fixtures', 'sites', 'demo');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => inline ?? argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === '--workers') {
      const text = value();
      workers = Number(text);
      if (!Number.isInteger(workers) || workers < 1 || workers > 64) fail(`--workers must be an integer from 1 to 64, not "${text}"`);
    } else if (flag === '--site') {
      siteDir = path.resolve(value());
    } else {
      fail(`unknown argument "${arg}" (known: --workers N, --site DIR)`);
    }
  }
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be a port number, not "${env.PORT}"`);
  return {
    host: env.HOST || '127.0.0.1',
    port,
    workers,
    siteDir,
    assetsDir: path.join(root, 'dist', 'assets'),
    databaseUrl: env.DATABASE_URL,
  };
}


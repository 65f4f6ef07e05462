// Runs the real server (`bin/start.mjs`, what `npm start` runs: `renderer/main.ts` bundled) as a child process, the
// way an operator would: configured only through the environment.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * One GET on a connection of its own that the server closes after answering: a probe must
 * leave no keep-alive socket behind, since the connection-limit suites count sockets.
 */
function probe(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(true));
      response.on('error', () => resolve(false));
    });
    request.setTimeout(5000, () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

export interface ServerProcess {
  origin: string;
  child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs `bin/start.mjs` with `args`, the environment of this process plus `env`, and its output
 * (stdout and stderr together) collected; `exited` resolves with its exit code. The one
 * spawner of the process suites: `startServer` waits for it to answer, a test that expects
 * `npm start` to refuse waits for `exited`.
 */
export function spawnStart(args: string[], env: Record<string, string>): { child: ChildProcess; output(): string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['bin/start.mjs', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * Spawns the server on `port` with the given environment (DATA_DIR, DATABASE_URL …) and
 * arguments (`--workers N`), and
 * waits until `GET /` answers with any status. Fails with the process output when it exits
 * first or does not answer within `timeoutMs`, a hang guard (not a speed target: a start on a
 * busy machine may take many times its usual time; start-up speed belongs in bench/).
 */
export async function startServer(options: { port: number; env: Record<string, string>; args?: string[]; timeoutMs?: number }): Promise<ServerProcess> {
  const timeoutMs = options.timeoutMs ?? 80_000;
  const started = Date.now();
  const { child, output: outputOf, exited } = spawnStart(options.args ?? [], {
    DATABASE_URL: '',
    NODE_ENV: 'production',
    ...options.env,
    PORT: String(options.port),
    HOST: '127.0.0.1',
  });
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));

  const origin = `http://127.0.0.1:${options.port}`;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode} before answering:\n${outputOf()}`);
    if (Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within ${timeoutMs} ms:\n${outputOf()}`);
    }
    const answered = await probe(origin + '/');
    if (answered) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    origin,
    child,
    output: outputOf,
    kill: async (signal) => {
      if (exitCode === undefined) child.kill(signal);
      return exited;
    },
  };
}

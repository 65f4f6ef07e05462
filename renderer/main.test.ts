import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeStarterSite } from './preview/new-site.ts';

// `npm start` end to end: a fresh data directory is created and seeded, `/` and every
// sitemap page answer 200, TRUST_PROXY reaches the server, and SIGTERM closes it cleanly.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-start-'));
let child: ChildProcess | null = null;

afterAll(() => {
  child?.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Everything the server printed so far. */
let startLog = '';

function waitForAddress(proc: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no address within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      startLog = output;
      // The owner line comes right after the serving line.
      const match = /serving .* at (http:\/\/\S+)[\s\S]*admin owner/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
}

describe('npm start', () => {
  it('serves the demo store from a fresh data directory and stops on SIGTERM', async () => {
    child = spawn(process.execPath, [path.join(root, 'bin', 'start.mjs')], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'error', TRUST_PROXY: 'loopback' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A hang guard, not a speed target: start-up speed is measured in bench/.
    const address = await waitForAddress(child, 150_000);
    const home = await fetch(`${address}/`);
    expect(home.status).toBe(200);
    // The first admin owner: the demo owner, its generated password printed once in the start log.
    const owner = /admin owner (\S+) created with password (\S+) /.exec(startLog);
    expect(owner?.[1]).toBe('owner@example.com');
    const signIn = await fetch(`${address}/api/admin/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: owner![1], password: owner![2] }) });
    expect(signIn.status).toBe(200);
    expect((await fetch(`${address}/admin`)).status).toBe(200);
    // Where mail goes and that the demo's test card takes no money, said at start (not first with the first receipt).
    await expect.poll(() => startLog).toContain(`quire: mail is not sent (no SMTP_URL): receipts and other messages are written to ${path.join(dataDir, 'outbox')} as .eml files\n`);
    await expect.poll(() => startLog).toContain('quire: checkout offers the test card, which takes no money');
    const sitemap = await (await fetch(`${address}/sitemap.xml`)).text();
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    expect(paths.length).toBeGreaterThan(10);
    for (const pagePath of paths) expect((await fetch(`${address}${pagePath}`)).status, pagePath).toBe(200);
    // TRUST_PROXY=loopback: behind a local proxy, password guesses are counted per forwarded client.
    const guess = (client: string) =>
      fetch(`${address}/unlock`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client }, body: 'scope=site&password=wrong&returnTo=/' });
    // A wrong guess goes back to the form saying so; past the limit, saying to wait.
    const outcome = async (client: string) => {
      const response = await guess(client);
      return `${response.status} ${response.headers.get('location')}`;
    };
    for (let i = 0; i < 10; i++) expect(await outcome('203.0.113.1')).toBe('303 /?unlock=failed');
    expect(await outcome('203.0.113.1')).toBe('303 /?unlock=wait');
    expect(await outcome('203.0.113.2')).toBe('303 /?unlock=failed');
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(startLog).toContain('quire: SIGTERM: closing (requests in flight finish, then the database closes)\n');
    expect(startLog).not.toMatch(/"level":\d+/);
    child = null;
    expect(fs.readdirSync(dataDir).length).toBeGreaterThan(0);
    // The demo has its page.jsont: no word about a missing one.
    expect(startLog).not.toContain('SITE_TEMPLATE_MISSING');
  }, 300_000);

  it("says at start that the pages render with the built-in page template while templates/page.jsont is missing, in quire check's words", async () => {
    const siteDir = path.join(dataDir, 'site');
    expect(writeStarterSite(siteDir).ok).toBe(true);
    fs.renameSync(path.join(siteDir, 'templates/page.jsont'), path.join(siteDir, 'templates/Page.jsont'));
    child = spawn(process.execPath, [path.join(root, 'bin', 'start.mjs')], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SITE_DIR: siteDir, DATA_DIR: path.join(dataDir, 'site-data'), DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'error' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const address = await waitForAddress(child, 150_000);
    // The fallback keeps the pages rendering (STOREFRONT C1).
    expect((await fetch(`${address}/contact`)).status).toBe(200);
    await expect
      .poll(() => startLog)
      .toMatch(/quire: templates\/page\.jsont warning SITE_TEMPLATE_MISSING no templates\/page\.jsont, so \d+ pages? \(.*\) renders? with Quire's built-in page template: did you mean templates\/Page\.jsont\? /);
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    child = null;
  }, 300_000);
});

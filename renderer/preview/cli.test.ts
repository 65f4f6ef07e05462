import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { main, nextSteps } from './cli.ts';
import { usageOf } from './commands.ts';
import { writeStarterSite } from './new-site.ts';

// The `quire` command as an author or a CI job runs it: `node bin/quire.js …` (tsx), checked
// by exit code and by what reaches stdout and stderr (one line, never a stack trace).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-process-'));

function quire(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/quire.js'), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)|node:internal|Node\.js v/);

describe('quire (process)', () => {
  it('quire check fixtures/sites/demo exits 0, and so do its templates/ and partials/ folders', async () => {
    const site = await quire('check', 'fixtures/sites/demo');
    expect(site.stderr).toBe('');
    expect(site.code).toBe(0);
    expect(site.stdout).toMatch(/^quire: checked \d+ template\(s\) and partial\(s\) in 1 site folder\(s\); 0 problem\(s\)\n$/);
    const folders = await quire('check', 'fixtures/sites/demo/templates', 'fixtures/sites/demo/partials');
    expect(folders).toMatchObject({ code: 0, stderr: '' });
  }, 60_000);

  it('a missing or unreadable path is one line and exit 2, for check and render', async () => {
    const missing = await quire('check', 'fixtures/sites/nope');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('quire: fixtures/sites/nope: no such file or folder\n');
    const under = await quire('check', 'package.json/x');
    expect(under.code).toBe(2);
    expect(under.stderr).toBe('quire: package.json/x: a part of the path is not a folder\n');
    const render = await quire('render', 'nope.jsont', 'package.json');
    expect(render.code).toBe(2);
    expect(render.stderr).toBe('quire: nope.jsont: no such file or folder\n');
    const folder = await quire('render', 'fixtures/sites/demo/templates', 'package.json');
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe('quire: fixtures/sites/demo/templates: is a folder, not a file\n');
    for (const result of [missing, under, render, folder]) noStack(result.stderr);
  }, 60_000);

  it('quire render exits 1 on a template error and still prints what it rendered', async () => {
    const template = path.join(tmp, 'page.jsont');
    const data = path.join(tmp, 'data.json');
    fs.writeFileSync(template, '<h1>{title|html}</h1>\n{.section missing}');
    fs.writeFileSync(data, '{"title": "Shop"}');
    const result = await quire('render', template, data);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('<h1>Shop</h1>\n');
    expect(result.stderr).toContain('EOF_IN_BLOCK');
    noStack(result.stderr);
  }, 60_000);

  it("quire new's serve step names Quire's folder when typed elsewhere, and quotes a folder with a space", () => {
    expect(nextSteps('my shop', os.tmpdir()).split('\n')[2]).toMatch(new RegExp(`^ {6}SITE_DIR='my shop' npm --prefix ${root} start +# serve the shop`));
    expect(nextSteps("it's", root)).toContain(`npx quire preview 'it'\\''s'`);
  });

  it("quire new's preview and check steps run Quire's own bin when typed outside its folder (npx quire there asks the registry)", () => {
    const steps = nextSteps('my-site', os.tmpdir()).split('\n');
    expect(steps[0]).toMatch(new RegExp(`^next: npx --prefix ${root} quire preview my-site +# edit and watch`));
    expect(steps[1]).toMatch(new RegExp(`^ {6}npx --prefix ${root} quire check my-site +# the gate`));
    expect(nextSteps('my-site', path.join(root, 'fixtures')).split('\n')[0]).toMatch(/^next: npx quire preview my-site +#/);
  });

  it('quire alone lists every command with a one-line description', async () => {
    const result = await quire();
    expect(result.code).toBe(0);
    for (const command of ['new', 'check', 'preview', 'render-page', 'render']) expect(result.stdout).toMatch(new RegExp(`\\n  quire ${command}\\b.*\\n      \\S.*\\n`));
    expect((await quire('--help')).stdout).toBe(result.stdout);
  }, 60_000);

  it('quire new DIR && quire check DIR exits 0, quire render-page DIR / renders; a second new refuses', async () => {
    const dir = path.join(tmp, 'x');
    const created = await quire('new', dir);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    // The next steps as commands that run where they are typed (it said `quire preview`, not on
    // any PATH, and nothing about serving the shop).
    const lines = created.stdout.split('\n');
    expect(lines[1]).toMatch(new RegExp(`^next: npx quire preview ${dir} +# edit and watch`));
    expect(lines[2]).toMatch(new RegExp(`^ {6}npx quire check ${dir} +# `));
    expect(lines[3]).toMatch(new RegExp(`^ {6}SITE_DIR=${dir} npm start +# serve the shop; its first start prints the /admin sign-in$`));
    const check = await quire('check', dir);
    expect(check).toMatchObject({ code: 0, stderr: '' });
    const page = await quire('render-page', dir, '/');
    expect(page.code).toBe(0);
    expect(page.stdout).toMatch(/^<!doctype html>/);
    expect(page.stdout).toContain('<h1 class="sf-page-title">Welcome</h1>');
    const again = await quire('new', dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`quire: ${dir}: the folder is not empty; choose a new or empty folder\n`);
  }, 120_000);
});

describe('quire preview (in process)', () => {
  it('prints the site content sync summary, as `npm start` logs it, when a catalogue change is applied', async () => {
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('DATA_DIR', '');
    const dir = path.join(tmp, 'preview-sync');
    expect(writeStarterSite(dir).ok).toBe(true);
    const out: string[] = [];
    const err: string[] = [];
    let synced: () => void = () => {};
    const syncLine = new Promise<void>((resolve) => (synced = resolve));
    const io = {
      out: (text: string) => out.push(text),
      err: (text: string) => {
        err.push(text);
        if (text.startsWith('quire: site content')) synced();
      },
    };
    // "Stopping" the preview is editing the catalogue and waiting for the reload's lines.
    const edit = async () => {
      const file = path.join(dir, 'catalog.json');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"priceCents": 1800', '"priceCents": 2000').replace('"title": "Canvas Tote"', '"title": "Canvas Bag"'));
      await syncLine;
    };
    try {
      expect(await main(['preview', dir, '--port', '0'], io, edit)).toBe(0);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(out.join('')).toMatch(/^quire: previewing .* at http:\/\/127\.0\.0\.1:\d+ /);
    // Its in-memory store has no owner: the start lines say where the admin is, with the command.
    expect(out[1]).toBe(`quire: the admin (/admin) needs \`npm start\`: the preview's store has no owner to sign in. Serve the shop with: ${nextSteps(dir).split('\n')[2]!.trim().split(/ {2,}#/)[0]}\n`);
    // (A slow disk may split the write into a second burst: a later reload has nothing to sync.)
    expect(err.slice(0, 2)).toEqual(['quire: reloaded (catalog.json)\n', 'quire: site content (catalog.json): 2 products changed\n']);
    expect(err.filter((line) => line.startsWith('quire: site content'))).toHaveLength(1);
  }, 120_000);
});

describe('quire preview (in process): the terminal names the problems', () => {
  it('lists each problem by file, line and column at the start and after each reload, kept syntax errors included', async () => {
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('DATA_DIR', '');
    const dir = path.join(tmp, 'preview-problems');
    expect(writeStarterSite(dir).ok).toBe(true);
    const page = path.join(dir, 'templates', 'page.jsont');
    const pageText = fs.readFileSync(page, 'utf8');
    fs.writeFileSync(page, '<article>\n\t<h1>{page.title|nope}</h1>\n</article>\n');
    const err: string[] = [];
    let waiting: { match: RegExp; resolve: () => void } | null = null;
    const io = {
      out: () => {},
      err: (text: string) => {
        err.push(text);
        if (waiting?.match.test(text)) waiting.resolve();
      },
    };
    const lineMatching = (match: RegExp) => new Promise<void>((resolve) => (waiting = { match, resolve }));
    const home = path.join(dir, 'content', 'home.json');
    const homeText = fs.readFileSync(home, 'utf8');
    const edit = async () => {
      const broken = lineMatching(/the last good version is still served/);
      fs.writeFileSync(home, homeText.replace('"title": "Welcome",', '"title": "Welcome"'));
      await broken;
      // Both files may reload in one burst or two; the last reload has nothing left to list, and says so.
      const fixed = lineMatching(/^quire: no problems left\n$/);
      fs.writeFileSync(home, homeText);
      fs.writeFileSync(page, pageText);
      await fixed;
    };
    try {
      expect(await main(['preview', dir, '--port', '0'], io, edit)).toBe(0);
    } finally {
      vi.unstubAllEnvs();
    }
    const text = err.join('');
    // Before, the start said "open a page to see them" and a reload that kept a syntax error said only "reloaded".
    // The start prints what `quire check` prints, the file named as the folder was typed.
    expect(text).toContain(`${path.join(dir, 'templates/page.jsont')}:2:18`);
    expect(text).toMatch(/FORMATTER_UNKNOWN/);
    // The reload that fixed the last problem said so (it said only "reloaded").
    expect(err.at(-1)).toBe('quire: no problems left\n');
    expect(text).toMatch(/the last good version is still served, with them on every page:\n {2}\S*preview-problems\/content\/home\.json:4:21 SITE_JSON_INVALID: a ',' is missing here, after this value: the next member starts at line 5, column 3\n/);
  }, 120_000);
});

describe('quire preview (in process): the start prints what quire check prints', () => {
  it('names a missing partial and a script variable by code and file:line, keeps serving, and repeats after a reload', async () => {
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('DATA_DIR', '');
    const dir = path.join(tmp, 'preview-check');
    expect(writeStarterSite(dir).ok).toBe(true);
    const page = path.join(dir, 'templates', 'page.jsont');
    fs.writeFileSync(page, '<h1>{page.title|html}</h1>{page|apply cardd}\n<script>var id = {page.id};</script>\n');
    const err: string[] = [];
    let reloaded: () => void = () => {};
    const second = new Promise<void>((resolve) => (reloaded = resolve));
    let checks = 0;
    const io = {
      out: () => {},
      err: (text: string) => {
        err.push(text);
        if (text.includes('quire: check found') && ++checks === 2) reloaded();
      },
    };
    const edit = async () => {
      fs.writeFileSync(page, fs.readFileSync(page, 'utf8') + '<p></p>\n');
      await second;
    };
    try {
      expect(await main(['preview', dir, '--port', '0'], io, edit)).toBe(0);
    } finally {
      vi.unstubAllEnvs();
    }
    const text = err.join('');
    const at = path.join(dir, 'templates/page.jsont');
    expect(text).toContain(`RuntimeError APPLY_PARTIAL_MISSING: Attempt to apply partial 'cardd' which could not be found.\n  at ${at}:1:27\n`);
    expect(text).toContain('  hint: no partials/cardd.jsont in the site folder and no {.macro cardd} in this file\n');
    expect(text).toContain(`Warning TEMPLATE_SCRIPT_VARIABLE: {page.id} in a <script> is written into the code unescaped`);
    expect(text).toContain(`  at ${at}:2:18\n`);
    expect(text).toContain('quire: check found 1 problem(s), 1 warning(s) (the server keeps running)\n');
    expect(checks).toBe(2);
  }, 120_000);
});

describe('quire preview (in process): the port', () => {
  it('names a --port that is no port number, and a port in use with what to do', async () => {
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('DATA_DIR', '');
    const dir = path.join(tmp, 'preview-port');
    expect(writeStarterSite(dir).ok).toBe(true);
    const capture = () => {
      const io = { stdout: '', stderr: '', out: (s: string) => void (io.stdout += s), err: (s: string) => void (io.stderr += s) };
      return io;
    };
    const net = await import('node:net');
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const bad = capture();
      expect(await main(['preview', dir, '--port', 'abc'], bad)).toBe(2);
      expect(bad.stderr).toMatch(/^quire: --port takes a port number from 0 to 65535, not "abc"\nusage:/);
      const busy = capture();
      const port = (taken.address() as import('node:net').AddressInfo).port;
      expect(await main(['preview', dir, '--port', String(port)], busy, async () => {})).toBe(1);
      expect(busy.stderr).toBe(`quire: cannot start the preview: port ${port} on 127.0.0.1 is in use (another preview or server?); stop it, or choose another port with --port P\n`);
    } finally {
      taken.close();
      vi.unstubAllEnvs();
    }
  }, 120_000);
});

describe('quire COMMAND misused', () => {
  const capture = () => {
    const io = { stdout: '', stderr: '', out: (s: string) => void (io.stdout += s), err: (s: string) => void (io.stderr += s) };
    return io;
  };

  it("says what is missing, then that command's usage as `quire COMMAND --help` prints it (was the bare list of four commands)", async () => {
    const cases: [string[], string][] = [
      [['new'], 'quire: new needs the folder to write the starter site into'],
      [['new', 'a', 'b'], 'quire: new takes one folder, not 2'],
      [['check'], 'quire: check needs a site folder, a folder of templates or a file'],
      [['check', '--jsno', 'x'], 'quire: unknown option --jsno'],
      [['preview'], 'quire: preview needs a site folder'],
      [['render-page', 'site'], 'quire: render-page needs a site folder and a page path (such as /)'],
      // Was read as /nope: the 404 page and exit 0.
      [['render-page', 'site', 'nope'], 'quire: the page path must start with / (such as /nope), not "nope"'],
    ];
    for (const [argv, first] of cases) {
      const io = capture();
      expect(await main(argv, io)).toBe(2);
      const [line, ...usage] = io.stderr.split('\n');
      expect(line).toBe(first);
      expect(usage.join('\n')).toBe(`${usageOf(argv[0])}\n`);
      expect(usageOf(argv[0])).toMatch(new RegExp(`^usage:\\n  quire ${argv[0]} .*\\n      \\w`));
      expect(io.stdout).toBe('');
    }
  });

  it('check --json prints one object on stdout and nothing on stderr, with the exit code of the plain check', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-json-'));
    fs.writeFileSync(path.join(dir, 'card.jsont'), '{.section a}\n');
    const io = capture();
    expect(await main(['check', '--json', path.join(dir, 'card.jsont')], io)).toBe(1);
    expect(io.stderr).toBe('');
    const report = JSON.parse(io.stdout);
    expect(Object.keys(report)).toEqual(['version', 'exitCode', 'checked', 'pathErrors', 'problems']);
    expect(report.problems.map((p: Record<string, unknown>) => [p.code, p.severity, p.line, p.column, p.hint])).toEqual([['EOF_IN_BLOCK', 'error', 2, 1, 'add {.end} where the block should close']]);
    const clean = capture();
    fs.writeFileSync(path.join(dir, 'card.jsont'), '{.section a}{.end}\n');
    expect(await main(['check', path.join(dir, 'card.jsont'), '--json'], clean)).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ version: 1, exitCode: 0, problems: [] });
  });
});

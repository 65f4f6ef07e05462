import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, main } from './quire-cli.ts';

function capture() {
  const io = { stdout: '', stderr: '', out: (s: string) => void (io.stdout += s), err: (s: string) => void (io.stderr += s) };
  return io;
}

const dir = mkdtempSync(join(tmpdir(), 'quire-cli-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('quire render', () => {
  it('prints the HTML, reports diagnostics with a code frame on stderr, and exits 1', async () => {
    const t = file('page.html', '<h1>{title|html}</h1>{x|apply row}\n{y|nope}');
    const d = file('data.json', '{"title": "A & B", "x": {"n": 1.0}}');
    const partials = join(dir, 'partials');
    await import('node:fs').then((fs) => fs.mkdirSync(partials, { recursive: true }));
    writeFileSync(join(partials, 'row.html'), '<i>{n|str}</i>');
    const io = capture();
    const code = await main(['render', t, d, '--partials', partials], io);
    // Safe mode prints what it can; the exit code still says the template has an error.
    expect(code).toBe(1);
    expect(io.stdout).toBe('<h1>A &amp; B</h1><i>1.0</i>\n{y|nope}');
    expect(io.stderr).toContain("FORMATTER_UNKNOWN: Formatter 'nope' is unknown.");
    expect(io.stderr).toContain('> 2 | {y|nope}');
  });

  it('--strict exits 1 on a syntax error and prints nothing', async () => {
    const t = file('bad.html', 'ok {.section}');
    const d = file('empty.json', '{}');
    const io = capture();
    expect(await main(['render', t, d, '--strict'], io)).toBe(1);
    expect(io.stdout).toBe('');
    expect(io.stderr).toContain('WHITESPACE_EXPECTED');
  });

  it('exits 1 on a syntax error in safe mode, after printing what it could', async () => {
    const io = capture();
    expect(await main(['render', file('half.html', '<p>{a}</p>{.section b}'), file('a.json', '{"a": "x"}')], io)).toBe(1);
    expect(io.stdout).toBe('<p>x</p>');
    expect(io.stderr).toContain('EOF_IN_BLOCK');
  });

  it('exits 0 for a clean template, with the renderer formatters known', async () => {
    const io = capture();
    const t = file('img.html', '{hero|image-component}');
    const d = file('img.json', '{"hero": {"src": "/a.jpg", "width": 8, "height": 6, "alt": "A"}}');
    expect(await main(['render', t, d], io)).toBe(0);
    expect(io.stdout).toContain('<img');
    expect(io.stderr).toBe('');
  });

  it('a missing template, data file or partials folder is one line and exit 2', async () => {
    const data = file('d.json', '{}');
    const template = file('t2.html', 'x');
    for (const args of [
      [join(dir, 'missing.html'), data],
      [template, join(dir, 'missing.json')],
      [template, data, '--partials', join(dir, 'no-partials')],
      [dir, data],
    ]) {
      const io = capture();
      expect(await main(['render', ...args], io), args.join(' ')).toBe(2);
      expect(io.stderr).toMatch(/^quire: \S+: (no such file or folder|is a folder, not a file)\n$/);
      expect(io.stdout).toBe('');
    }
  });

  it('refuses an unknown option, an option without its value, a --now that is no integer and a --locale that is no tag (exit 2)', async () => {
    const data = file('d.json', '{}');
    const template = file('t3.html', 'x');
    for (const [extra, message] of [
      [['--stritc'], 'unknown option --stritc'],
      [['--partials'], '--partials needs a value'],
      [['--locale', '--strict'], '--locale needs a value'],
      [['--now', 'abc'], '--now takes milliseconds since 1970 (an integer), not "abc"'],
      [['--locale', '@@'], '--locale takes a language tag such as en-US, not "@@"'],
    ] as const) {
      const io = capture();
      expect(await main(['render', template, data, ...extra], io), extra.join(' ')).toBe(2);
      expect(io.stderr.split('\n')[0]).toBe(`quire: ${message}`);
      expect(io.stdout).toBe('');
    }
    const io = capture();
    expect(await main(['render', template, data, '--strict', '--now', '1700000000000', '--locale', 'fr-FR'], io)).toBe(0);
  });

  it('refuses data that is not UTF-8 at its first bad byte (exit 2), and reads past a byte-order mark', async () => {
    const latin1 = join(dir, 'latin1.json');
    writeFileSync(latin1, Buffer.concat([Buffer.from('{"x": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]));
    const io = capture();
    expect(await main(['render', file('t4.html', '{x}'), latin1], io)).toBe(2);
    expect(io.stderr).toBe(`quire: ${latin1}: not UTF-8 text: byte 0xE9 at line 1, column 11 (save the file as UTF-8)\n`);
    const bom = capture();
    expect(await main(['render', file('t5.html', '{x}'), file('bom.json', '\ufeff{"x": "café"}')], bom)).toBe(0);
    expect(bom.stdout).toBe('café');
  });

  it('rejects malformed JSON data at its line and column', async () => {
    const io = capture();
    const bad = file('bad.json', '{\n  "a": 1,\n  "b": }');
    expect(await main(['render', file('t.html', 'x'), bad], io)).toBe(2);
    expect(io.stderr).toBe(`quire: ${bad}:3:8: Unexpected character at offset 19\n`);
  });

  it("frames a broken partial's own errors after the apply that found them", async () => {
    const partials = mkdtempSync(join(tmpdir(), 'quire-cli-partials-'));
    writeFileSync(join(partials, 'bad.jsont'), 'P[{x|htm}]\n{.section y}');
    const io = capture();
    expect(await main(['render', file('apply.jsont', 'a{@|apply bad}b'), file('d.json', '{"x": 1}'), '--partials', partials], io)).toBe(1);
    expect(io.stderr).toContain("COMPILE_PARTIAL_SYNTAX: Compiling partial 'bad' raised errors:");
    expect(io.stderr).toContain("FORMATTER_UNKNOWN: Formatter 'htm' is unknown.\n  at bad:1:6");
    expect(io.stderr).toContain('EOF_IN_BLOCK');
  });
});

describe('quire check', () => {
  it('exits 1 and frames every syntax error', async () => {
    const good = file('good.html', '{.section a}{b}{.end}');
    const bad = file('unclosed.html', 'x\n  {.section a}');
    const io = capture();
    expect(await main(['check', good, bad], io)).toBe(1);
    expect(io.stderr).toContain('EOF_IN_BLOCK: Reached EOF in the middle of {.section a} started at line 2 char 3');
    expect(io.stdout).toBe('quire: checked 2 template(s) and partial(s); 1 problem(s)\n');
  });

  it('exits 0 when every file compiles', async () => {
    const io = capture();
    expect(await main(['check', file('ok.html', '{a}')], io)).toBe(0);
  });

  it('hands preview and render-page to the renderer, which checks their arguments', async () => {
    const io = capture();
    expect(await main(['render-page', join(dir, 'no-such-site'), '/'], io)).toBe(2);
    expect(io.stderr).toBe(`quire: ${join(dir, 'no-such-site')}: no such folder\n`);
    const usage = capture();
    expect(await main(['preview'], usage)).toBe(2);
    expect(usage.stderr).toContain('quire preview SITE_DIR [--port P]');
  });

  it('render without its two files says so, then its own usage', async () => {
    const io = capture();
    expect(await main(['render', file('one.jsont', '{a}')], io)).toBe(2);
    expect(io.stderr).toBe(
      'quire: render needs a template file and a JSON data file\nusage:\n  quire render TEMPLATE DATA.json [--partials DIR] [--strict] [--locale L] [--now MS]\n      render one template; exit 1 on template errors\n',
    );
  });

  it('prints usage for an unknown command', async () => {
    const io = capture();
    expect(await main(['frobnicate'], io)).toBe(2);
    expect(io.stderr).toContain('quire: unknown command frobnicate');
    expect(io.stderr).toContain('usage:');
  });

  it('with no arguments or --help lists every command with a one-line description (exit 0)', async () => {
    for (const argv of [[], ['--help'], ['-h']]) {
      const io = capture();
      expect(await main(argv, io)).toBe(0);
      for (const [usage, description] of COMMANDS) {
        expect(io.stdout).toContain(`  ${usage}\n      ${description}\n`);
        expect(description).not.toContain('\n');
      }
      expect(COMMANDS.map(([usage]) => usage.split(' ')[1])).toEqual(['new', 'check', 'preview', 'render-page', 'render']);
    }
  });

  it('a command followed by --help or -h prints its own usage and exits 0, whatever else is given', async () => {
    // Before, `quire preview --help` was "unknown option --help" (exit 2) and `quire check -h` looked for a file named -h.
    for (const [usage, description] of COMMANDS) {
      const command = usage.split(' ')[1]!;
      for (const argv of [[command, '--help'], [command, 'some-dir', '-h']]) {
        const io = capture();
        expect(await main(argv, io)).toBe(0);
        expect(io.stdout).toBe(`usage:\n  ${usage}\n      ${description}\n`);
        expect(io.stderr).toBe('');
      }
    }
  });
});

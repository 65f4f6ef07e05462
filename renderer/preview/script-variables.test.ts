import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpecDir } from '../../fixtures/loader.ts';
import { rendererEngine } from '../platform/renderer-engine.ts';
import { BUILTIN_PARTIALS, BUILTIN_TEMPLATES } from '../site/builtin-templates.ts';
import { STARTER_FILES } from './new-site.ts';
import { renderedScriptFrames, scriptProbes, scriptVariableFrames } from './script-variables.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const compile = (text: string, name = 't.jsont') => rendererEngine().compile(text, { name });
/** [code, tag, hint] of each warning of a template. */
const lint = (text: string) =>
  scriptVariableFrames(compile(text), 'templates/t.jsont').map((frame) => {
    const tag = /: (\{[^}]*\})/.exec(frame.text.split('\n', 1)[0]!)?.[1];
    return [frame.code, frame.where, tag];
  });

describe('scriptVariableFrames (quire check)', () => {
  it('warns about a value written into code, a quoted string or a stylesheet unescaped, at its tag', () => {
    expect(lint('<script>\nvar price = {item.price};\n</script>')).toEqual([['TEMPLATE_SCRIPT_VARIABLE', 'templates/t.jsont:2:13', '{item.price}']]);
    expect(lint('<style>.x{color:{color}}</style>')).toEqual([['TEMPLATE_STYLE_VARIABLE', 'templates/t.jsont:1:17', '{color}']]);
    expect(lint('<script>var n = "{name}"; var m = \'{name|html}\'; var t = `{name}`;</script>').map((w) => w[2])).toEqual(['{name}', '{name|html}', '{name}']);
    expect(lint('<script type="application/ld+json">{"name": "{title}", "offers": {offers|raw}}</script>').map((w) => w[2])).toEqual(['{title}', '{offers|raw}']);
    expect(lint('<script>var m = "{name|json}";</script>').map((w) => w[2])).toEqual(['{name|json}']);
    // `if(a){b}` is the variable b (LANGUAGE §1.5): the hint says how to keep the script's braces.
    const [block] = scriptVariableFrames(compile('<script>if(a){b}</script>'), 't.jsont');
    expect(block!.text.split('\n').at(-1)).toBe("  hint: if {b} is the script's own block, write it as '{ b }' (a space after '{' makes it text); for the value, write {b|json}");
    expect(block!.warning).toBe(true);
    expect(block!.text.split('\n')[0]).toMatch(/^Warning TEMPLATE_SCRIPT_VARIABLE: \{b\} in a <script> is written into the code unescaped/);
  });

  it('leaves alone what is safe there, and what is not a script or style', () => {
    const valid = [
      '<script>var price = {item.price|json}, all = {items|json-pretty}, n = {items|count}, i = {@index}, r = {x|round};</script>',
      '<script>var u = "/p/{slug|encode-uri-component}?q={q|url-encode}";</script>',
      '<script type="application/ld+json">{"name": {title|json}}</script>',
      '<script type="text/template"><p>{name}</p></script><script src="{url|htmlattr}"></script>',
      '<p>{name}</p><!-- <script>var x = {x};</script> --><style>.x{color:{color|website-color}} .y{width:{w|round}px}</style>',
      '<script>// {x} in a comment\n/* and {y} */ var re = /"/g; var v = {v|json};</script>',
      '<script>{.var @p price|json}var a = {@p}; {.eval @n = 1 + 2}var b = {@n}; var o = {a: 1}; if (a) { b }</script>',
      '<script>{x|apply snippet}</script>',
      '<script>var s = {.section page.subtitle}{@|json}{.or}null{.end};</script>',
      '<script>if(a){.meta-left}b(){.meta-right}</script>',
    ];
    for (const text of valid) expect([text, lint(text)]).toEqual([text, []]);
  });

  it('raises nothing on the templates Quire ships: fixtures, the demo site, the renderer and the starter', () => {
    const texts: [string, string][] = [];
    for (const folder of ['fixtures/engine', 'fixtures/formatters', 'fixtures/predicates']) {
      const walk = (dir: string) => {
        const names = fs.readdirSync(dir, { withFileTypes: true });
        if (names.some((e) => e.name.endsWith('.jsont'))) {
          for (const c of loadSpecDir(dir)) {
            texts.push([c.name, c.template]);
            for (const [name, text] of Object.entries(c.partials ?? {})) texts.push([name, text]);
          }
        }
        for (const e of names) if (e.isDirectory()) walk(path.join(dir, e.name));
      };
      walk(path.join(root, folder));
    }
    for (const folder of ['templates', 'partials']) {
      for (const name of fs.readdirSync(path.join(root, 'fixtures/sites/demo', folder))) texts.push([name, fs.readFileSync(path.join(root, 'fixtures/sites/demo', folder, name), 'utf8')]);
    }
    for (const [name, text] of [...Object.entries(BUILTIN_TEMPLATES), ...Object.entries(BUILTIN_PARTIALS)]) texts.push([name, text]);
    for (const [name, text] of Object.entries(STARTER_FILES)) if (name.endsWith('.jsont')) texts.push([name, text]);
    expect(texts.length).toBeGreaterThan(400);
    const warnings = texts.flatMap(([name, text]) => scriptVariableFrames(compile(text, name), name).map((frame) => frame.text));
    expect(warnings).toEqual([]);
  });
});

describe('renderedScriptFrames (preview, render-page)', () => {
  const template = compile('<script>\nvar price = {item.price};\nvar n = "{name}";\n</script>\n<style>.x{color:{color}}</style>');
  const probes = scriptProbes([['templates/t.jsont', template]]);
  const frames = (data: unknown) => renderedScriptFrames(template.render(data).html, probes);

  it('says which variable rendered empty for the data, at its tag, with what it left', () => {
    const found = frames({ name: 'Ann' });
    expect(found.map((frame) => [frame.code, frame.where, frame.warning])).toEqual([
      ['TEMPLATE_SCRIPT_BROKEN', 'templates/t.jsont:2:13', true],
      ['TEMPLATE_SCRIPT_BROKEN', 'templates/t.jsont:5:17', true],
    ]);
    expect(found[0]!.text.split('\n')[0]).toBe("Warning TEMPLATE_SCRIPT_BROKEN: {item.price} rendered empty in this page's <script>, leaving 'var price = ;'");
    expect(found[1]!.text.split('\n')[0]).toBe("Warning TEMPLATE_SCRIPT_BROKEN: {color} rendered empty in this page's <style>, leaving '.x{color:}'");
  });

  it('names the value that stopped the script parsing, and nothing when the page is fine', () => {
    const found = frames({ item: { price: 3 }, name: 'O"Brien', color: 'red' });
    expect(found.map((frame) => frame.where)).toEqual(['templates/t.jsont:3:10']);
    expect(found[0]!.text.split('\n')[0]).toMatch(/^Warning TEMPLATE_SCRIPT_BROKEN: this page's <script> does not parse \(SyntaxError: .*\) after \{name\} rendered 'O"Brien'$/);
    expect(frames({ item: { price: 3 }, name: 'Ann', color: 'red' })).toEqual([]);
    // A script broken by its own text is not blamed on a variable.
    const own = compile('<script>var price = {price|json}; if (</script>');
    expect(renderedScriptFrames(own.render({ price: 1 }).html, scriptProbes([['t', own]]))).toEqual([]);
  });
});

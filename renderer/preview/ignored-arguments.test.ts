import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocs, renderExample } from '../../docs/plugin-docs.ts';
import { rendererEngine } from '../platform/renderer-engine.ts';
import { checkPaths } from './check-site.ts';
import { ignoredArgumentFrames, pluginsTakingNoArguments } from './ignored-arguments.ts';

const frames = (text: string) => ignoredArgumentFrames(rendererEngine().compile(text, { name: 't.jsont' }), 'templates/t.jsont');

describe('ignoredArgumentFrames', () => {
  it('warns at the argument of a predicate or formatter that takes none ({.sold-out? variant} tested the whole product, silently)', () => {
    const found = frames('{.section product}{.sold-out? variant}sold{.or on-sale? x y}sale{.end}\n<h1>{title|html x}</h1>{.if has-variants? a}v{.end}{.var @t title|json b}{.end}');
    expect(found.map((frame) => [frame.code, frame.where, frame.warning, frame.text.split('\n')[0]])).toEqual([
      ['TEMPLATE_ARGS_IGNORED', 'templates/t.jsont:1:31', true, "Warning TEMPLATE_ARGS_IGNORED: predicate sold-out? takes no arguments, so 'variant' is ignored: it works as {.sold-out?} alone"],
      ['TEMPLATE_ARGS_IGNORED', 'templates/t.jsont:1:57', true, "Warning TEMPLATE_ARGS_IGNORED: predicate on-sale? takes no arguments, so 'x y' is ignored: it works as {.on-sale?} alone"],
      ['TEMPLATE_ARGS_IGNORED', 'templates/t.jsont:2:17', true, "Warning TEMPLATE_ARGS_IGNORED: formatter html takes no arguments, so 'x' is ignored: it works as |html alone"],
      ['TEMPLATE_ARGS_IGNORED', 'templates/t.jsont:2:43', true, "Warning TEMPLATE_ARGS_IGNORED: predicate has-variants? takes no arguments, so 'a' is ignored: it works as {.has-variants?} alone"],
      ['TEMPLATE_ARGS_IGNORED', 'templates/t.jsont:2:72', true, "Warning TEMPLATE_ARGS_IGNORED: formatter json takes no arguments, so 'b' is ignored: it works as |json alone"],
    ]);
    expect(found[0]!.text.split('\n').at(-1)).toBe('  hint: what sold-out? does, with an example: docs/reference/predicates.md#sold-out');
  });

  it('places the warning at the argument, past a delimiter written before it ({.active-time?:x} pointed at the colon)', () => {
    const found = frames('{.active-time?:x}a{.end}{title|html:y}');
    expect(found.map((frame) => frame.where)).toEqual(['templates/t.jsont:1:16', 'templates/t.jsont:1:37']);
  });

  it('says nothing of plugins that take arguments, calls without any, nor names the engine does not know', () => {
    expect(frames('{.section product}{.sold-out?}a{.end}{.equal? a b}e{.end}{title|truncate 10}{title|html}{.end}{.nope? x}y{.end}')).toEqual([]);
  });

  it("every plugin whose reference says it takes no arguments renders its reference example the same with one added (the warning's premise)", () => {
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const kind of ['formatters', 'predicates'] as const) {
      const docs = loadDocs(kind);
      const none = pluginsTakingNoArguments(kind);
      expect(none.size, kind).toBeGreaterThan(50);
      for (const name of none) {
        const doc = [...docs.values()].map((family) => family[name]).find(Boolean)!;
        // `|name` before `}` or `|`; `{.name}`, `{.or name}`, `{.if name}` for a predicate.
        const call = kind === 'formatters' ? new RegExp(`\\|${escape(name)}(?=[}|])`, 'g') : new RegExp(`(?:\\{\\.|\\{\\.or |\\{\\.if )${escape(name)}(?=})`, 'g');
        const given = doc.example.template.replace(call, '$& stray');
        expect(given, `${kind} ${name}`).not.toBe(doc.example.template);
        expect(renderExample({ ...doc, example: { ...doc.example, template: given } }), `${kind} ${name}`).toEqual(renderExample(doc));
      }
    }
  });

  it('is one of quire check\'s warnings, for a site folder and a template given on its own (exit 0)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-args-'));
    fs.mkdirSync(path.join(dir, 'templates'));
    fs.writeFileSync(path.join(dir, 'templates/page.jsont'), '<h1>{page.title|html}</h1>{.section page}{.sold-out? variant}x{.end}{.end}\n');
    for (const given of [dir, path.join(dir, 'templates/page.jsont')]) {
      const result = await checkPaths([given]);
      expect(result.exitCode).toBe(0);
      expect(result.frames.map((frame) => [frame.code, frame.where.slice(dir.length + 1), frame.warning])).toEqual([['TEMPLATE_ARGS_IGNORED', 'templates/page.jsont:1:54', true]]);
    }
  });
});

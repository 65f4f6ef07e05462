import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { EVENTS_PATH, injectBeforeBodyEnd, isSiteFile, ReloadHub, reloadScript, watchFolder } from './live-reload.ts';

/** Runs the page script against a fake EventSource; returns a way to fire events and the reload count. */
function runScript(version: number) {
  const listeners = new Map<string, ((event: { data: string }) => void)[]>();
  let opened = '';
  let reloads = 0;
  class FakeEventSource {
    constructor(url: string) {
      opened = url;
    }
    addEventListener(name: string, listener: (event: { data: string }) => void) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
    }
  }
  const code = /<script data-quire-preview>(.*)<\/script>/s.exec(reloadScript(version))![1]!;
  vm.runInNewContext(code, { EventSource: FakeEventSource, location: { reload: () => void reloads++ }, JSON });
  return {
    opened: () => opened,
    fire: (name: string, data: unknown) => listeners.get(name)?.forEach((listener) => listener({ data: JSON.stringify(data) })),
    reloads: () => reloads,
  };
}

describe('reloadScript', () => {
  it('listens on the events path and reloads on a reload event', () => {
    const page = runScript(3);
    expect(page.opened()).toBe(EVENTS_PATH);
    page.fire('reload', { version: 4 });
    expect(page.reloads()).toBe(1);
  });

  it('reloads on hello only when the server has moved past the page version', () => {
    const page = runScript(3);
    page.fire('hello', { version: 3 });
    expect(page.reloads()).toBe(0);
    page.fire('hello', { version: 5 });
    expect(page.reloads()).toBe(1);
  });
});

describe('ReloadHub', () => {
  it("starts at a version no earlier hub had, so a page of a stopped preview reloads on the next one's hello", () => {
    // A page rendered by a preview that never reloaded, then the preview stopped and started again.
    const before = new ReloadHub();
    const page = runScript(before.version);
    const restarted = new ReloadHub();
    expect(restarted.version).not.toBe(before.version);
    page.fire('hello', { version: restarted.version });
    expect(page.reloads()).toBe(1);
  });
});

describe('injectBeforeBodyEnd', () => {
  it('goes before the last closing body tag, whatever its case', () => {
    expect(injectBeforeBodyEnd('<body><p>a</p></BODY></html>', '<i>x</i>')).toBe('<body><p>a</p><i>x</i></BODY></html>');
    expect(injectBeforeBodyEnd('<p>"</body>" in text</p></body>', '!')).toBe('<p>"</body>" in text</p>!</body>');
  });

  it('appends to a document without a body end', () => {
    expect(injectBeforeBodyEnd('<p>fragment</p>', '!')).toBe('<p>fragment</p>!');
  });
});

describe('isSiteFile', () => {
  it('takes templates, JSON and CSS and skips editor droppings', () => {
    expect(['templates/page.jsont', 'content/a.json', 'styles.css', 'partials/x.jsont'].every(isSiteFile)).toBe(true);
    expect(['templates/.page.jsont.swp', 'content/a.json~', 'notes.md', '.DS_Store', 'templates/4913', 'x.tmp'].some(isSiteFile)).toBe(false);
  });
});

describe('watchFolder', () => {
  it('reports a burst of writes once, with every file, and ignores other files', async () => {
    // The debounce runs on fake timers: on a busy machine the file events of one burst can
    // arrive further apart than any real debounce, so the burst is defined by the test (every
    // event delivered, then the debounce elapses), not by the speed of the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-watch-'));
    fs.mkdirSync(path.join(dir, 'templates'));
    const calls: string[][] = [];
    let notify: () => void = () => {};
    const watcher = watchFolder(
      dir,
      async (files) => {
        calls.push([...files].sort());
        notify();
      },
      40,
    );
    // Second watchers on the same folders: libuv hands each event to every watcher of a
    // folder in the same turn, so once these have seen every write, so has watchFolder's.
    const seen = new Set<string>();
    let allSeen: () => void = () => {};
    const observe = (folder: string) =>
      fs.watch(path.join(dir, folder), (_event, name) => {
        if (name !== null) seen.add(path.join(folder, String(name)));
        if (seen.size === 3) allSeen();
      });
    const observers = [observe(''), observe('templates')];
    try {
      const delivered = new Promise<void>((resolve) => (allSeen = resolve));
      const called = new Promise<void>((resolve) => (notify = resolve));
      fs.writeFileSync(path.join(dir, 'templates', 'page.jsont'), 'a');
      fs.writeFileSync(path.join(dir, 'site.json'), '{}');
      fs.writeFileSync(path.join(dir, 'notes.md'), 'ignored');
      await delivered;
      await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toEqual([]);
      vi.advanceTimersByTime(39);
      expect(calls).toEqual([]);
      vi.advanceTimersByTime(1);
      await called;
      vi.advanceTimersByTime(1000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toEqual([['site.json', path.join('templates', 'page.jsont')]]);
    } finally {
      for (const observer of observers) observer.close();
      watcher.close();
      vi.useRealTimers();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('watchFolder after saves that replace the file', () => {
  /** A watcher whose calls can be awaited one by one. */
  function watched(dir: string) {
    const calls: string[][] = [];
    const waiting: ((files: string[]) => void)[] = [];
    const watcher = watchFolder(
      dir,
      async (files) => {
        const next = waiting.shift();
        if (next) next(files);
        else calls.push(files);
      },
      20,
    );
    /** The next call that names `file` (calls naming only other files are skipped). */
    const callWith = async (file: string): Promise<string[]> => {
      for (;;) {
        const files = calls.shift() ?? (await new Promise<string[]>((resolve) => waiting.push(resolve)));
        if (files.includes(file)) return files;
      }
    };
    return { watcher, callWith };
  }

  it('keeps seeing a template after an atomic save (temporary file renamed over it)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-watch-'));
    fs.mkdirSync(path.join(dir, 'templates'));
    const page = path.join(dir, 'templates', 'page.jsont');
    fs.writeFileSync(page, 'a');
    const { watcher, callWith } = watched(dir);
    const rel = path.join('templates', 'page.jsont');
    try {
      // Node 20's recursive watch on Linux lost the file here: every save after the first
      // atomic one went unseen, so the preview never reloaded again.
      fs.writeFileSync(page + '.tmp', 'b');
      fs.renameSync(page + '.tmp', page);
      await callWith(rel);
      fs.writeFileSync(page + '.tmp', 'c');
      fs.renameSync(page + '.tmp', page);
      await callWith(rel);
      fs.writeFileSync(page, 'd');
      await callWith(rel);
    } finally {
      watcher.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('watches a folder made while watching, and a folder renamed under its new name', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-watch-'));
    const { watcher, callWith } = watched(dir);
    try {
      fs.mkdirSync(path.join(dir, 'content'));
      fs.mkdirSync(path.join(dir, 'content', 'blog'));
      fs.writeFileSync(path.join(dir, 'content', 'blog', 'post.json'), '{}');
      await callWith(path.join('content', 'blog', 'post.json'));
      fs.renameSync(path.join(dir, 'content', 'blog'), path.join(dir, 'content', 'journal'));
      await callWith(path.join('content', 'journal', 'post.json'));
      fs.writeFileSync(path.join(dir, 'content', 'journal', 'post.json'), '{"a":1}');
      await callWith(path.join('content', 'journal', 'post.json'));
      // Moved out of the site folder: only the folder's own name is reported.
      fs.renameSync(path.join(dir, 'content', 'journal'), path.join(dir, '..', path.basename(dir) + '-journal'));
      await callWith(path.join('content', 'journal'));
    } finally {
      watcher.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(dir + '-journal', { recursive: true, force: true });
    }
  });
});

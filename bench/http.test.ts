// The HTTP harness's pure parts: option parsing, summaries over rounds and the verdict.
import { describe, expect, it } from 'vitest';
import { type HttpMeasure, formatHttpResults, judgeHttp, parseHttpArgs, summarizeHttp } from './http.ts';

const m = (target: HttpMeasure['target'], reqPerSec: number, p99: number, failures = 0): HttpMeasure => ({ target, reqPerSec, p50: p99 / 2, p99, failures, bytesPerResponse: 1000, cpuUsPerRequest: 50 });

describe('bench:http', () => {
  it('parses bounded options', () => {
    expect(parseHttpArgs(['--duration', '5', '--connections', '20', '--no-write']).duration).toBe(5);
    expect(parseHttpArgs(['--quick']).rounds).toBe(1);
    expect(() => parseHttpArgs(['--duration', '0'])).toThrow(/duration/);
    expect(() => parseHttpArgs(['--bogus'])).toThrow(/unknown option/);
  });

  it('takes the median of each server over rounds', () => {
    const s = summarizeHttp([m('quire', 100, 5), m('quire', 300, 7), m('quire', 200, 9), m('reference', 40, 20)]);
    expect(s.find((x) => x.target === 'quire')).toMatchObject({ reqPerSec: 200, p99: 7 });
  });

  it('passes at 5x the reference with p99 under 5 ms, and misses otherwise', () => {
    expect(judgeHttp(summarizeHttp([m('quire', 500, 4), m('reference', 100, 30)])).pass).toBe(true);
    const slow = judgeHttp(summarizeHttp([m('quire', 490, 4), m('reference', 100, 30)]));
    expect(slow.pass).toBe(false);
    expect(slow.reasons.join()).toMatch(/4\.90x/);
    expect(judgeHttp(summarizeHttp([m('quire', 900, 5), m('reference', 100, 30)])).reasons.join()).toMatch(/p99 5 ms/);
    expect(judgeHttp(summarizeHttp([m('quire', 900, 5, 3), m('reference', 100, 30)])).reasons.join()).toMatch(/3 failed/);
  });

  it('reports ratios against the reference and the hello-world', () => {
    const s = summarizeHttp([m('quire', 500, 4), m('reference', 100, 30), m('hello', 5000, 1)]);
    const md = formatHttpResults({ date: 'd', machine: 'm', node: 'v20', commit: 'c', options: 'o', renders: 2 }, s, judgeHttp(s));
    expect(md).toContain('| quire | 500 |');
    expect(md).toMatch(/\| quire .*\| 5\.00x \| 0\.10x \|/);
    expect(md).toContain('| 1,000 | 50 | 0 |');
    expect(md).toContain('**pass**');
  });
});

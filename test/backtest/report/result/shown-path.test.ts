import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shownPath } from '../../../../backtest/report/index.ts';

describe('shownPath', () => {
  it('names a file under the working directory relative to it, whether given absolute or relative', () => {
    expect(shownPath('/home/ann/proj/out/paper-session.jsonl.gz', '/home/ann/proj')).toBe(
      join('out', 'paper-session.jsonl.gz'),
    );
    expect(shownPath('out/../data/btc.jsonl', '/home/ann/proj')).toBe(join('data', 'btc.jsonl'));
  });

  it('names a file outside the working directory by its absolute path, not a ../ chain', () => {
    expect(shownPath('/data/btc.jsonl', '/home/ann/proj')).toBe('/data/btc.jsonl');
    expect(shownPath('../other/btc.jsonl', '/home/ann/proj')).toBe('/home/ann/other/btc.jsonl');
    expect(shownPath('/home/ann/proj', '/home/ann/proj')).toBe('/home/ann/proj');
  });

  it('keeps a file whose name merely starts with two dots inside', () => {
    expect(shownPath('/home/ann/proj/..hidden/x.jsonl', '/home/ann/proj')).toBe(join('..hidden', 'x.jsonl'));
  });

  it('always opens the same file from the working directory', () => {
    const segment = fc.constantFrom('a', 'b', '..', '.', '..x', 'out');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), fc.boolean(), (parts, absolute) => {
        const cwd = '/w/proj/run';
        const given = absolute ? `/${parts.join('/')}` : parts.join('/');
        expect(resolve(cwd, shownPath(given, cwd))).toBe(resolve(cwd, given));
      }),
    );
  });
});

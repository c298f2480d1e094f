import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLines } from '../../../../backtest/report/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('line reader', () => {
  it('gives back the lines of any UTF-8 text, across 64 KiB chunk boundaries and multi-byte characters', () => {
    const line = fc.string({ maxLength: 30_000, unit: 'grapheme' }).map((s) => s.replaceAll('\n', ''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.boolean(), (lines, trailingBreak) => {
        const file = join(dir, 'lines.txt');
        const text = lines.join('\n') + (trailingBreak && lines.length > 0 ? '\n' : '');
        writeFileSync(file, text);
        const expected = text === '' ? [] : text.replace(/\n$/, '').split('\n');
        expect([...readLines(file)]).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });

  it('closes the file when the reader stops early and reads it again from the start', () => {
    const file = join(dir, 'many.txt');
    writeFileSync(file, `${Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join('\n')}\n`);
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    for (let round = 0; round < 100; round++) {
      for (const l of readLines(file)) {
        expect(l).toBe('line 0');
        break;
      }
    }
    expect(openFiles()).toBe(before);
    expect([...readLines(file)].at(-1)).toBe('line 49999');
  });
});

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readResult, resultToJson, writeResultFiles } from '../../../../backtest/report/index.ts';
import {
  isLaterVersion,
  resultVersionWarning,
  resultWriter,
} from '../../../../backtest/report/result/result-version.ts';
import { KEEL_VERSION } from '../../../../core/model/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';
import { tempDirsRemovedAfterAll } from '../../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-result-version-read-');

describe('the Keel that wrote a result', () => {
  it('compares versions by major, minor and patch as numbers', () => {
    expect(isLaterVersion('0.10.0', '0.9.9')).toBe(true);
    expect(isLaterVersion('0.2.0', '0.2.0')).toBe(false);
    expect(isLaterVersion('0.1.9', '0.2.0')).toBe(false);
    expect(isLaterVersion('1.0.0', '0.99.99')).toBe(true);
    expect(isLaterVersion('next', '0.2.0')).toBe(false);
    const part = fc.integer({ min: 0, max: 1000 });
    fc.assert(
      fc.property(fc.tuple(part, part, part), fc.tuple(part, part, part), (a, b) => {
        const [va, vb] = [a.join('.'), b.join('.')];
        expect(isLaterVersion(va, vb) && isLaterVersion(vb, va)).toBe(false);
        expect(isLaterVersion(va, vb) || isLaterVersion(vb, va) || va === vb).toBe(true);
      }),
    );
  });

  it('is warned of only when it is later than this Keel', () => {
    expect(resultVersionWarning(undefined, '0.2.0')).toBeUndefined();
    expect(resultVersionWarning('0.2.0', '0.2.0')).toBeUndefined();
    expect(resultVersionWarning('0.1.0', '0.2.0')).toBeUndefined();
    expect(resultVersionWarning('0.3.0', '0.2.0')).toMatch(/Keel 0\.3\.0, later than this Keel \(0\.2\.0\)/);
  });

  it('is named in the report words, an older Keel when the result does not say', () => {
    expect(resultWriter('0.2.0')).toBe('Keel 0.2.0');
    expect(resultWriter(undefined)).toBe('an older Keel, before 0.2.0');
  });

  it('is warned of by readResult when later than this Keel, streamed or whole', async () => {
    const result = aBacktestResult(20);
    const later = { ...result, meta: { ...result.meta, keel: '999.0.0' } };
    const paths = await writeResultFiles(later, aTempDir());
    for (const streamAboveBytes of [0, undefined]) {
      const warnings: string[] = [];
      const back = await readResult(paths.json, { streamAboveBytes, onWarning: (w) => warnings.push(w) });
      back.dispose?.();
      expect(warnings).toEqual([`${paths.json}: ${resultVersionWarning('999.0.0')}`]);
    }
  });

  it('is not warned of when this Keel or an older one wrote the result', async () => {
    const result = aBacktestResult(5);
    const dir = aTempDir();
    for (const [name, written] of [
      ['same.json', { ...result, meta: { ...result.meta, keel: KEEL_VERSION } }],
      ['older.json', { ...result, meta: { ...result.meta, keel: '0.1.0' } }],
      ['before-0.2.0.json', result],
    ] as const) {
      const file = join(dir, name);
      await writeFile(file, resultToJson(written));
      const warnings: string[] = [];
      await readResult(file, { onWarning: (w) => warnings.push(w) });
      expect(warnings).toEqual([]);
    }
    expect(result.meta.keel).toBeUndefined();
  });
});

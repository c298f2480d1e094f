import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOhlcvCsv } from '../../../../backtest/csv/index.ts';
import { resultFromJson, resultToJson } from '../../../../backtest/report/index.ts';
import { sessionResult } from '../../../../config/compose/session-result.ts';
import { KEEL_VERSION } from '../../../../core/model/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';
import { keelInProcess } from '../../../kit/keel-in-process.ts';
import { aSessionRecord } from '../../../kit/session-records.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-result-version-');
const MINUTE = 60_000;
const T0 = Date.UTC(2025, 0, 1);

describe('the Keel version in a result', () => {
  it('is written as meta.keel by keel backtest', async () => {
    const dir = tempDir();
    const rows = Array.from({ length: 50 }, (_, i) => `${T0 + i * MINUTE},100,110,90,${100 + (i % 7)},10`);
    writeFileSync(join(dir, 'b.csv'), `timestamp,open,high,low,close,volume\n${rows.join('\n')}\n`);
    const recording = join(dir, 'b.jsonl');
    await importOhlcvCsv({ input: join(dir, 'b.csv'), output: recording, sym: 'BINANCE_PERP_BTC_USDT' });
    const json = join(dir, 'r.json');
    const out = await keelInProcess([
      'backtest',
      'config/examples/sma-cross-backtest.yaml',
      '--no-progress',
      '--recording',
      recording,
      '--set',
      `report.json=${json}`,
      '--set',
      `report.html=${join(dir, 'r.html')}`,
    ]);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(readFileSync(json, 'utf8')).meta.keel).toBe(KEEL_VERSION);
  });

  it('is written as meta.keel by a paper or live session', () => {
    expect(sessionResult(aSessionRecord()).meta.keel).toBe(KEEL_VERSION);
  });

  it('is absent from a result an older Keel wrote, which reads as before', () => {
    const { keel: _keel, ...older } = aBacktestResult(20).meta;
    const text = resultToJson({ ...aBacktestResult(20), meta: older });
    expect(text).not.toContain('"keel"');
    expect(resultFromJson(text).meta.keel).toBeUndefined();
  });
});

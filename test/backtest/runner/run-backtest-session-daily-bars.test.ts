import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { importOhlcvCsv } from '../../../backtest/csv/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const AAPL = 'US_EQUITY_AAPL';
const aTempDir = tempDirsRemovedAfterAll('keel-session-daily-');

describe('daily bars of a US equity built from hourly bars stamped on the half hour (Yahoo 1h)', () => {
  it("delivers each day's bar with the next session's first hourly bar, as documented", async () => {
    const dir = aTempDir();
    const rows = ['Datetime,Open,High,Low,Close,Volume'];
    for (const day of ['2026-01-05', '2026-01-06', '2026-01-07'])
      for (const hh of ['09', '10', '11', '12', '13', '14', '15'])
        rows.push(`${day} ${hh}:30:00,100,101,99,100,1000`);
    await writeFile(join(dir, 'aapl-1h.csv'), `${rows.join('\n')}\n`);
    await importOhlcvCsv({
      input: join(dir, 'aapl-1h.csv'),
      output: join(dir, 'aapl-1h.jsonl'),
      sym: AAPL,
      zone: 'America/New_York',
      interval: '1h',
    });
    const seen: string[] = [];
    const watcher = defineStrategy({
      name: 'daily-watcher',
      params: z.object({}),
      state: () => ({}),
      onStart: (ctx) => ctx.watchBars(AAPL, '1d'),
      onBar: (ctx, bar) => {
        if (bar.interval === '1d')
          seen.push(
            `${new Date(bar.openTime).toISOString().slice(0, 10)} seen ${new Date(ctx.now()).toISOString()}`,
          );
        return undefined;
      },
    });
    const result = await runBacktest({
      recordings: [join(dir, 'aapl-1h.jsonl')],
      decode: decodeMarketRecord,
      instruments: [
        anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' }),
      ],
      strategies: [{ id: 's', strategy: watcher }],
      gate: new RiskGate(),
      startingCash: D(100_000),
      closeAtEnd: false,
    });
    result.dispose?.();
    // Nothing comes overnight to close Monday's bar (its last hourly bar, 15:30-16:30 New York,
    // ends at 21:30Z): it closes with Tuesday's first hourly bar (10:30 New York, 15:30Z, received
    // with the default market-data delay); the last day's bar never closes. Live does the same;
    // README.md ("Bars come from the feed's KLINE channel") says so.
    expect(seen).toEqual([
      '2026-01-05 seen 2026-01-06T15:30:00.005Z',
      '2026-01-06 seen 2026-01-07T15:30:00.005Z',
    ]);
  });
});

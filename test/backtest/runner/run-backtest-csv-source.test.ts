import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { importOhlcvCsv } from '../../../backtest/csv/index.ts';
import { type BacktestResult, resultToJson } from '../../../backtest/report/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const AAPL = 'US_EQUITY_AAPL';
const aTempDir = tempDirsRemovedAfterEach('keel-csv-source-');

/** Buys 10 shares on the first bar and sells them on the third. */
const inAndOut = defineStrategy({
  name: 'in-and-out',
  params: z.object({}),
  state: () => ({ bars: 0 }),
  onStart: (ctx) => ctx.watchBars(AAPL, '1d'),
  onBar: (ctx) => {
    ctx.state.bars++;
    if (ctx.state.bars === 1) return [ctx.order.market({ sym: AAPL, side: 'BUY', qty: '10' })];
    if (ctx.state.bars === 3) return [ctx.order.market({ sym: AAPL, side: 'SELL', qty: '10' })];
    return undefined;
  },
});

/** Yahoo's daily layout, newest row last, one null holiday row. */
const YAHOO = [
  'Date,Open,High,Low,Close,Adj Close,Volume',
  '2024-01-02,100,102,99,101,101,1000',
  '2024-01-03,101,105,100,104,104,1000',
  '2024-01-04,null,null,null,null,null,null',
  '2024-01-05,104,106,103,105,105,1000',
  '2024-01-08,105,110,104,109,109,1000',
  '2024-01-09,109,111,108,110,110,1000',
  '',
].join('\n');

/**
 * The result without the name of what was replayed, which differs between a CSV and its import,
 * and the warnings (the CSV's rows skipped are warned of where the import said them).
 */
function withoutSourceNames(result: BacktestResult): string {
  return resultToJson({
    ...result,
    meta: {
      ...result.meta,
      recordings: result.meta.recordings.map((r) => ({ ...r, path: '' })),
      warnings: [],
    },
  });
}

describe('backtest runner: an OHLCV CSV among the recordings', () => {
  it('replays it as it replays the recording keel import-csv makes of it, writing nothing', async () => {
    const dir = aTempDir();
    const csv = join(dir, 'aapl.csv');
    writeFileSync(csv, YAHOO);
    const instruments = [anInstrument(AAPL)];
    const slots = [{ id: 's', strategy: inAndOut }];
    const recording = join(dir, 'aapl.jsonl');
    await importOhlcvCsv({ input: csv, output: recording, sym: AAPL });
    const imported = await runBacktest(barRunOptions(recording, instruments, slots));
    const onTheFly = await runBacktest({
      ...barRunOptions(recording, instruments, slots),
      recordings: [{ input: csv, sym: AAPL }],
      // A CSV keeps no event cache: nothing is written next to it.
      eventCache: { decoderId: 'test' },
    });
    expect(imported.trades.length).toBe(1);
    expect(withoutSourceNames(onTheFly)).toBe(withoutSourceNames(imported));
    expect(onTheFly.meta.recordings).toEqual([
      {
        path: csv,
        synthetic: false,
        description: 'OHLCV bars imported from aapl.csv (1d, times read in UTC)',
      },
    ]);
    // Buys 10 at the second bar's open (101), sells at the fourth's (105): +40 before fees.
    const trade = [...onTheFly.trades][0];
    expect([trade?.entryPrice.toFixed(), trade?.exitPrice.toFixed(), trade?.grossPnl.toFixed()]).toEqual([
      '101',
      '105',
      '40',
    ]);
    expect(onTheFly.meta.warnings).toEqual([
      ...(imported.meta.warnings ?? []),
      `${csv}: 1 row(s) skipped (line 4: no prices (empty or null row))`,
    ]);
    expect(readdirSync(dir).sort()).toEqual(['aapl.csv', 'aapl.jsonl']);
    imported.dispose?.();
    onTheFly.dispose?.();
  });

  it('reads it with the import options: a zone, what the time means, an interval', async () => {
    const dir = aTempDir();
    const csv = join(dir, 'bars.csv');
    // Hourly bars stamped at their close in New York time (EST, UTC-5 in January).
    writeFileSync(
      csv,
      [
        'time,open,high,low,close',
        '2024-01-02 10:00,1,1,1,1',
        '2024-01-02 11:00,2,2,2,2',
        '2024-01-02 12:00,3,3,3,3',
      ].join('\n'),
    );
    const seen: string[] = [];
    const probe = defineStrategy({
      name: 'probe',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(AAPL, '1h'),
      onBar: (_ctx, bar) => {
        seen.push(`${new Date(bar.openTime).toISOString()} ${bar.close}`);
      },
    });
    const result = await runBacktest({
      ...barRunOptions(csv, [anInstrument(AAPL)], [{ id: 'p', strategy: probe }]),
      recordings: [{ input: csv, sym: AAPL, zone: 'America/New_York', timestampIs: 'close', interval: '1h' }],
    });
    // 10:00 EST is 15:00 UTC, the close of the bar that opened at 14:00 UTC.
    expect(seen).toEqual([
      '2024-01-02T14:00:00.000Z 1',
      '2024-01-02T15:00:00.000Z 2',
      '2024-01-02T16:00:00.000Z 3',
    ]);
    result.dispose?.();
  });

  it("stops the run with the CSV reader's located error when the file is not bars", async () => {
    const dir = aTempDir();
    const csv = join(dir, 'bad.csv');
    writeFileSync(csv, ['timestamp,open,high,low,close', '1704067200000,10,9,8,9'].join('\n'));
    await expect(
      runBacktest({
        ...barRunOptions(csv, [anInstrument(AAPL)], [{ id: 's', strategy: inAndOut }]),
        recordings: [{ input: csv, sym: AAPL }],
      }),
    ).rejects.toThrow(`${csv}:2:`);
  });
});

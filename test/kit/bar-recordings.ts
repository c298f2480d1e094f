import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importOhlcvCsv } from '../../backtest/csv/index.ts';
import type { RecordedMessage } from '../../backtest/recording/index.ts';
import type { MarketEvent } from '../../core/model/index.ts';
import { decodeMarketMessage } from '../../core/venue/market-data/index.ts';

/**
 * The runner suites' record decoder: every market-data message, decode errors passed on.
 * @param record - one recorded message
 * @returns the market event, the decode error, or null for anything but market data
 */
export function decodeMarketRecord(record: RecordedMessage): MarketEvent | null | Error {
  return record.source === 'market-data' ? decodeMarketMessage(record.msg, record.recvTs) : null;
}

/**
 * Writes 1m bars as an OHLCV CSV in `dir` and imports it into `dir/bars.jsonl`, as a user would.
 * @param dir - a temporary folder
 * @param rows - one [open, high, low, close] per bar (volume 10)
 * @param t0 - open time of the first bar, epoch ms
 * @param sym - the sym the bars are of
 * @returns the recording's path
 */
export async function barsRecordingIn(
  dir: string,
  rows: readonly (readonly number[])[],
  t0: number,
  sym: string,
): Promise<string> {
  const csv = [
    'timestamp,open,high,low,close,volume',
    ...rows.map((r, i) => [t0 + i * 60_000, ...r, 10].join(',')),
  ];
  await writeFile(join(dir, 'bars.csv'), `${csv.join('\n')}\n`);
  await importOhlcvCsv({ input: join(dir, 'bars.csv'), output: join(dir, 'bars.jsonl'), sym });
  return join(dir, 'bars.jsonl');
}

/**
 * Writes `count` quiet 1m bars (open and close 100, high 101, low 99) and imports them into
 * `dir/bars.jsonl`, as {@link barsRecordingIn} does.
 * @param dir - a temporary folder
 * @param count - how many bars
 * @param t0 - open time of the first bar, epoch ms
 * @param sym - the sym the bars are of
 * @returns the recording's path
 */
export function flatBarsRecordingIn(dir: string, count: number, t0: number, sym: string): Promise<string> {
  return barsRecordingIn(
    dir,
    Array.from({ length: count }, () => [100, 101, 99, 100]),
    t0,
    sym,
  );
}

import type { MarketEvent } from '../../core/model/index.ts';
import { CsvImportError, type OhlcvCsvSource, ohlcvCsvWarnings, readOhlcvCsvBars } from '../csv/index.ts';
import { type SessionHeader, sessionHeader } from '../recording/index.ts';
import type { BacktestRunOptions } from './backtest-run-options.ts';
import { marketOnly } from './replay-window.ts';

/** An OHLCV CSV read for replay. */
export interface CsvReplay {
  /** The header a recording of it would have (`keel import-csv`'s). */
  readonly header: SessionHeader;
  /** Its bars as market events, in batches, each received at its bar's close. */
  readonly batches: AsyncIterable<readonly MarketEvent[]>;
  /** Receive time of its last bar (its close). */
  readonly lastRecvTs: number;
  /** The rows it skipped and what looks wrong, one sentence each, naming the file. */
  readonly warnings: readonly string[];
}

/**
 * Reads an OHLCV CSV a backtest replays as `keel import-csv` reads it ({@link readOhlcvCsvBars}),
 * then decodes its KLINE pushes with the run's decoder, as it decodes a recording of them: the
 * replay is the one of the imported recording, without writing it.
 * @param source - the CSV, its sym and reading options
 * @param decode - the run's decoder
 * @param batchSize - events per batch
 * @returns the header, the events, the last receive time and the warnings
 * @throws CsvImportError naming the file (and line) when it cannot be read as bars, or a bar
 *   the decoder refuses
 */
export async function csvReplay(
  source: OhlcvCsvSource,
  decode: BacktestRunOptions['decode'],
  batchSize: number,
): Promise<CsvReplay> {
  const bars = await readOhlcvCsvBars(source);
  const events: MarketEvent[] = [];
  for (const msg of bars.messages) {
    const decoded = marketOnly({ recvTs: msg.data.ts, source: 'market-data', msg }, decode);
    if (decoded instanceof Error || decoded === null)
      throw new CsvImportError(
        source.input,
        0,
        `the bar opening at ${new Date(msg.data.openTime).toISOString()} is not one the run's decoder reads (${decoded === null ? 'dropped' : decoded.message})`,
      );
    if (Array.isArray(decoded)) events.push(...decoded);
    else events.push(decoded as MarketEvent);
  }
  return {
    header: sessionHeader(bars.header),
    batches: inBatches(events, batchSize),
    lastRecvTs: bars.lastCloseTime,
    warnings: ohlcvCsvWarnings(source.input, bars),
  };
}

async function* inBatches(
  events: readonly MarketEvent[],
  batchSize: number,
): AsyncGenerator<readonly MarketEvent[]> {
  for (let at = 0; at < events.length; at += batchSize) yield events.slice(at, at + batchSize);
}

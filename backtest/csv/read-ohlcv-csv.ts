import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { type BarInterval, parseSym } from '../../core/model/index.ts';
import type { SessionHeaderInit } from '../recording/index.ts';
import { CsvImportError } from './csv-import-error.ts';
import { decodeCsvText } from './csv-text.ts';
import { type KlineMessage, klineMessage } from './kline-messages.ts';
import type { SkippedRow } from './ohlcv-bar.ts';
import { type OhlcvCsvOptions, parseOhlcvCsv } from './parse-ohlcv-csv.ts';
import { usEquityZoneWarning } from './us-equity-zone-check.ts';

/** The `venue` a recording written by the importer names in its header. */
export const IMPORT_VENUE = 'csv-import';

/**
 * The largest CSV read, in bytes: the file is read whole, and its text must fit in one string
 * (V8's longest is 2^29 - 24 characters); a larger one is refused, not failed with "Invalid string length".
 */
export const MAX_CSV_BYTES = 2 ** 29 - 24;

/** An OHLCV CSV file, the sym its bars are of, and how to read it. */
export interface OhlcvCsvSource extends Omit<OhlcvCsvOptions, 'file'> {
  /** The CSV file. */
  readonly input: string;
  /** The sym the bars belong to, e.g. `BINANCE_SPOT_BTC_USDT` or `US_EQUITY_AAPL`. */
  readonly sym: string;
  /** Marks the bars synthetic (generated data saved as CSV); default false. */
  readonly synthetic?: boolean;
}

/** An OHLCV CSV read as the closed KLINE pushes of a recording. */
export interface OhlcvCsvBars {
  /** The header a recording of the bars has. */
  readonly header: SessionHeaderInit;
  /** One closed-bar KLINE push per bar, oldest first; each is received at its bar's close (`data.ts`). */
  readonly messages: readonly KlineMessage[];
  readonly interval: BarInterval;
  readonly firstOpenTime: number;
  readonly lastCloseTime: number;
  readonly skipped: readonly SkippedRow[];
  /**
   * Which column each field was read from (`time=Date, ..., volume=<none → 0>`), and the text's
   * encoding when it is not UTF-8.
   */
  readonly columns: string;
  /**
   * What looks wrong though the file read: no volume column or a volume of 0 on every bar, a US
   * equity's times that look like New York time read as UTC.
   */
  readonly warnings: readonly string[];
}

/**
 * Reads an OHLCV CSV file into the closed KLINE pushes a recording of it holds, one per bar,
 * each received at its bar's close: what `keel import-csv` writes, and what a backtest replays
 * of a CSV named in its recordings. The same file and options always give the same pushes.
 * @param source - the file, the sym and the CSV reading options
 * @param maxBytes - the largest file read; {@link MAX_CSV_BYTES} unless a test says less
 * @returns the pushes, the recording's header, the interval, the time span, the rows skipped and what looks wrong
 * @throws CsvImportError naming file and line when the CSV cannot be read as bars, or is larger than `maxBytes`
 * @throws TypeError when the sym is not a sym Keel knows
 */
export async function readOhlcvCsvBars(
  source: OhlcvCsvSource,
  maxBytes = MAX_CSV_BYTES,
): Promise<OhlcvCsvBars> {
  parseSym(source.sym);
  let bytes: Buffer;
  try {
    const { size } = await stat(source.input);
    if (size > maxBytes) {
      throw new CsvImportError(
        source.input,
        0,
        `is ${megabytes(size)} MB, more than the ${megabytes(maxBytes)} MB Keel reads of a CSV (it is read whole): split it, by date, into smaller files and import each, or name each in backtest.recordings`,
      );
    }
    bytes = await readFile(source.input);
  } catch (cause) {
    if (cause instanceof CsvImportError) throw cause;
    throw new CsvImportError(source.input, 0, `cannot be read (${(cause as Error).message})`);
  }
  const { text, encoding } = decodeCsvText(bytes);
  const contents = parseOhlcvCsv(text, { ...source, file: source.input });
  const messages = contents.bars.map((bar) => klineMessage(source.sym, contents.interval, bar));
  const zoneWarning = usEquityZoneWarning(
    source.sym,
    contents.interval,
    contents.bars.map((bar) => bar.openTime),
    source.zone ?? 'UTC',
  );
  const first = messages[0]?.data;
  const last = messages[messages.length - 1]?.data;
  if (first === undefined || last === undefined)
    throw new CsvImportError(source.input, 0, 'the file holds no bars');
  return {
    header: {
      venue: IMPORT_VENUE,
      symbols: [source.sym],
      startTime: first.openTime,
      synthetic: source.synthetic === true,
      description: `OHLCV bars imported from ${basename(source.input)} (${contents.interval}, times read in ${source.zone ?? 'UTC'}${source.timestampIs === 'close' ? ', stamped at close' : ''}${source.adjust === true ? ', adjusted by Adj Close' : ''})`,
    },
    messages,
    interval: contents.interval,
    firstOpenTime: first.openTime,
    lastCloseTime: last.ts,
    skipped: contents.skipped,
    columns: `${contents.columns}${encoding === 'utf-8' ? '' : `; text decoded as ${encoding}`}`,
    warnings: [...contents.warnings, ...(zoneWarning === undefined ? [] : [zoneWarning])],
  };
}

/** Bytes as megabytes (10^6), one decimal. */
function megabytes(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

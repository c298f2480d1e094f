import { basename } from 'node:path';
import { BAR_INTERVAL_MS, type BarInterval, parseSym } from '../../core/model/index.ts';
import type { SessionHeaderInit } from '../recording/index.ts';
import { type CsvFileLines, csvFileLines } from './csv-file-lines.ts';
import { CsvImportError } from './csv-import-error.ts';
import { type KlineMessage, klineMessage } from './kline-messages.ts';
import type { SkippedRow } from './ohlcv-bar.ts';
import { type OhlcvCsvOptions, readOhlcvCsvLines } from './parse-ohlcv-csv.ts';
import { usEquityZoneWarning, zoneCheckStep } from './us-equity-zone-check.ts';

/** The `venue` a recording written by the importer names in its header. */
const IMPORT_VENUE = 'csv-import';

/** An OHLCV CSV file, the sym its bars are of, and how to read it. */
export interface OhlcvCsvSource extends Omit<OhlcvCsvOptions, 'file' | 'baseAsset'> {
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
   * What looks wrong though the file read: no volume column or a volume of 0 on every bar, a
   * volume in another asset than the sym's base asset, a US equity's times that look like New York
   * time read as UTC.
   */
  readonly warnings: readonly string[];
}

/**
 * An OHLCV CSV checked and ready to be read as KLINE pushes, a bar at a time: what
 * {@link readOhlcvCsvBars} holds whole, without the pushes.
 */
export interface OhlcvCsvPushes extends Omit<OhlcvCsvBars, 'messages' | 'warnings'> {
  /** How many bars (pushes) the file holds. */
  readonly bars: number;
  /**
   * Reads the file again, giving each push to `visit`, oldest first.
   * @returns what looks wrong (see {@link OhlcvCsvBars.warnings}), the bars' times looked at too
   */
  readPushes(visit: (msg: KlineMessage) => void): readonly string[];
}

/**
 * Checks an OHLCV CSV file, reading it in passes, never whole: its bars are then read again, a
 * chunk of the file at a time, by {@link OhlcvCsvPushes.readPushes}, so a file of any size is
 * imported in bounded memory. The same file and options always give the same pushes.
 * @param source - the file, the sym and the CSV reading options
 * @returns the recording's header, the interval, the time span, the rows skipped, and the pushes on demand
 * @throws CsvImportError naming file and line when the CSV cannot be read as bars
 * @throws TypeError when the sym is not a sym Keel knows
 */
export function openOhlcvCsv(source: OhlcvCsvSource): OhlcvCsvPushes {
  const instrument = parseSym(source.sym);
  let lines: CsvFileLines;
  try {
    lines = csvFileLines(source.input);
  } catch (cause) {
    throw new CsvImportError(source.input, 0, `cannot be read (${(cause as Error).message})`);
  }
  const zone = source.zone ?? 'UTC';
  const plan = readOhlcvCsvLines(lines, {
    ...source,
    file: source.input,
    ...(instrument.kind === 'crypto' ? { baseAsset: instrument.base } : {}),
  });
  const { interval } = plan;
  const step = zoneCheckStep(plan.barCount);
  return {
    header: {
      venue: IMPORT_VENUE,
      symbols: [source.sym],
      startTime: plan.firstOpenTime,
      synthetic: source.synthetic === true,
      description: `OHLCV bars imported from ${basename(source.input)} (${interval}, times read in ${zone}${source.timestampIs === 'close' ? ', stamped at close' : ''}${source.adjust === true ? ', adjusted by Adj Close' : ''})`,
    },
    bars: plan.barCount,
    interval,
    firstOpenTime: plan.firstOpenTime,
    lastCloseTime: plan.lastOpenTime + BAR_INTERVAL_MS[interval],
    skipped: plan.skipped,
    columns: `${plan.columns}${lines.encoding === 'utf-8' ? '' : `; text decoded as ${lines.encoding}`}`,
    readPushes: (visit) => {
      const sampled: number[] = [];
      let i = 0;
      for (const bar of plan.bars()) {
        if (i++ % step === 0) sampled.push(bar.openTime);
        visit(klineMessage(source.sym, interval, bar));
      }
      const zoneWarning = usEquityZoneWarning(source.sym, interval, sampled, zone);
      return [...plan.warnings, ...(zoneWarning === undefined ? [] : [zoneWarning])];
    },
  };
}

/**
 * Reads an OHLCV CSV file into the closed KLINE pushes a recording of it holds, one per bar,
 * each received at its bar's close: what `keel import-csv` writes, and what a backtest replays
 * of a CSV named in its recordings. The same file and options always give the same pushes.
 * @param source - the file, the sym and the CSV reading options
 * @returns the pushes, the recording's header, the interval, the time span, the rows skipped and what looks wrong
 * @throws CsvImportError naming file and line when the CSV cannot be read as bars
 * @throws TypeError when the sym is not a sym Keel knows
 */
export async function readOhlcvCsvBars(source: OhlcvCsvSource): Promise<OhlcvCsvBars> {
  const read = openOhlcvCsv(source);
  const messages: KlineMessage[] = [];
  const warnings = read.readPushes((msg) => messages.push(msg));
  return {
    header: read.header,
    messages,
    interval: read.interval,
    firstOpenTime: read.firstOpenTime,
    lastCloseTime: read.lastCloseTime,
    skipped: read.skipped,
    columns: read.columns,
    warnings,
  };
}

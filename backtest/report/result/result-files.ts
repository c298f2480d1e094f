import { constants } from 'node:buffer';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { makePrivateDir } from '../../files/index.ts';
import { algoOrdersCsvLines, denialsCsvLines, trailingStopsCsvLines } from './activity-csv.ts';
import type { BacktestResult } from './backtest-result.ts';
import {
  cashFlowsCsvLines,
  equityCsvLines,
  fillsCsvLines,
  liquidationsCsvLines,
  ordersCsvLines,
  symsCsvLines,
  tradesCsvLines,
} from './result-csv.ts';
import { readResultStreaming } from './result-reader.ts';
import { backtestResultOf } from './result-schema.ts';
import { resultVersionWarning } from './result-version.ts';
import { stableJson, stableJsonChunks } from './stable-json.ts';
import { writeTextFilesTogether } from './write-text-file.ts';

/** Result files larger than this are read line by line into temporary files (Keel's choice). */
export const STREAMING_READ_BYTES = 32 * 2 ** 20;

/** File names inside a result directory. */
export const RESULT_FILES = {
  json: 'result.json',
  trades: 'trades.csv',
  fills: 'fills.csv',
  orders: 'orders.csv',
  equity: 'equity.csv',
  cashFlows: 'cash-flows.csv',
  liquidations: 'liquidations.csv',
  algoOrders: 'algo-orders.csv',
  denials: 'denials.csv',
  trailingStops: 'trailing-stops.csv',
  syms: 'syms.csv',
} as const;

/** The result's data: everything but its `dispose`. */
function dataOf(result: BacktestResult): Omit<BacktestResult, 'dispose'> {
  const { dispose: _dispose, ...data } = result;
  return data;
}

/**
 * Serializes a result as deterministic JSON (sorted keys, Decimals as exact strings): the same
 * result always gives the same bytes. Builds the whole text, so it suits small results and
 * tests; {@link resultJsonChunks} and {@link writeResultFiles} stream.
 * @param result - the backtest result
 * @returns the text of `result.json`
 */
export function resultToJson(result: BacktestResult): string {
  return stableJson(dataOf(result));
}

/**
 * The text of {@link resultToJson} in pieces, reading the orders, fills, trades, algo orders and denials one at a
 * time, for writing a large result to a file.
 * @param result - the backtest result
 * @returns pieces whose concatenation is `resultToJson(result)`
 */
export function resultJsonChunks(result: BacktestResult): Generator<string> {
  return stableJsonChunks(dataOf(result));
}

/**
 * Parses the text of a result file back into a result with Decimals.
 * @param text - the JSON text
 * @param source - where the text came from, for error messages
 * @returns the result
 * @throws Error naming the source and the first wrong fields when the text is not a result
 */
export function resultFromJson(text: string, source = 'result.json'): BacktestResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new Error(`${source} is not JSON: ${(cause as Error).message}`, { cause });
  }
  return backtestResultOf(data, source);
}

/**
 * Writes `result.json` and the CSV files (trades, fills, orders, equity, cash flows,
 * liquidations, algo orders, denied intents, emulated trailing stops, per-sym breakdown) into a directory,
 * creating it when missing. Each file streams to disk (records are read from the result's logs
 * as they are written) under a temporary name, and the files replace the previous ones only once
 * all are written.
 * @param result - the backtest result
 * @param dir - the output directory
 * @returns the paths written, by kind
 */
export async function writeResultFiles(
  result: BacktestResult,
  dir: string,
): Promise<Record<keyof typeof RESULT_FILES, string>> {
  await makePrivateDir(dir);
  const paths = {
    json: join(dir, RESULT_FILES.json),
    trades: join(dir, RESULT_FILES.trades),
    fills: join(dir, RESULT_FILES.fills),
    orders: join(dir, RESULT_FILES.orders),
    equity: join(dir, RESULT_FILES.equity),
    cashFlows: join(dir, RESULT_FILES.cashFlows),
    liquidations: join(dir, RESULT_FILES.liquidations),
    algoOrders: join(dir, RESULT_FILES.algoOrders),
    denials: join(dir, RESULT_FILES.denials),
    trailingStops: join(dir, RESULT_FILES.trailingStops),
    syms: join(dir, RESULT_FILES.syms),
  };
  await writeTextFilesTogether([
    [paths.json, resultJsonChunks(result)],
    [paths.trades, tradesCsvLines(result)],
    [paths.fills, fillsCsvLines(result)],
    [paths.orders, ordersCsvLines(result)],
    [paths.equity, equityCsvLines(result)],
    [paths.cashFlows, cashFlowsCsvLines(result)],
    [paths.liquidations, liquidationsCsvLines(result)],
    [paths.algoOrders, algoOrdersCsvLines(result)],
    [paths.denials, denialsCsvLines(result)],
    [paths.trailingStops, trailingStopsCsvLines(result)],
    [paths.syms, symsCsvLines(result)],
  ]);
  return paths;
}

/** Options of {@link readResult}. */
export interface ReadResultOptions {
  /** Files larger than this many bytes are read line by line; default {@link STREAMING_READ_BYTES}. */
  readonly streamAboveBytes?: number;
  /**
   * Files not in Keel's layout larger than this many bytes are refused rather than read whole;
   * default Node's longest string (`buffer.constants.MAX_STRING_LENGTH`): a UTF-8 file decodes to
   * at most as many characters as it has bytes, and one beyond that cannot be held as one string.
   */
  readonly readWholeMaxBytes?: number;
  /** Told what the reader noticed (a large file read whole, a result from a newer Keel); stderr by default. */
  readonly onWarning?: (message: string) => void;
}

/**
 * Reads a result file written by {@link writeResultFiles}. A small file is parsed whole. A large
 * one in Keel's own layout is read line by line, its orders, fills and trades going to temporary
 * files (the result's `dispose` removes them; so does the process's exit), so memory stays
 * bounded; a large file in another layout (reformatted by a tool) is parsed whole, with a warning,
 * or refused when it is too large to hold as one string. A result a newer Keel wrote is read with
 * a warning.
 * @param path - path of `result.json`
 * @param options - the size above which to stream, the largest file read whole, where warnings go
 * @returns the result
 * @throws Error when the file is missing or not a result (the message names the file and field),
 *   or when it is not in Keel's layout and too large to read whole
 */
export async function readResult(path: string, options: ReadResultOptions = {}): Promise<BacktestResult> {
  const warn = options.onWarning ?? ((message: string) => process.stderr.write(`⚠ ${message}\n`));
  const { size } = await stat(path);
  const result = await readResultOfSize(path, size, options, warn);
  const newer = resultVersionWarning(result.meta.keel);
  if (newer !== undefined) warn(`${path}: ${newer}`);
  return result;
}

async function readResultOfSize(
  path: string,
  size: number,
  options: ReadResultOptions,
  warn: (message: string) => void,
): Promise<BacktestResult> {
  const streamAbove = options.streamAboveBytes ?? STREAMING_READ_BYTES;
  if (size <= streamAbove) return resultFromJson(await readFile(path, 'utf8'), path);
  const streamed = readResultStreaming(path);
  if (streamed !== undefined) return streamed;
  const wholeMax = options.readWholeMaxBytes ?? constants.MAX_STRING_LENGTH;
  if (size > wholeMax)
    throw new Error(
      `${path} is not in the layout Keel writes (reformatted by a tool?), so it would be read whole, and at ` +
        `${size} bytes it is larger than the ${wholeMax} this process can read whole: give the result.json ` +
        'Keel wrote (it is read line by line)',
    );
  warn(
    `${path} is not in the layout Keel writes (reformatted by a tool?), so it is read whole, not streamed: ` +
      `at ${size} bytes this takes much memory and time; the result.json Keel wrote reads streamed`,
  );
  return resultFromJson(await readFile(path, 'utf8'), path);
}

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BacktestResult } from './backtest-result.ts';
import { equityCsv, fillsCsv, ordersCsv, tradesCsv } from './result-csv.ts';
import { backtestResultSchema } from './result-schema.ts';
import { stableJson } from './stable-json.ts';

/** File names inside a result directory. */
export const RESULT_FILES = {
  json: 'result.json',
  trades: 'trades.csv',
  fills: 'fills.csv',
  orders: 'orders.csv',
  equity: 'equity.csv',
} as const;

/**
 * Serializes a result as deterministic JSON (sorted keys, Decimals as exact strings): the same
 * result always gives the same bytes.
 * @param result - the backtest result
 * @returns the text of `result.json`
 */
export function resultToJson(result: BacktestResult): string {
  return stableJson(result);
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
  const parsed = backtestResultSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new Error(`${source} is not a Keel backtest result: ${issues}`);
  }
  return parsed.data;
}

/**
 * Writes `result.json` and the CSV files (trades, fills, orders, equity) into a directory,
 * creating it when missing.
 * @param result - the backtest result
 * @param dir - the output directory
 * @returns the paths written, by kind
 */
export async function writeResultFiles(
  result: BacktestResult,
  dir: string,
): Promise<Record<keyof typeof RESULT_FILES, string>> {
  await mkdir(dir, { recursive: true });
  const paths = {
    json: join(dir, RESULT_FILES.json),
    trades: join(dir, RESULT_FILES.trades),
    fills: join(dir, RESULT_FILES.fills),
    orders: join(dir, RESULT_FILES.orders),
    equity: join(dir, RESULT_FILES.equity),
  };
  await writeFile(paths.json, resultToJson(result));
  await writeFile(paths.trades, tradesCsv(result));
  await writeFile(paths.fills, fillsCsv(result));
  await writeFile(paths.orders, ordersCsv(result));
  await writeFile(paths.equity, equityCsv(result));
  return paths;
}

/**
 * Reads a result file written by {@link writeResultFiles}.
 * @param path - path of `result.json`
 * @returns the result
 * @throws Error when the file is missing or not a result (the message names the file and field)
 */
export async function readResult(path: string): Promise<BacktestResult> {
  return resultFromJson(await readFile(path, 'utf8'), path);
}

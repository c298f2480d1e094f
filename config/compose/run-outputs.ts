import { rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { makePrivateDir } from '../../backtest/files/index.ts';
import {
  algoOrdersCsvLines,
  type BacktestResult,
  cashFlowsCsvLines,
  denialsCsvLines,
  equityCsvLines,
  fillsCsvLines,
  liquidationsCsvLines,
  ordersCsvLines,
  renderHtmlReport,
  resultJsonChunks,
  symsCsvLines,
  tradesCsvLines,
  trailingStopsCsvLines,
  writeTextFilesTogether,
  writingFile,
} from '../../backtest/report/index.ts';
import { type KeelConfig, strategyName } from '../schema/index.ts';

/** Where a run's result files went. */
export interface RunOutputPaths {
  readonly json: string;
  readonly html: string;
  readonly csv: readonly string[];
}

/**
 * The result and report paths of a run: the config's `report` section, else
 * `out/<name>-result.json` and `out/<name>-report.html` (Keel's choice), relative to the working
 * directory like the recording path.
 * @param config - the validated config
 * @returns absolute paths of the JSON result and the HTML report
 */
export function reportPathsOf(config: KeelConfig): { readonly json: string; readonly html: string } {
  const name =
    config.name ??
    `${config.mode}-${strategyName(config.strategies[0]?.use ?? 'run').replace(/[^a-z0-9-]/gi, '')}`;
  return {
    json: resolve(config.report?.json ?? `out/${name}-result.json`),
    html: resolve(config.report?.html ?? `out/${name}-report.html`),
  };
}

/** The CSV logs written next to a result JSON: the suffix that replaces its `.json`, and the writer. */
const CSV_LOGS = [
  ['.trades.csv', tradesCsvLines],
  ['.fills.csv', fillsCsvLines],
  ['.orders.csv', ordersCsvLines],
  ['.equity.csv', equityCsvLines],
  ['.cash-flows.csv', cashFlowsCsvLines],
  ['.liquidations.csv', liquidationsCsvLines],
  ['.algo-orders.csv', algoOrdersCsvLines],
  ['.denials.csv', denialsCsvLines],
  ['.trailing-stops.csv', trailingStopsCsvLines],
  ['.syms.csv', symsCsvLines],
] as const;

function csvBaseOf(json: string): string {
  return json.replace(/\.json$/i, '');
}

/**
 * The CSV files written next to a result JSON.
 * @param json - the result JSON's path
 * @returns `<json>.trades.csv` and the others, in the order they are written
 */
export function csvPathsOf(json: string): string[] {
  const base = csvBaseOf(json);
  return CSV_LOGS.map(([suffix]) => `${base}${suffix}`);
}

/**
 * Writes a run's result JSON (deterministic: same result, same bytes), its CSVs next to it
 * (`<json>.trades.csv`, `.fills.csv`, `.orders.csv`, `.equity.csv`, `.cash-flows.csv`,
 * `.liquidations.csv`, `.algo-orders.csv`, `.denials.csv`, `.trailing-stops.csv`, `.syms.csv`) and the HTML report. The
 * JSON and CSV files stream to disk, record by record, from the result's logs, under temporary
 * names; all replace the previous run's files together once every one is written (unless
 * `resultFirst`).
 * @param result - the run's result
 * @param paths - JSON and HTML paths
 * @param settleAsset - the currency shown in the report
 * @param signal - when aborted, the writing stops before the files replace the previous ones, the
 *   staged files removed, and its reason is thrown
 * @param options - `resultFirst`: the JSON goes in place on its own first, the previous run's CSVs
 *   and report are removed, then the CSVs and report go in place together (a live or paper session,
 *   which a supervisor may kill a few seconds after its stop: the result, what tooling reads,
 *   is then whole; its CSVs and report, rendered from it, can be missing, never another run's);
 *   `onResultWritten`, with `resultFirst`: called once the JSON is in place, before the others
 * @returns the paths written
 */
export async function writeRunOutputs(
  result: BacktestResult,
  paths: { readonly json: string; readonly html: string },
  settleAsset: string,
  signal?: AbortSignal,
  options: { readonly resultFirst?: boolean; readonly onResultWritten?: () => void } = {},
): Promise<RunOutputPaths> {
  await makeOutputFolders(paths);
  const [json, ...others] = outputTexts(result, paths, settleAsset);
  if (json === undefined) throw new Error('a run writes its result JSON first');
  if (options.resultFirst === true) {
    await writeTextFilesTogether([json], signal);
    options.onResultWritten?.();
    // A file that cannot be removed (a directory in its place) fails when its new one goes in place.
    await Promise.all(others.map(([path]) => rm(path, { force: true }).catch(() => {})));
    await writeTextFilesTogether(others, signal);
  } else await writeTextFilesTogether([json, ...others], signal);
  return { json: paths.json, html: paths.html, csv: csvPathsOf(paths.json) };
}

/** A folder that cannot be made (a file in its place, a full disk) fails as the files would; made 0700, as the files are 0600. */
async function makeOutputFolders(paths: { readonly json: string; readonly html: string }): Promise<void> {
  await writingFile(paths.json, () => makePrivateDir(dirname(paths.json)));
  await writingFile(paths.html, () => makePrivateDir(dirname(paths.html)));
}

/** Each output of a run and its text, in the order written: the JSON, the CSVs, the HTML report. */
function outputTexts(
  result: BacktestResult,
  paths: { readonly json: string; readonly html: string },
  settleAsset: string,
): (readonly [path: string, chunks: Iterable<string>])[] {
  const base = csvBaseOf(paths.json);
  // The HTML is rendered lazily, after the JSON and CSVs are staged, as they were written before.
  function* html(): Generator<string> {
    yield renderHtmlReport(result, { settleAsset });
  }
  return [
    [paths.json, resultJsonChunks(result)],
    ...CSV_LOGS.map(([suffix, lines]) => [`${base}${suffix}`, lines(result)] as const),
    [paths.html, html()],
  ];
}

/**
 * After {@link writeRunOutputs} failed (a full disk while writing the report): writes each of a
 * run's outputs on its own, the JSON first, so what can be written is kept rather than thrown
 * away with the run. The file that failed is not tried again, and its previous version (another
 * run's) is removed; a file that fails now is skipped the same way.
 * @param result - the run's result
 * @param paths - JSON and HTML paths
 * @param settleAsset - the currency shown in the report
 * @param failed - the file whose failure stopped {@link writeRunOutputs}, when one was named
 * @param signal - when aborted, the writing stops and its reason is thrown
 * @returns the paths written, in order
 */
export async function salvageRunOutputs(
  result: BacktestResult,
  paths: { readonly json: string; readonly html: string },
  settleAsset: string,
  failed: string | undefined,
  signal?: AbortSignal,
): Promise<string[]> {
  const written: string[] = [];
  await makeOutputFolders(paths).catch(() => {});
  for (const [path, chunks] of outputTexts(result, paths, settleAsset)) {
    signal?.throwIfAborted();
    try {
      if (path !== failed) {
        await writeTextFilesTogether([[path, chunks]], signal);
        written.push(path);
        continue;
      }
    } catch (error) {
      if (signal?.aborted === true) throw error;
    }
    await rm(path, { force: true }).catch(() => {});
  }
  return written;
}

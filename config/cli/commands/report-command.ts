import { dirname, resolve } from 'node:path';
import { makePrivateDir } from '../../../backtest/files/index.ts';
import {
  type BacktestResult,
  FileWriteError,
  readResult,
  shownPath,
  writeHtmlReport,
} from '../../../backtest/report/index.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

/** Options of `keel report`. */
export interface ReportOptions {
  /** The result JSON a run or backtest wrote. */
  readonly result: string;
  /** The HTML file to write (`[out]` or `--out`); defaults to the result's name with `.html`. */
  readonly out: string | undefined;
  /** Whether the command line gave the output twice, as `[out]` and as `--out`. */
  readonly bothOuts?: boolean;
}

/**
 * The HTML path `keel report` writes by default: the result's path with `-result.json` or
 * `.json` replaced by `-report.html` / `.html`.
 * @param result - the result JSON path
 * @returns the HTML path
 */
export function defaultReportPath(result: string): string {
  if (/-result\.json$/i.test(result)) return result.replace(/-result\.json$/i, '-report.html');
  return /\.json$/i.test(result) ? result.replace(/\.json$/i, '.html') : `${result}.html`;
}

/**
 * Why a result could not be read, as one sentence naming the path, and whether that is bad input:
 * no file there, a directory, or a file that is not a Keel result (not JSON, wrong fields: the
 * reader's errors carry no system code). Other system errors (permissions, I/O) are failures.
 */
function unreadable(path: string, error: unknown): { readonly sentence: string; readonly badInput: boolean } {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return {
      sentence: `there is no file ${path}; give the result JSON a run or backtest wrote (e.g. out/<name>-result.json)`,
      badInput: true,
    };
  if (code === 'EISDIR') return { sentence: `${path} is a directory, not a result file`, badInput: true };
  // One line: a JSON parser's message may quote the file's text, newlines and all.
  const message = (error as Error).message.replace(/\s*\n\s*/g, ' ');
  return { sentence: message, badInput: code === undefined };
}

/**
 * `keel report <result.json> [out.html]` (or `--out out.html`): rebuilds the HTML report from a
 * saved result alone, creating the output's folder when it is missing (as `keel backtest` does).
 * @param options - input and output
 * @param io - output streams
 * @returns EXIT.OK; EXIT.BAD_CONFIG_OR_USAGE when the path holds no readable result (no file, a
 *   directory, not a Keel result), said in one sentence naming it, or when the output is given
 *   twice; EXIT.RUNTIME_FAILURE when the file cannot be read for another reason (permissions,
 *   I/O) or the report cannot be written
 */
export async function reportCommand(options: ReportOptions, io: CliIo): Promise<ExitCode> {
  if (options.bothOuts === true) {
    io.stderr.write(
      `✖ keel report ${options.result}: give the HTML file once, as keel report <result> [out] or with --out\n`,
    );
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const out = resolve(options.out ?? defaultReportPath(options.result));
  let result: BacktestResult;
  try {
    result = await readResult(resolve(options.result), {
      onWarning: (message) => io.stderr.write(`⚠ keel report ${options.result}: ${message}\n`),
    });
  } catch (error) {
    const { sentence, badInput } = unreadable(options.result, error);
    io.stderr.write(`✖ keel report ${options.result}: ${sentence}\n`);
    return badInput ? EXIT.BAD_CONFIG_OR_USAGE : EXIT.RUNTIME_FAILURE;
  }
  try {
    await makePrivateDir(dirname(out));
    await writeHtmlReport(result, out);
  } catch (error) {
    // The writer's errors name the file already (`cannot write x.html: ...`); a folder's do not.
    const said =
      error instanceof FileWriteError
        ? error.message
        : `cannot write ${shownPath(out)}: ${(error as Error).message}`;
    io.stderr.write(`✖ keel report ${options.result}: ${said}\n`);
    return EXIT.RUNTIME_FAILURE;
  } finally {
    result.dispose?.();
  }
  io.stdout.write(`✔ report: ${shownPath(out)}\n`);
  return EXIT.OK;
}

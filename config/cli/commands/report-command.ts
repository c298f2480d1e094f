import { resolve } from 'node:path';
import { writeHtmlReportFromFile } from '../../../backtest/report/index.ts';
import { shownPath } from '../../compose/shown-path.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

/** Options of `keel report`. */
export interface ReportOptions {
  /** The result JSON a run or backtest wrote. */
  readonly result: string;
  /** The HTML file to write; defaults to the result's name with `.html`. */
  readonly out: string | undefined;
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
 * `keel report <result.json>`: rebuilds the HTML report from a saved result alone.
 * @param options - input and output
 * @param io - output streams
 * @returns EXIT.OK, or EXIT.RUNTIME_FAILURE when the result cannot be read
 */
export async function reportCommand(options: ReportOptions, io: CliIo): Promise<ExitCode> {
  const out = resolve(options.out ?? defaultReportPath(options.result));
  try {
    await writeHtmlReportFromFile(resolve(options.result), out);
  } catch (error) {
    io.stderr.write(`✖ keel report ${options.result}: ${(error as Error).message}\n`);
    return EXIT.RUNTIME_FAILURE;
  }
  io.stdout.write(`✔ report: ${shownPath(out)}\n`);
  return EXIT.OK;
}

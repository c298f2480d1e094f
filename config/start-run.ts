import type { CliIo } from './cli/cli-io.ts';
import { EXIT, type ExitCode } from './cli/exit-codes.ts';
import { runConfiguredSession } from './compose/session-run.ts';
import { formatFill, formatSessionSummary } from './compose/session-summary.ts';
import { formatConfigProblem, loadConfig } from './loader/index.ts';

/**
 * What `npm start` does: a paper run of a config for a few seconds, printing each fill and the
 * summary (PnL, recording, result, report) on `io.stdout`.
 * @param configPath - the paper config (the market-maker example)
 * @param seconds - how long to trade
 * @param io - output streams
 * @returns the exit code (0 when the session ran and its files were written)
 */
export async function runStart(configPath: string, seconds: number, io: CliIo): Promise<ExitCode> {
  const loaded = loadConfig(configPath);
  if (!loaded.ok) {
    for (const problem of loaded.problems) io.stderr.write(`${formatConfigProblem(problem)}\n`);
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  io.stdout.write(
    `Keel: paper-trading market-maker for ${seconds} s against the embedded paper venue, on SYNTHETIC market data (generated, not a real market)\n`,
  );
  try {
    const outcome = await runConfiguredSession(loaded, {
      durationSec: seconds,
      onFill: (fill) => io.stdout.write(`  ${formatFill(fill)}\n`),
    });
    if (!outcome.ok) {
      for (const problem of outcome.problems) io.stderr.write(`${problem}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
    io.stdout.write(formatSessionSummary(outcome, true));
    outcome.result.dispose?.();
    io.stdout.write(
      'Next: npx keel backtest config/examples/replay-paper-session.yaml (reproduces these fills), npx keel report out/paper-result.json\n',
    );
    return outcome.exitCode;
  } catch (error) {
    io.stderr.write(`✖ npm start: ${(error as Error).message}\n`);
    return EXIT.RUNTIME_FAILURE;
  }
}

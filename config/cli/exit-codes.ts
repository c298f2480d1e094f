/**
 * Exit codes of the `keel` command, in one place. Scripts and CI can rely on them; `keel --help`
 * lists them from {@link EXIT_CODE_MEANINGS}, and the README the same.
 *
 * | code | meaning |
 * |---|---|
 * | 0 | success |
 * | 1 | runtime failure (venue unreachable, I/O error, an unexpected error) |
 * | 2 | bad config, bad usage or a bad input file (invalid YAML, unknown key, missing secret, bad option, a CSV that is not bars, a recording whose header cannot be read, or that holds malformed lines and no market data) |
 * | 3 | the run finished and wrote its result and report, but a strategy failed (threw, or returned something that is not intents) and was halted (run, backtest, sweep) |
 * | 4 | a live or paper session stopped, but `shutdown.cancelAllOrders` could not cancel every order, or a command sent before the stop was never answered: orders may still be open on the venue (run) |
 * | 129 | hung up: SIGHUP (the terminal or the supervisor's session closed), after a graceful shutdown; a second signal ends a run's shutdown at once (run, record; sweep, after a table of the rows finished; backtest, at its next batch, its temporary files removed, no result written) |
 * | 130 | interrupted by SIGINT (Ctrl-C), after a graceful shutdown; a second one ends a run's shutdown at once (run, record; sweep, after a table of the rows finished; backtest, at its next batch, its temporary files removed, no result written) |
 * | 143 | terminated by SIGTERM, after a graceful shutdown; a second one ends a run's shutdown at once (run, record; sweep, after a table of the rows finished; backtest, at its next batch, its temporary files removed, no result written) |
 *
 * 129 / 130 / 143 also end a keel that a signal reached with no graceful stop in place (starting
 * up, or a second signal a command leaves to the default): `bin/unheld-signals.js` ends it at once.
 */
export const EXIT = {
  OK: 0,
  RUNTIME_FAILURE: 1,
  BAD_CONFIG_OR_USAGE: 2,
  STRATEGY_FAULT: 3,
  ORDERS_LEFT_OPEN: 4,
  HANGUP: 129,
  INTERRUPTED: 130,
  TERMINATED: 143,
} as const;

/** One of the documented exit codes. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What each exit code means, in the words `keel --help` and the README use. */
export const EXIT_CODE_MEANINGS: Readonly<Record<ExitCode, string>> = {
  0: 'ok',
  1: 'runtime failure',
  2: 'bad config, usage or input file',
  3: 'a strategy failed (threw, or returned something that is not intents) and was halted (the run finished and wrote its result and report)',
  4: 'orders may still be open on the venue: shutdown.cancelAllOrders could not cancel them all, or an order sent before the stop was never answered (run)',
  129: "hung up (SIGHUP, after a graceful stop; a second signal ends a run's stop at once)",
  130: "interrupted (SIGINT, after a graceful stop; a second one ends a run's stop at once)",
  143: "terminated (SIGTERM, after a graceful stop; a second one ends a run's stop at once)",
};

/**
 * The exit codes as `keel --help` ends with them (the README lists the same, a test checks it).
 * @returns `Exit codes:` and one indented line per code
 */
export function exitCodesHelp(): string {
  const lines = Object.entries(EXIT_CODE_MEANINGS).map(([code, meaning]) => `  ${code.padEnd(4)} ${meaning}`);
  return ['Exit codes:', ...lines].join('\n');
}

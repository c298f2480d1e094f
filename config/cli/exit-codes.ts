/**
 * Exit codes of the `keel` command, in one place. Scripts and CI can rely on them.
 *
 * | code | meaning |
 * |---|---|
 * | 0 | success |
 * | 1 | runtime failure (venue unreachable, strategy crashed, I/O error) |
 * | 2 | bad config or bad usage (invalid YAML, unknown key, missing secret, bad option) |
 * | 3 | the run finished and wrote its result and report, but a strategy threw and was halted |
 * | 69 | command not available in this build (sysexits EX_UNAVAILABLE) |
 * | 130 | interrupted by SIGINT (Ctrl-C), after a graceful shutdown |
 * | 143 | terminated by SIGTERM, after a graceful shutdown |
 */
export const EXIT = {
  OK: 0,
  RUNTIME_FAILURE: 1,
  BAD_CONFIG_OR_USAGE: 2,
  STRATEGY_FAULT: 3,
  NOT_AVAILABLE: 69,
  INTERRUPTED: 130,
  TERMINATED: 143,
} as const;

/** One of the documented exit codes. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

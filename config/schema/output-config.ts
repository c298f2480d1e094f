import { z } from 'zod';
import { filePathSchema } from './file-path.ts';

/** Where a live or paper run records what the venue sent (market data and User Data). */
export const recordingConfigSchema = z.strictObject({
  path: filePathSchema.describe(
    'Output file (`.jsonl` or `.jsonl.gz`), relative to the working directory (`~/` is the home folder).',
  ),
});

/**
 * Where the run writes its report. Both paths are relative to the working directory (where
 * `keel` runs), not to the config file, as `recording.path` is.
 */
export const reportConfigSchema = z.strictObject({
  html: filePathSchema
    .optional()
    .describe(
      "The HTML report, relative to the working directory (`~/` is the home folder); default `out/<name>-report.html` (`<name>`: the config's name, else `<mode>-<the first strategy's use>`, the plugin's file name without folder or extension, e.g. `backtest-breakout`; two configs running one plugin share it unless each sets `name`).",
    ),
  json: filePathSchema
    .optional()
    .describe(
      'The machine-readable result (`keel report` rebuilds the HTML from it), relative to the working directory (`~/` is the home folder), with its CSVs of trades, fills, orders and equity next to it; default `out/<name>-result.json`.',
    ),
});

/** Log level names of pino. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Logging of a run. */
export const loggingConfigSchema = z.strictObject({
  level: z.enum(LOG_LEVELS).default('info'),
});

/** The Prometheus `/metrics` endpoint. */
export const metricsConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  host: z.string().min(1).default('127.0.0.1'),
  port: z.int().min(0).max(65535).default(9464),
});

/** What happens on SIGINT / SIGTERM / SIGHUP in live and paper runs. */
export const shutdownConfigSchema = z.strictObject({
  cancelAllOrders: z
    .boolean()
    .default(false)
    .describe(
      "Cancel every open order and algo order before exiting: the strategies' own and those the session found on the venue at startup (but see keepProtectiveOrders).",
    ),
  keepProtectiveOrders: z
    .boolean()
    .default(true)
    .describe(
      "With cancelAllOrders, keep the orders that protect a position the session leaves open: reduce-only orders, a hedge leg's closing orders and take-profit / stop-loss algo orders that trade against an open position, so the position keeps its stop-loss; those of a position that is flat by the end are cancelled. The summary names what was kept. false cancels them too, and warns of each position left open without them.",
    ),
  timeoutMs: z
    .int()
    .positive()
    .default(7_000)
    .describe(
      "One deadline for everything the stop waits on the venue for, from the stop: commands still on their way (their ack or lookup) and the cancels first, then, with what is left, the last read of the venue's statements, of the take-profit / stop-loss legs of filled orders, of the margin loans (only when Keel holds one) and of the algo orders still open. A command whose fate is still unknown then is named in the warnings and makes the exit code 4; a read cut short is named in the warnings (the result holds what was known by then). Worst case, against a venue that stopped answering: this long, then up to 1 s to close the connections (dropped if the venue does not answer), then result.json is written, then the CSVs and report. Keep it below your supervisor's kill timeout (docker stop: 10 s, Kubernetes: 30 s, systemd TimeoutStopSec: 90 s) by the time the writing takes, or the result is never written: the default, 7 s, leaves docker stop's 10 s about 2 s, enough for a short session's result; a long session's takes longer (measured on a loaded 2-core machine: about 3.4 s for a 7-minute session with 5,200 fills, a 6.5 MB result.json), so for long sessions raise the supervisor's grace (docker stop -t 30) rather than lowering this, which is also the cancels' time at stop. A start-up that fails (login, first reconciliation, warm-up) closes the connections within it too.",
    ),
});

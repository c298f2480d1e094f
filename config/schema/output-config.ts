import { z } from 'zod';

/** Where a live or paper run records what the venue sent (market data and User Data). */
export const recordingConfigSchema = z.strictObject({
  path: z
    .string()
    .min(1)
    .describe('Output file (`.jsonl` or `.jsonl.gz`), relative to the working directory.'),
});

/** Where the run writes its report. */
export const reportConfigSchema = z.strictObject({
  html: z.string().min(1).optional().describe('The HTML report.'),
  json: z
    .string()
    .min(1)
    .optional()
    .describe('The machine-readable result (`keel report` rebuilds the HTML from it).'),
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

/** What happens on SIGINT / SIGTERM in live and paper runs. */
export const shutdownConfigSchema = z.strictObject({
  cancelAllOrders: z.boolean().default(false).describe('Cancel every open order before exiting.'),
  timeoutMs: z
    .int()
    .positive()
    .default(10_000)
    .describe('Longest wait for strategies to stop and the recording to flush.'),
});

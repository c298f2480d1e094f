import { z } from 'zod';

/** Where a live or paper run records what the venue sent (market data and User Data). */
export const recordingConfigSchema = z.strictObject({
  /** Output file (`.jsonl` or `.jsonl.gz`), relative to the working directory. */
  path: z.string().min(1),
});

/** Where the run writes its report. */
export const reportConfigSchema = z.strictObject({
  /** The HTML report. */
  html: z.string().min(1).optional(),
  /** The machine-readable result (`keel report` rebuilds the HTML from it). */
  json: z.string().min(1).optional(),
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
  /** Cancel every open order before exiting. */
  cancelAllOrders: z.boolean().default(false),
  /** Longest wait for strategies to stop and the recording to flush. */
  timeoutMs: z.int().positive().default(10_000),
});

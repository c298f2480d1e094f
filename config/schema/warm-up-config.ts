import { z } from 'zod';
import { BAR_INTERVAL_MS, type BarInterval } from '../../core/model/index.ts';
import { filePathSchema } from './file-path.ts';
import { ohlcvCsvConfigSchema } from './ohlcv-csv-config.ts';

const NOT_A_DURATION = 'must be a duration like 20h, 90m, 2d or 30s (units: ms, s, m, h, d)';
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A positive length of time written with its unit (`20h`, `90m`, `2d`, `30s`, `500ms`); comes out in ms. */
export const durationValue = z
  .string({ error: NOT_A_DURATION })
  .refine((text) => DURATION.test(text.trim()), { error: NOT_A_DURATION })
  .transform((text) => {
    const [, amount, unit] = DURATION.exec(text.trim()) as RegExpExecArray;
    return Math.round(Number(amount) * (UNIT_MS[unit as string] as number));
  })
  .refine((ms) => ms > 0, { error: 'must be longer than 0' });

const INTERVALS = Object.keys(BAR_INTERVAL_MS) as [BarInterval, ...BarInterval[]];

/** One source of warm-up history: a recording (path) or an OHLCV CSV. */
export const historySourceSchema = z.union([filePathSchema, ohlcvCsvConfigSchema], {
  error: 'must be a recording path, or { csv: <file>, sym: <sym> } for an OHLCV CSV',
});

/**
 * Warming the strategies up before they trade, as Lean's SetWarmUp: a period (or a number of
 * bars) of history goes through their usual hooks with `ctx.warmingUp` true and every intent
 * denied. Backtests take it from the start of their own replay; paper and live runs from
 * `history`, since the venue has no history endpoint.
 */
export const warmUpConfigSchema = z
  .strictObject({
    period: durationValue
      .optional()
      .describe('How much history to warm up on, e.g. 20h, 90m, 2d; or give bars and interval.'),
    bars: z
      .int()
      .positive()
      .optional()
      .describe(
        'Or: this many whole bars of interval, in time (the warm-up starts on that bar grid); a market that closes holds fewer bars in that time, and a backtest warns.',
      ),
    interval: z.enum(INTERVALS).optional().describe('The bar interval bars counts in, e.g. 1h.'),
    history: z
      .array(historySourceSchema)
      .min(1)
      .optional()
      .describe(
        'Paper and live runs: recordings (session recordings, keel import-csv output) or { csv, sym } OHLCV CSVs holding the period before the start, relative to the folder of the config file (`~/` is the home folder).',
      ),
  })
  .superRefine((warmUp, ctx) => {
    const given = [
      warmUp.period === undefined ? [] : ['period'],
      warmUp.bars === undefined ? [] : ['bars'],
    ].flat();
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: given.length === 0 ? [] : ['bars'],
        message:
          given.length === 0
            ? 'needs either period (e.g. 20h) or bars and interval (e.g. bars: 20, interval: 1h)'
            : 'cannot be given with period: choose one of the two',
        input: warmUp,
      });
    }
    if (warmUp.bars !== undefined && warmUp.interval === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['bars'],
        message: 'needs interval, the bar interval it counts in (e.g. interval: 1h)',
        input: warmUp.bars,
      });
    if (warmUp.interval !== undefined && warmUp.bars === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['interval'],
        message: 'is the interval of bars, which is not given (use bars: <n> with it, or period alone)',
        input: warmUp.interval,
      });
  });

/** Warm-up settings, validated. */
export type WarmUpConfig = z.output<typeof warmUpConfigSchema>;
/** One warm-up history source, validated. */
export type HistorySource = z.output<typeof historySourceSchema>;

/**
 * The warm-up's length and bar grid.
 * @param warmUp - validated warm-up settings
 * @returns the period in ms, and the interval in ms when counted in bars
 */
export function warmUpPeriodOf(warmUp: WarmUpConfig): {
  readonly periodMs: number;
  readonly alignMs?: number;
} {
  if (warmUp.bars !== undefined && warmUp.interval !== undefined) {
    const alignMs = BAR_INTERVAL_MS[warmUp.interval];
    return { periodMs: warmUp.bars * alignMs, alignMs };
  }
  return { periodMs: warmUp.period ?? 0 };
}

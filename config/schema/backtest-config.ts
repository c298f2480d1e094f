import { z } from 'zod';
import { nonNegativeDecimal, positiveDecimal } from './decimal-value.ts';
import { timeValue } from './time-value.ts';

/** Starting balances per asset (`{ USDT: 100000 }`). */
export const startingCashSchema = z
  .record(
    z.string().regex(/^[A-Z0-9]{1,20}$/, { error: 'must be an upper-case asset code' }),
    positiveDecimal,
  )
  .refine((cash) => Object.keys(cash).length > 0, { message: 'must name at least one asset' });

/** Simulated order latency: a fixed delay plus seeded uniform jitter. */
export const latencyModelSchema = z.strictObject({
  fixedMs: z.number().nonnegative().default(0),
  jitterMs: z.number().nonnegative().default(0),
  seed: z.int().default(1),
});

/**
 * How fills pay fees: the instruments' own schedules (with sub-portfolio markups), or flat
 * rates in basis points for every instrument.
 */
export const feeModelSchema = z.discriminatedUnion(
  'model',
  [
    z.strictObject({ model: z.literal('instrument') }),
    z.strictObject({
      model: z.literal('flat'),
      makerBps: z.number().min(-100).max(1000),
      takerBps: z.number().min(-100).max(1000),
      fixedPerFill: nonNegativeDecimal.prefault(0),
    }),
  ],
  { error: 'must be "instrument" or "flat"' },
);

/** A backtest: which recordings to replay, over which window, with which simulated venue. */
export const backtestConfigSchema = z
  .strictObject({
    /** Recording files (JSON lines, gzip allowed), relative to the config file. */
    recordings: z.array(z.string().min(1)).min(1),
    from: timeValue.optional(),
    to: timeValue.optional(),
    startingCash: startingCashSchema,
    /** Name of a fill model of backtest/sim. */
    fillModel: z.string().regex(/^[a-z][a-z0-9-]*$/, { error: 'must be a fill model name like "touch"' }),
    latency: latencyModelSchema.prefault({}),
    fees: feeModelSchema.prefault({ model: 'instrument' }),
    /** Close every position at the last price when the replay ends, so PnL is realised. */
    closeAtEnd: z.boolean().default(true),
  })
  .superRefine((backtest, ctx) => {
    if (backtest.from !== undefined && backtest.to !== undefined && backtest.from >= backtest.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be later than from', input: backtest.to });
    }
  });

/** Backtest settings, validated. */
export type BacktestConfig = z.output<typeof backtestConfigSchema>;

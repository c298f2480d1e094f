import { z } from 'zod';
import { nonNegativeDecimal, positiveDecimal } from './decimal-value.ts';
import { filePathSchema } from './file-path.ts';
import { loanTermsConfigSchema } from './loan-terms-config.ts';
import { ohlcvCsvConfigSchema } from './ohlcv-csv-config.ts';
import { fillModelConfigSchema, latencyModelSchema, positionModeConfigSchema } from './sim-models-config.ts';
import { timeValue } from './time-value.ts';

/** Starting balances per asset (`{ USDT: 100000 }`). */
export const startingCashSchema = z
  .record(
    z.string().regex(/^[A-Z0-9]{1,20}$/, { error: 'must be an upper-case asset code' }),
    positiveDecimal,
  )
  .refine((cash) => Object.keys(cash).length > 0, { message: 'must name at least one asset' });

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
      makerBps: z
        .number()
        .min(-10)
        .max(1000)
        .describe(
          'Fee on maker fills, in basis points of the notional (1 = 0.01 %); below zero a maker rebate, at most 10 (0.1 %), more than any venue pays.',
        ),
      takerBps: z
        .number()
        .min(0)
        .max(1000)
        .describe(
          'Fee on taker fills, in basis points of the notional (1 = 0.01 %); never below zero: no venue pays takers, and a sign slip would turn every fee into income.',
        ),
      fixedPerFill: nonNegativeDecimal
        .prefault(0)
        .describe('Fixed commission on every fill, in the quote asset.'),
      fixedPerOrder: nonNegativeDecimal
        .optional()
        .describe('Fixed commission once per order (on its first fill), in the quote asset.'),
    }),
  ],
  { error: 'must be "instrument" or "flat"' },
);

/**
 * How the report's returns are annualized (Sharpe, Sortino, annualized return and volatility).
 * Unset fields take the defaults of the metrics: automatic period, risk-free rate 0, and 252
 * trading days a year when every instrument is a US equity, else 365.
 */
export const annualizationConfigSchema = z.strictObject({
  tradingDaysPerYear: z
    .number()
    .int()
    .min(1)
    .max(366)
    .optional()
    .describe('Trading days a year: 365 for crypto, 252 for equities; absent = by the instruments.'),
  period: z
    .enum(['auto', 'day', 'sample'])
    .default('auto')
    .describe(
      'Returns taken daily, per sample on a time grid, or auto (daily over 3+ days, none under a day).',
    ),
  periodsPerYear: z.number().positive().optional().describe('Replaces the derived periods a year.'),
  sampleStepMs: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Grid step of per-sample returns, ms; absent = the equity curve's bucket width."),
  riskFreeRate: z
    .number()
    .min(-1)
    .max(1)
    .default(0)
    .describe('Annual risk-free rate for Sharpe and Sortino (0.04 = 4 %).'),
});

/** What `backtest.to` is told when it is not later than `backtest.from` (a sweep skips such a combination). */
export const WINDOW_ENDS_BEFORE_START = 'must be later than from';

/** A backtest: which recordings to replay, over which window, with which simulated venue. */
export const backtestConfigSchema = z
  .strictObject({
    recordings: z
      .array(
        z.union([filePathSchema, ohlcvCsvConfigSchema], {
          error: 'must be a recording path, or { csv: <file>, sym: <sym> } for an OHLCV CSV',
        }),
      )
      .min(1)
      .describe(
        'Recording files (JSON lines, gzip allowed: session recordings, or what `keel import-csv` wrote), or { csv, sym, ... } OHLCV CSVs read on the fly as `keel import-csv` reads them (its options: interval, zone, timestampIs, epochUnit, timeFormat, decimalMark, header, adjust, skipInvalid, synthetic; nothing is written), relative to the folder of the config file (`~/` is the home folder); where they overlap, an event one repeats of another at the same receive time is replayed once, with a warning. `--recording <file>` (repeatable) of `keel backtest` and `keel sweep` replaces them for that run, relative to the working directory.',
      ),
    from: timeValue.optional().describe('Start of the replay window (ISO date-time with zone, or epoch ms).'),
    to: timeValue.optional().describe('End of the replay window (ISO date-time with zone, or epoch ms).'),
    startingCash: startingCashSchema.describe(
      'Starting balances per asset, e.g. { USDT: 100000 }: the account currency every instrument settles in, and optionally base coins of the spot or margin instruments of the run (e.g. { USDT: 100000, ETH: 10 } with OKX_SPOT_ETH_USDT), held from the start and valued at their first price in the data. Such coins are not a position: selling them shows a short round trip in the trade list, and `closeAtEnd` buys back what the run sold of them, so the run ends holding them again.',
    ),
    fillModel: fillModelConfigSchema
      .optional()
      .describe(
        'Fill model of the simulated venue; absent = `bar` when the recordings begin with bars and nothing an order trades against (no quote, trade or book), else `queue`; the run warns when the data it then meets does not fit the one it chose.',
      ),
    latency: latencyModelSchema
      .optional()
      .describe(
        "Simulated latency; absent = the simulated venue's default (order entry 10 ms + U[0,5) ms, market data and User Data 5 ms).",
      ),
    fees: feeModelSchema.prefault({ model: 'instrument' }),
    loans: loanTermsConfigSchema
      .optional()
      .describe(
        'Margin-loan terms of the simulated venue (borrowable assets, rates, quotas, LTV limits); absent = nothing can be borrowed (406014).',
      ),
    positionMode: positionModeConfigSchema
      .default('NET')
      .describe(
        "Position mode the simulated account starts in: NET (one position per sym) or BOTH (hedge mode, a LONG and a SHORT leg per sym; the built-in strategies then trade through `ctx.order.legs`). The replay of a paper session's recording needs the mode that session ran in.",
      ),
    closeAtEnd: z
      .boolean()
      .default(true)
      .describe(
        "Close every position when the replay ends, so PnL is realised: after the strategies saw every event, market orders fill at each instrument's last known price (on bars, the last close), with fees.",
      ),
    annualization: annualizationConfigSchema.prefault({}),
    eventCache: z
      .boolean()
      .default(true)
      // The cache holds the whole recording (the replay window is applied after it); results are
      // the same with and without it. Kept short: a longer text re-aligns the whole reference table.
      .describe(
        'Replay from a cache of decoded events kept next to each recording (<file>.events.bin, .json), rebuilt when stale.',
      ),
  })
  .superRefine((backtest, ctx) => {
    if (backtest.from !== undefined && backtest.to !== undefined && backtest.from >= backtest.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: WINDOW_ENDS_BEFORE_START, input: backtest.to });
    }
  });

/** Backtest settings, validated. */
export type BacktestConfig = z.output<typeof backtestConfigSchema>;

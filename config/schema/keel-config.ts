import { z } from 'zod';
import { backtestConfigSchema } from './backtest-config.ts';
import { instrumentConfigSchema, missingSpecFields, settleAssetOf } from './instrument-config.ts';
import {
  loggingConfigSchema,
  metricsConfigSchema,
  recordingConfigSchema,
  reportConfigSchema,
  shutdownConfigSchema,
} from './output-config.ts';
import { paperConfigSchema } from './paper-config.ts';
import { portfoliosConfigSchema } from './portfolio-config.ts';
import { riskConfigSchema } from './risk-config.ts';
import { checkStartingCash } from './starting-cash-check.ts';
import { strategyConfigSchema } from './strategy-config.ts';
import { venueConfigSchema } from './venue-config.ts';
import { warmUpConfigSchema } from './warm-up-config.ts';

/** The three ways to run: against the venue, against the paper venue, or on a recording. */
export const RUN_MODES = ['live', 'paper', 'backtest'] as const;
/** A run mode. */
export type RunMode = (typeof RUN_MODES)[number];

/** The section each mode cannot run without. */
const SECTION_OF_MODE = { live: 'venue', paper: 'paper', backtest: 'backtest' } as const;

/**
 * One run of Keel, as one YAML file describes it. Every object is strict: an unknown key is an
 * error, so a typo never silently falls back to a default.
 */
export const keelConfigSchema = z
  .strictObject({
    mode: z
      .enum(RUN_MODES)
      .describe('live: the venue; paper: the embedded paper venue; backtest: a recording.'),
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$/, {
        error:
          'must be 1 to 80 letters, digits, "_", "." or "-", starting with a letter or digit (it names files in out/)',
      })
      .optional()
      .describe(
        'A name for logs, recordings and reports, 1 to 80 letters, digits, "_", "." or "-", starting with a letter or digit (it names the default files in `out/`).',
      ),
    venue: venueConfigSchema.optional().describe('How to reach the venue; required in live mode.'),
    portfolios: portfoliosConfigSchema.prefault({}).describe('The main portfolio and its sub-portfolios.'),
    instruments: z
      .array(instrumentConfigSchema)
      .min(1)
      .describe(
        'Syms the run trades or watches, each optionally with spec overrides; strategies receive market data of these syms only.',
      ),
    strategies: z.array(strategyConfigSchema).min(1).describe('The strategy instances of the run.'),
    risk: riskConfigSchema.prefault({}).describe('Global risk limits and the kill switch.'),
    backtest: backtestConfigSchema.optional().describe('Backtest settings; required in backtest mode.'),
    paper: paperConfigSchema.optional().describe('Embedded paper venue settings; required in paper mode.'),
    warmUp: warmUpConfigSchema
      .optional()
      .describe(
        "Warm the strategies' indicators up on history before they trade (ctx.warmingUp true, every intent denied): a backtest's first period, or history files in paper and live runs.",
      ),
    recording: recordingConfigSchema
      .optional()
      .describe('Record what the venue sent during a live or paper run.'),
    report: reportConfigSchema.optional().describe('Where to write the HTML report and the result JSON.'),
    logging: loggingConfigSchema
      .prefault({})
      .describe('Log level (pino) of live and paper runs and keel record.'),
    metrics: metricsConfigSchema
      .prefault({})
      .describe(
        'Prometheus /metrics endpoint, with the /healthz (liveness) and /readyz probes, of live and paper runs, and of `keel record` (its market-data connection and inbound counts). /readyz is 200 while the private stream is reconciled, the market stream up, the kill switch not tripped (HALTED or REDUCING, a restored trip included) and the run not stopping; else 503 naming each reason: stopping (from the moment a signal, --duration or the end of a paper feed begins the stop), a trip in force, a stream down or not reconciled yet, or a failed start-up with what failed and why (warm-up history, paper venue, the live venue listing the instruments, login or first reconciliation, warm-up, recording) while it closes. `keel record` is ready while its market stream is up and it is not stopping, and names a failed start-up the same way.',
      ),
    shutdown: shutdownConfigSchema
      .prefault({})
      .describe('What SIGINT / SIGTERM / SIGHUP do in live and paper runs.'),
  })
  .superRefine((config, ctx) => {
    const section = SECTION_OF_MODE[config.mode];
    if (config[section] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['mode'],
        message: `needs a ${section} section when mode is ${config.mode}`,
        input: config.mode,
      });
    }
    flagDuplicates(
      ctx,
      config.strategies.map((s) => s.id),
      'strategies',
      'id',
    );
    flagDuplicates(
      ctx,
      config.instruments.map((i) => i.sym),
      'instruments',
      undefined,
    );
    flagDuplicates(
      ctx,
      config.portfolios.subs.map((p) => p.id),
      'portfolios.subs',
      'id',
    );
    // Live runs take specs from the venue; backtests and paper runs build them here.
    if (config.mode !== 'live') {
      config.instruments.forEach((instrument, index) => {
        const missing = missingSpecFields(instrument);
        if (missing !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['instruments', index],
            message: missing,
            input: instrument.sym,
          });
      });
    }
    if (config.mode === 'backtest' && config.backtest !== undefined)
      checkStartingCash(ctx, 'backtest', config.backtest.startingCash, config.instruments);
    // The paper venue counts USDT, USDC and USD one for one, so US equities alone may run on its
    // default USDT cash; beside an instrument settling in another asset, one of them would pay
    // its fees and PnL in a currency added into the other's totals: held to a backtest's check.
    if (config.mode === 'paper' && config.paper !== undefined)
      checkStartingCash(
        ctx,
        'paper',
        config.paper.startingCash,
        config.instruments,
        new Set(config.instruments.map(settleAssetOf).filter((coin) => coin !== undefined)).size > 1,
      );
    checkWarmUpHistory(ctx, config.mode, config.warmUp);
    const syms = config.instruments.map((i) => i.sym);
    checkLimitSyms(ctx, syms, ['risk'], config.risk);
    config.strategies.forEach((strategy, index) => {
      checkLimitSyms(ctx, syms, ['strategies', index, 'risk'], strategy.risk);
    });
    const portfolios = new Set([config.portfolios.main, ...config.portfolios.subs.map((p) => p.id)]);
    config.strategies.forEach((strategy, index) => {
      if (strategy.portfolio !== undefined && !portfolios.has(strategy.portfolio)) {
        ctx.addIssue({
          code: 'custom',
          path: ['strategies', index, 'portfolio'],
          message: `names portfolio "${strategy.portfolio}", which is not declared (declared: ${[...portfolios].join(', ')})`,
          input: strategy.portfolio,
        });
      }
    });
    checkOnePortfolio(ctx, config.portfolios.main, config.strategies);
  });

/**
 * One run trades one account: the simulated and paper venues keep one, a live run trades its API
 * key's, and every fill pays the one sub-portfolio markup. Strategies that name different
 * portfolios (absent is the main one) would all trade that one account, at the first one's fees.
 */
function checkOnePortfolio(
  ctx: z.RefinementCtx,
  main: string,
  strategies: readonly { readonly portfolio?: string | undefined }[],
): void {
  const first = strategies[0];
  if (first === undefined) return;
  const firstPortfolio = first.portfolio ?? main;
  const firstNames = first.portfolio === undefined ? `the main one (${main})` : first.portfolio;
  const instead = `one run trades one portfolio, and strategies[0]'s is ${firstNames}: run each portfolio's strategies in a run of their own`;
  strategies.forEach((strategy, index) => {
    if ((strategy.portfolio ?? main) === firstPortfolio) return;
    ctx.addIssue({
      code: 'custom',
      path: strategy.portfolio === undefined ? ['strategies', index] : ['strategies', index, 'portfolio'],
      message:
        strategy.portfolio === undefined
          ? `names no portfolio, so trades in the main one (${main}), but ${instead}`
          : `names portfolio ${strategy.portfolio}, but ${instead}`,
      input: strategy.portfolio,
    });
  });
}

/**
 * A per-sym limit keyed by a sym the run does not trade would never apply: a typo there
 * (`BINANCE_PERP_BTCUSDT`) would silently leave the sym without its limit.
 */
function checkLimitSyms(
  ctx: z.RefinementCtx,
  syms: readonly string[],
  at: readonly (string | number)[],
  limits: { readonly maxPositionQtyBySym?: Readonly<Record<string, unknown>> | undefined } | undefined,
): void {
  for (const sym of Object.keys(limits?.maxPositionQtyBySym ?? {})) {
    if (syms.includes(sym)) continue;
    ctx.addIssue({
      code: 'custom',
      path: [...at, 'maxPositionQtyBySym', sym],
      message: `names "${sym}", which is not among the instruments (${syms.join(', ')}): its limit would never apply`,
      input: sym,
    });
  }
}

/** Paper and live runs warm up on history files (the venue has no history endpoint); a backtest on its own replay. */
function checkWarmUpHistory(
  ctx: z.RefinementCtx,
  mode: RunMode,
  warmUp: z.output<typeof warmUpConfigSchema> | undefined,
): void {
  if (warmUp === undefined) return;
  if (mode === 'backtest' && warmUp.history !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['warmUp', 'history'],
      message:
        'is for paper and live runs: a backtest warms up on the first part of its own recordings (the part before backtest.from when it is set)',
      input: warmUp.history,
    });
  if (mode !== 'backtest' && warmUp.history === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['warmUp'],
      message: `needs history in ${mode} mode: the recording(s) or OHLCV CSV(s) to warm up on, as the venue has no history endpoint (e.g. history: [data/btc-1h.jsonl.gz])`,
      input: warmUp,
    });
}

function flagDuplicates(
  ctx: z.RefinementCtx,
  values: readonly string[],
  list: string,
  key: string | undefined,
): void {
  const seen = new Set<string>();
  values.forEach((value, index) => {
    // zod runs this check over entries whose own parse failed too: those have no value, and
    // their own issue already says what is wrong with them.
    if (typeof value !== 'string') return;
    if (seen.has(value)) {
      const path = [...list.split('.'), index, ...(key === undefined ? [] : [key])];
      ctx.addIssue({
        code: 'custom',
        path,
        message: `repeats "${value}", which must be unique`,
        input: value,
      });
    }
    seen.add(value);
  });
}

/** A run's configuration, validated: decimals are Decimals, times are epoch ms, secrets are Secrets. */
export type KeelConfig = z.output<typeof keelConfigSchema>;
/** A run's configuration as written in YAML (before defaults and conversions). */
export type KeelConfigInput = z.input<typeof keelConfigSchema>;

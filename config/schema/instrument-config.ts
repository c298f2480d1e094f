import { z } from 'zod';
import { SYNTHETIC_INSTRUMENTS } from '../../backtest/synthetic/index.ts';
import { editDistance } from '../../core/kernel/closest-key.ts';
import { parseSym } from '../../core/model/index.ts';
import { nonNegativeDecimal, positiveDecimal } from './decimal-value.ts';

/** A venue sym (`BINANCE_PERP_BTC_USDT`, `US_EQUITY_AAPL`), checked by the model's parser. */
export const symSchema = z.string().superRefine((sym, ctx) => {
  try {
    parseSym(sym);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message, input: sym });
  }
});

/**
 * Fields of an instrument spec a config may override (for a sym without a built-in spec, or to
 * test a tighter tick). Absent fields come from the built-in spec or Keel's defaults in backtests
 * and paper runs (recordings carry no symbol info), from the venue's symbol info in live runs.
 */
export const instrumentOverridesSchema = z.strictObject({
  tickSize: positiveDecimal
    .optional()
    .describe('Price step: limit and trigger prices must be multiples of it.'),
  lotSize: positiveDecimal
    .optional()
    .describe(
      'Quantity step, in contracts: order quantities must be multiples of it (a US equity: a whole number of shares).',
    ),
  minSize: nonNegativeDecimal
    .optional()
    .describe('Smallest order quantity, in contracts (a US equity: a whole number of shares).'),
  minNotional: nonNegativeDecimal
    .optional()
    .describe('Smallest order notional (qty * contractSize * price), in the settlement asset.'),
  maxLimitSize: positiveDecimal.optional().describe('Largest limit order quantity, in contracts.'),
  maxMarketSize: positiveDecimal.optional().describe('Largest market order quantity, in contracts.'),
  maxNumOrders: z.int().positive().optional().describe('Most open orders the venue allows on the sym.'),
  pricePrecision: z
    .int()
    .min(0)
    .max(18)
    .optional()
    .describe("Decimal places of prices; default the tickSize override's when there is one."),
  qtyPrecision: z
    .int()
    .min(0)
    .max(18)
    .optional()
    .describe("Decimal places of quantities; default the lotSize override's when there is one."),
  contractSize: positiveDecimal
    .optional()
    .describe('Units of the base asset per contract (1 for spot and equities).'),
  defaultLeverage: positiveDecimal
    .optional()
    .describe(
      "Leverage of the sym's positions in backtests and paper: initial margin is notional / leverage (spot and equities: always 1, and keel validate and the run warn of an override on them).",
    ),
  liquidationFee: nonNegativeDecimal
    .optional()
    .describe('Fee on the notional of each liquidation fill, as a fraction (0.0125 = 1.25 %).'),
  settleAsset: z
    .string()
    .regex(/^[A-Z0-9]{1,20}$/, { error: 'must be an upper-case asset code' })
    .optional()
    .describe('The asset PnL and fees are paid in, e.g. USDT.'),
  makerFee: decimalRate().optional().describe('Maker rate as a fraction of notional (0.0002 = 2 bps).'),
  takerFee: decimalRate().optional().describe('Taker rate as a fraction of notional.'),
  fixedFeePerFill: nonNegativeDecimal
    .optional()
    .describe('Fixed commission per fill in the quote asset (equities).'),
  fixedFeePerOrder: nonNegativeDecimal
    .optional()
    .describe('Fixed commission once per order, on its first fill, in the quote asset (equities).'),
});

function decimalRate() {
  return nonNegativeDecimal.refine((rate) => rate.lt(1), { message: 'must be a fraction below 1' });
}

/** The quantity overrides that must be whole numbers on a US equity. */
const WHOLE_SHARE_FIELDS = ['lotSize', 'minSize'] as const;

/**
 * An instrument the run trades or watches: a bare sym, or a sym with spec overrides.
 * Both forms come out as `{ sym, overrides }`. A US equity's lotSize and minSize must be whole
 * numbers: the spec's PLACE_ORDER, which paper and live runs send its orders with, carries a
 * whole number of shares, so a fractional lot would fill in a backtest what no other mode can
 * send.
 */
export const instrumentConfigSchema = z
  .union([
    symSchema,
    z
      .strictObject({
        sym: symSchema.describe('The venue sym, e.g. BINANCE_PERP_BTC_USDT or US_EQUITY_AAPL.'),
        overrides: instrumentOverridesSchema
          .prefault({})
          .describe(
            "Spec fields that replace the built-in spec's or Keel's defaults (backtest and paper runs) or the venue's symbol info (live runs).",
          ),
      })
      .superRefine(({ sym, overrides }, ctx) => {
        if (!isEquitySym(sym)) return;
        for (const field of WHOLE_SHARE_FIELDS) {
          const value = overrides?.[field];
          if (value === undefined || value.isInteger()) continue;
          ctx.addIssue({
            code: 'custom',
            path: ['overrides', field],
            message: `must be a whole number of shares on a US equity, not ${value.toFixed()}: PLACE_ORDER, which paper and live runs send ${sym}'s orders with, carries whole shares only`,
            input: value,
          });
        }
      }),
  ])
  .transform((entry) => (typeof entry === 'string' ? { sym: entry, overrides: {} } : entry));

/** An instrument of a run, validated. */
export type InstrumentConfig = z.output<typeof instrumentConfigSchema>;
/** Spec overrides of an instrument, validated. */
export type InstrumentOverrides = z.output<typeof instrumentOverridesSchema>;

/**
 * What an instrument entry must add before a backtest or paper run can make its spec: nothing for
 * a sym with a built-in spec or a US equity (Keel's defaults cover them), a tick and a lot size
 * for any other crypto sym, since those differ by orders of magnitude between coins.
 * @param instrument - the config's entry
 * @returns the sentence saying what to add, or undefined when the entry is enough (or malformed,
 *   which its own schema reports)
 */
export function missingSpecFields(instrument: InstrumentConfig): string | undefined {
  const { sym, overrides } = instrument;
  // A malformed entry is reported by its own schema; zod runs this refinement on it all the same.
  if (typeof sym !== 'string' || !isCryptoSym(sym) || SYNTHETIC_INSTRUMENTS[sym] !== undefined)
    return undefined;
  if (overrides?.tickSize !== undefined && overrides.lotSize !== undefined) return undefined;
  const builtIns = Object.keys(SYNTHETIC_INSTRUMENTS);
  // A sym one edit from a built-in one is most likely it mistyped (BINANCE_PERP_BTC_USD).
  const near = builtIns.find((builtIn) => editDistance(sym, builtIn) <= 1);
  const typo = near === undefined ? '' : `did you mean ${near}? `;
  return (
    `${sym} has no built-in spec (${typo}built-in: ${builtIns.join(', ')}), so give its tickSize and lotSize, ` +
    `e.g. { sym: ${sym}, overrides: { tickSize: 0.01, lotSize: 0.001, makerFee: 0.0002, takerFee: 0.0005 } }`
  );
}

/**
 * The asset an instrument entry's spec settles in: its `settleAsset` override, else the built-in
 * spec's, else Keel's default for its kind (USD for a US equity, the quote asset for crypto).
 * @param instrument - the config's entry
 * @returns the asset, or undefined for a malformed sym (which its own schema reports)
 */
export function settleAssetOf(instrument: InstrumentConfig): string | undefined {
  const { sym, overrides } = instrument;
  if (overrides?.settleAsset !== undefined) return overrides.settleAsset;
  const builtIn = SYNTHETIC_INSTRUMENTS[sym];
  if (builtIn !== undefined) return builtIn.settleAsset;
  try {
    const id = parseSym(sym);
    return id.kind === 'equity' ? 'USD' : id.quote;
  } catch {
    return undefined;
  }
}

function isCryptoSym(sym: string): boolean {
  return kindOf(sym) === 'crypto';
}

function isEquitySym(sym: string): boolean {
  return kindOf(sym) === 'equity';
}

function kindOf(sym: unknown): string | undefined {
  if (typeof sym !== 'string') return undefined;
  try {
    return parseSym(sym).kind;
  } catch {
    return undefined;
  }
}

import { z } from 'zod';
import { type Dec, decimalOf, parseDecimal } from '../model/index.ts';
import { DISABLEABLE_CHECK_NAMES } from './risk-check-names.ts';

/** A decimal given as a string ("1000.5") or a number (1000.5) in config, parsed exactly. */
const decimalInput = z.union([z.string(), z.number()]).transform((value, ctx): Dec => {
  try {
    return typeof value === 'number' ? decimalOf(value) : parseDecimal(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

const positiveDecimal = decimalInput.refine((value) => value.greaterThan(0), 'must be positive');

/** A rate limit: at most `limit` intents per `intervalMs`, refilled continuously (token bucket). */
export const rateLimitSchema = z
  .object({
    limit: z.number().int().positive(),
    intervalMs: z.number().int().positive(),
  })
  .strict();

/**
 * Risk limits, usable at portfolio level (`limits`) and per strategy (`strategies.<id>`); an
 * intent must pass both. Every limit is optional: absent = not checked. Amounts are in the
 * instrument's settlement currency; quantities in contracts.
 */
export const riskLimitsSchema = z
  .object({
    maxNotionalPerOrder: positiveDecimal
      .optional()
      .describe(
        "Largest notional of one order, in the instrument's settlement asset: qty * contractSize * the limit price (a market order at the reference price; a quote-sized one at its quote amount).",
      ),
    /**
     * Largest absolute position per sym (and leg), counting open orders on the same side as if
     * filled (one with a modify in flight, acknowledged or not, at the larger qty; a position close in flight as a
     * reduce-only order of the whole leg). The position is the portfolio's, also for a strategy's
     * own limit; a strategy's limit counts only its own open orders, the global one every
     * strategy's. An order passes only as far as it reduces what the position has left after the
     * resting orders on its side (or is reduce-only); the part beyond counts as opening. Algo
     * orders are checked when placed or replaced, as the order their trigger sends; resting ones
     * that can add to a position count as open orders, as if they fired (reduce-only ones and
     * attached take-profits and stop-losses, exits, do not).
     */
    maxPositionQty: positiveDecimal
      .optional()
      .describe(
        "Largest |position| per sym (and leg) in contracts, counting open orders on the same side as if filled: one with a modify in flight (sent before or after the venue acknowledged the order) at the larger of its qty and the modify's, a position close in flight as claiming the whole position. The position is the portfolio's, also for a strategy's own limit, which counts only that strategy's open orders (the global one counts every strategy's). An order that reduces passes only as far as the position is not already claimed by resting orders on its side; the rest counts as opening. Reduce-only orders pass. An algo order is checked when placed or replaced, as the order its trigger sends. Algo orders not triggered yet (and those sent, not answered yet) that are not reduce-only count as open orders of the qty they send, as if they all fired, whichever strategy sent them; reduce-only algo orders and an order's attached take-profit and stop-loss are exits and are not counted.",
      ),
    /** Per-sym overrides of `maxPositionQty`. */
    maxPositionQtyBySym: z
      .record(z.string(), positiveDecimal)
      .optional()
      .describe(
        "Per-sym overrides of maxPositionQty, same rule. Each key must be one of the run's instruments: keel validate and the run refuse another in a config, at its line, and a kernel refuses a RiskGate built in code with one (a typo would leave the sym without its limit).",
      ),
    maxGrossExposure: positiveDecimal
      .optional()
      .describe(
        "Largest gross exposure in the settlement asset if the order and the open orders that can add to a position filled: the sum over syms of |position| * contractSize * the mark price now, each leg's open buys and sells (at their limit price, a market order at the reference price; one with a modify in flight, acknowledged or not, at the larger of its qty and price and the modify's; the order's own among them; algo orders not triggered yet that are not reduce-only, and not an order's attached take-profit or stop-loss, as the order they send if they fired) netted against its position the way that makes it largest. The positions are the account's at both levels (under strategies[] too: every sym's, whichever strategy opened it); at the top level every strategy's open orders count, under strategies[] the strategy's own. Orders that reduce pass; a denial says how much of the total the positions are.",
      ),
    maxOpenOrders: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe(
        "Most open orders at once, counting algo orders not triggered yet (and those sent, not answered yet), each of which may put an order on the book (an order's attached take-profit and stop-loss as one: only one of them can fire), and the trailing stops Keel holds and has not fired yet: the portfolio's at top level, the strategy's own under strategies[]. Checked on new orders (trailing stops among them) and new algo orders.",
      ),
    priceBand: z
      .number()
      .positive()
      .lt(
        1,
        'must be less than 1: it is a fraction (0.05 = 5 %), and a band of 1 or more lets every BUY price through',
      )
      .optional()
      .describe(
        "Largest distance of a price from what it is judged against, as a fraction below 1: 0.05 = 5 %. A limit price, and the trigger price of an algo order that can add to a position, are judged against the reference price (mid of the last quote, else the last trade, else the last closed bar); an exit's trigger (a reduce-only algo order's, an order's take-profit's or stop-loss's) is not, as it can only take risk off; the limit price that goes with a trigger (a stop-limit's, a take-profit's or stop-loss's) against that trigger price, where it goes live. With no reference yet only the latter are judged; a modify or algo replacement that sets no new price (or trigger) passes.",
      ),
    submitRate: rateLimitSchema
      .optional()
      .describe(
        'Throttle of new orders and other commands that are not cancels or modifications: at most `limit` per `intervalMs`, refilled continuously (token bucket).',
      ),
    modifyRate: rateLimitSchema
      .optional()
      .describe('Throttle of order modifications and algo order replacements, same rule as submitRate.'),
    disabledChecks: z
      .array(z.enum(DISABLEABLE_CHECK_NAMES))
      .optional()
      .describe(
        'Checks switched off at this level, by name. A rule check (instrument, arguments, sizes) off at either level is off; a limit check is off only for the limits of this level.',
      ),
  })
  .strict();

/** The kill switch: trips the whole portfolio into `tripTo` on a loss limit. */
export const killSwitchSchema = z
  .object({
    dailyLossLimit: positiveDecimal
      .optional()
      .describe(
        "Largest loss in one UTC day, in the settlement asset: the day's first observed equity less equity now. Equity is observed on every intent, fill and account update, and on market data at most once a second and at each UTC day's first event (run time: replay time in backtests and paper).",
      ),
    maxDrawdown: z
      .number()
      .gt(0)
      .lt(1)
      .optional()
      .describe('Largest fall from the equity high-water mark, as a fraction: 0.1 = 10 %.'),
    tripTo: z
      .enum(['HALTED', 'REDUCING'])
      .default('HALTED')
      .describe(
        'The trading state a trip sets: HALTED lets nothing but cancels pass (and the order of a reduce-only trailing stop placed before the trip, which fires as a venue-held stop would), so an open position is frozen with only the protective orders the sweep keeps (see cancelOrdersOnHalt): the kill switch does not flatten it; REDUCING only what takes risk off (cancels, closes, repayments, reducing orders), re-sweeping orders that no longer reduce as positions shrink.',
      ),
  })
  .strict();

/** The whole risk configuration: portfolio limits, per-strategy limits and the kill switch. */
export const riskGateConfigSchema = z
  .object({
    limits: riskLimitsSchema.prefault({}),
    strategies: z.record(z.string(), riskLimitsSchema).prefault({}),
    killSwitch: killSwitchSchema.prefault({}),
  })
  .strict();

/** Parsed risk limits (Decimals). */
export type RiskLimits = z.output<typeof riskLimitsSchema>;
/** Risk limits as written in config (strings or numbers). */
export type RiskLimitsInput = z.input<typeof riskLimitsSchema>;
/** Parsed kill-switch settings. */
export type KillSwitchConfig = z.output<typeof killSwitchSchema>;
/** Parsed risk configuration. */
export type RiskGateConfig = z.output<typeof riskGateConfigSchema>;
/** Risk configuration as written in config. */
export type RiskGateConfigInput = z.input<typeof riskGateConfigSchema>;
/** A parsed rate limit. */
export type RateLimit = z.output<typeof rateLimitSchema>;

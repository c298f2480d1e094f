import type { Dec } from '../../core/model/index.ts';
import { asNumber, isPerpetual, ONE, ZERO } from '../../core/model/index.ts';
import { markDecimalOf, markPriceOf } from './market-state.ts';
import type { ValuationSum } from './portfolio-figures.ts';
import type { ResolvedSimOptions } from './sim-options.ts';
import type { SimState } from './sim-state.ts';

/**
 * Which price values a coin that is not a valuation coin (Keel's choice, independent of the order
 * the instruments are listed in): the mark of a `{coin}/{valuation coin}` spot or margin
 * instrument first, then of such a perpetual, each kind by sym; the first of these with a price
 * values the coin. Spot first because a spot price is the coin's own price, while a perpetual's
 * mark carries its basis; an order-independent choice keeps a basis trade's liquidation from
 * depending on how the config lists its legs.
 */
const candidatesByOptions = new WeakMap<ResolvedSimOptions, Map<string, readonly string[]>>();

function candidatesOf(state: SimState, coin: string): readonly string[] {
  let byCoin = candidatesByOptions.get(state.opts);
  if (byCoin === undefined) {
    byCoin = new Map();
    candidatesByOptions.set(state.opts, byCoin);
  }
  let syms = byCoin.get(coin);
  if (syms === undefined) {
    const specs = [...state.opts.instruments.values()].filter(
      (spec) =>
        spec.id.kind === 'crypto' && spec.id.base === coin && state.opts.valuationCoins.has(spec.id.quote),
    );
    const rank = (perp: boolean) => (perp ? 1 : 0);
    specs.sort(
      (a, b) =>
        rank(isPerpetual(a.id)) - rank(isPerpetual(b.id)) || (a.sym < b.sym ? -1 : a.sym > b.sym ? 1 : 0),
    );
    syms = specs.map((spec) => spec.sym);
    byCoin.set(coin, syms);
  }
  return syms;
}

/**
 * The sym whose mark values a coin now (see the order above).
 * @param state - the venue
 * @param coin - the coin
 * @returns the sym, undefined for a valuation coin and when no candidate has a price yet
 */
export function coinValuerOf(state: SimState, coin: string): string | undefined {
  if (state.opts.valuationCoins.has(coin)) return undefined;
  for (const sym of candidatesOf(state, coin)) {
    const market = state.markets.get(sym);
    if (market !== undefined && !Number.isNaN(markPriceOf(market))) return sym;
  }
  return undefined;
}

/**
 * The value of one unit of a coin in the account currency: 1 for valuation coins, else the mark of
 * the sym that values it ({@link coinValuerOf}); 0 when unknown.
 * @param state - the venue
 * @param coin - the coin
 * @returns its value
 */
export function coinValue(state: SimState, coin: string): Dec {
  if (state.opts.valuationCoins.has(coin)) return ONE;
  const sym = coinValuerOf(state, coin);
  const market = sym === undefined ? undefined : state.markets.get(sym);
  return (market ? markDecimalOf(market) : undefined) ?? ZERO;
}

/**
 * {@link coinValue} as a number: 1 for valuation coins, NaN when unknown.
 * @param state - the venue
 * @param coin - the coin
 * @returns its value
 */
export function coinValueN(state: SimState, coin: string): number {
  if (state.opts.valuationCoins.has(coin)) return 1;
  const sym = coinValuerOf(state, coin);
  const market = sym === undefined ? undefined : state.markets.get(sym);
  return market ? markPriceOf(market) : Number.NaN;
}

/**
 * Whether a coin has a value yet: a valuation coin, or one a sym with a price values.
 * @param state - the venue
 * @param coin - the coin
 * @returns true when {@link coinValue} knows its value
 */
export function isCoinValued(state: SimState, coin: string): boolean {
  return state.opts.valuationCoins.has(coin) || coinValuerOf(state, coin) !== undefined;
}

/**
 * The account's balances in the account currency on numbers, for the estimates that screen the
 * Decimal checks: valuation coins at 1, other coins at their value (`coinValue`).
 * @param state - the venue
 * @returns the sum; 0 with no balance
 */
export function balancesValueN(state: SimState): number {
  const sum = valuationSumOf(state);
  if (sum.all) return sum.value;
  let value = 0;
  // Keys and a look-up rather than entries: an entry ([coin, balance]) is an array made per coin.
  for (const coin of state.balancesN.keys()) {
    const balance = state.balancesN.get(coin) as number;
    value += state.opts.valuationCoins.has(coin) ? balance : balance * asNumber(coinValue(state, coin));
  }
  return value;
}

/**
 * The balances on numbers, summed as {@link balancesValueN} sums them (in their order, from 0),
 * when every coin held is a valuation coin: read off the balances alone, so summed once per move
 * of the portfolio (`portfolioVersion`), not on every bar and market event that asks.
 * @param state - the venue
 * @returns the sum and whether it covers every coin (false: a coin's value moves with a mark)
 */
export function valuationSumOf(state: SimState): ValuationSum {
  const figures = state.figures;
  if (figures.valuationSumAt === state.portfolioVersion) return figures.valuationSum;
  let value = 0;
  let all = true;
  for (const coin of state.balancesN.keys()) {
    if (state.opts.valuationCoins.has(coin)) value += state.balancesN.get(coin) as number;
    else all = false;
  }
  figures.valuationSum = { all, value };
  figures.valuationSumAt = state.portfolioVersion;
  return figures.valuationSum;
}

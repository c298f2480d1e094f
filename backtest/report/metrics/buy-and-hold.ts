import type { PricePoint } from '../equity-sample.ts';
import { finiteOrNull } from './sample-statistics.ts';

/**
 * Why the buy & hold benchmark holds the syms it holds, the first that gives a price series:
 * `traded` the syms the run had fills in; `named` the run's instruments the strategies name in
 * their params (how Keel strategies take the syms they subscribe to); `instruments` the run's
 * instruments; `recording` the first sym the recordings (or the feed) held.
 */
export type BuyAndHoldBasis = 'traded' | 'named' | 'instruments' | 'recording';

/** The syms the buy & hold return was taken on, and why those. */
export interface BuyAndHoldBenchmark {
  /** One sym, or the syms of an equal-weight basket, in the order of the basis. */
  readonly syms: readonly string[];
  readonly basis: BuyAndHoldBasis;
}

/** A sym's market prices in time order (a `PriceSeries` of the result). */
export interface SymPrices {
  readonly sym: string;
  readonly points: readonly PricePoint[];
}

/** Where the buy & hold benchmark is chosen from; the traded syms come from the run's fills. */
export interface BuyAndHoldSources {
  /** Every sym's prices over the run, in order of first appearance in the data. */
  readonly prices: readonly SymPrices[];
  /** The run's instruments the strategies name in their params, in strategy order. */
  readonly namedSyms?: readonly string[];
  /** The run's instruments, as configured. */
  readonly instrumentSyms?: readonly string[];
}

/** A buy & hold return and the benchmark it was taken on. */
export interface BuyAndHold {
  /** Equal-weight buy & hold return of the benchmark's syms (a fraction). */
  readonly value: number;
  readonly benchmark: BuyAndHoldBenchmark;
}

/**
 * Buy & hold of what the run traded (Keel's choice; backtesting.py has a single instrument): the
 * syms the strategies traded, else the instruments they name in their params, else the run's
 * instruments, else the first sym of the data, taking the first of these with a usable price
 * series (two prices or more, the first not 0). Several syms make an equal-weight basket bought
 * at each sym's first price and never rebalanced: mean over the syms of (last / first price - 1).
 * The backtest and the live and paper session results both take it from here (`computeMetrics`).
 * @param sources - the run's price series, named syms and instruments
 * @param tradedSyms - the syms the run had fills in, in order of first fill
 * @returns the return and its benchmark; undefined when no sym has a usable price series
 */
export function buyAndHoldOf(
  sources: BuyAndHoldSources,
  tradedSyms: readonly string[],
): BuyAndHold | undefined {
  const bySym = new Map(sources.prices.map((series) => [series.sym, series.points]));
  const first = sources.prices[0]?.sym;
  const candidates: readonly [BuyAndHoldBasis, readonly string[]][] = [
    ['traded', tradedSyms],
    ['named', sources.namedSyms ?? []],
    ['instruments', sources.instrumentSyms ?? []],
    ['recording', first === undefined ? [] : [first]],
  ];
  for (const [basis, syms] of candidates) {
    const returns = new Map<string, number>();
    for (const sym of syms) {
      const r = buyAndHoldReturn(bySym.get(sym) ?? []);
      if (r !== null && !returns.has(sym)) returns.set(sym, r);
    }
    if (returns.size === 0) continue;
    let sum = 0;
    for (const r of returns.values()) sum += r;
    const value = finiteOrNull(sum / returns.size);
    if (value !== null) return { value, benchmark: { syms: [...returns.keys()], basis } };
  }
  return undefined;
}

/**
 * Buy & hold return of one price series (backtesting.py's "Buy & Hold Return", which since 0.6
 * starts at the first bar after its indicators warm up; this one at the series' first price).
 * @param prices - prices in time order
 * @returns last / first - 1, or null without two prices or when the first is 0
 */
export function buyAndHoldReturn(prices: readonly PricePoint[]): number | null {
  const first = prices[0];
  const last = prices[prices.length - 1];
  if (first === undefined || last === undefined || prices.length < 2 || first.price === 0) return null;
  return finiteOrNull(last.price / first.price - 1);
}

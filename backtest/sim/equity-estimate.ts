import type { Dec } from '../../core/model/index.ts';
import { asNumber, D, decimalOf, ONE, ZERO } from '../../core/model/index.ts';
import { balancesValueN, coinValue, coinValueN } from './coin-valuation.ts';
import { timesSize } from './contract-size.ts';
import { addTo } from './decimal-sums.ts';
import { instrumentNumbers } from './instrument-numbers.ts';
import { valued } from './margin.ts';
import { markPriceOf } from './market-state.ts';
import { legMarkOf, openLegsOf } from './open-legs.ts';
import type { EquityPart, EquityParts } from './portfolio-figures.ts';
import { signedCost, unrealizedFromCost } from './sim-position.ts';
import type { SimState } from './sim-state.ts';

/**
 * Equity on numbers, for deciding cheaply when the exact (Decimal) equity is worth computing, e.g.
 * whether a sample may be a new low or high of an equity curve's bucket. Same formula as the
 * Decimal equity (balances x coin value + unrealized PnL - loans x coin value) on the number
 * mirrors of balances and positions, so it may differ from it by float rounding only.
 * @param state - the venue
 * @returns the estimate in the account currency
 */
export function equityEstimateOf(state: SimState): number {
  let equity = balancesValueN(state);
  for (const leg of openLegsOf(state)) {
    const mark = legMarkOf(state, leg);
    if (Number.isNaN(mark)) continue;
    const position = leg.position;
    const pnl = position.qtyN * position.contractSizeN * (mark - position.avgN);
    equity += leg.settleValued ? pnl : pnl * asNumber(coinValue(state, leg.settle));
  }
  for (const loan of state.loans.values()) {
    equity -= asNumber(loan.principal) * asNumber(coinValue(state, loan.coin));
  }
  return equity;
}

/** Decimal of a captured coin value, as `coinValue` makes it (1, the mark, or 0 when unknown). */
function coinDec(value: number): Dec {
  return value === 1 ? ONE : Number.isNaN(value) ? ZERO : decimalOf(value);
}

/**
 * What every snapshot of the same parts computes alike: the balances' sum, each position's qty x
 * size and signed cost x size (its unrealized PnL is sized x mark - sizedCost).
 */
interface PartsDecimals {
  readonly balances: Dec;
  readonly sized: readonly Dec[];
  readonly sizedCost: readonly Dec[];
}

const decimalsByParts = new WeakMap<EquityParts, PartsDecimals>();

/**
 * The sums a snapshot of these parts starts from, computed for the first snapshot that is read
 * and shared by the rest (the parts stay the same between fills, so most curve points share them).
 */
function decimalsOf(parts: EquityParts): PartsDecimals {
  let decimals = decimalsByParts.get(parts);
  if (decimals === undefined) {
    // The first balance is the sum itself, and a contract size of one multiplies nothing:
    // decimal.js would answer 0 + x and x * 1 with a copy of x, rounded to the precision it has.
    let balances = ZERO;
    for (const balance of parts.balances) balances = addTo(balances, balance);
    decimals = {
      balances,
      sized: parts.positions.map((part) => timesSize(part.qty, part.size)),
      sizedCost: parts.positions.map((part) => timesSize(signedCost(part), part.size)),
    };
    decimalsByParts.set(parts, decimals);
  }
  return decimals;
}

/**
 * The equity's parts now, read off the balances and positions once per move of the portfolio
 * (`portfolioVersion`): the equity is sampled on every bar, and they change only with a fill, a
 * funding or interest charge, a borrow or a repay. Undefined when another case applies (loans, a
 * coin or settle asset not of valuation).
 */
function commonParts(state: SimState): EquityParts | undefined {
  if (state.loans.size > 0) return undefined;
  const figures = state.figures;
  if (figures.equityPartsAt !== state.portfolioVersion) {
    figures.equityParts = partsNow(state);
    figures.equityPartsAt = state.portfolioVersion;
  }
  return figures.equityParts;
}

function partsNow(state: SimState): EquityParts | undefined {
  for (const coin of state.balances.keys()) if (!state.opts.valuationCoins.has(coin)) return undefined;
  let open = 0;
  for (const position of state.positions.values()) {
    if (position.qty.isZero()) continue;
    const settle = state.opts.instruments.get(position.sym)?.settleAsset ?? 'USDT';
    if (!state.opts.valuationCoins.has(settle)) return undefined;
    open++;
  }
  // Made at its size rather than pushed to: the parts live on in the equity curve's samples for
  // the run, and an array a push grew keeps room for 17 (some 130 bytes more per fill).
  const positions = new Array<EquityPart>(open);
  let at = 0;
  for (const position of state.positions.values()) {
    if (position.qty.isZero()) continue;
    positions[at++] = {
      qty: position.qty,
      size: state.opts.instruments.get(position.sym)?.contractSize ?? D(1),
      cost: position.cost,
      sym: position.sym,
    };
  }
  return { balances: [...state.balances.values()], positions };
}

/** The exact equity of one moment, captured without computing it ({@link equitySnapshotOf}). */
export interface EquitySnapshot {
  /** @returns the equity of the moment it was captured, exactly as `equityOf` gave it then */
  exact(): Dec;
}

/**
 * A snapshot of common parts at the marks captured with them: an object of two fields rather
 * than a closure (a function and its context), as a run takes one for nearly every equity sample
 * and the curve's buckets keep many of them for a while.
 */
class PartsSnapshot implements EquitySnapshot {
  /**
   * @param parts - the parts
   * @param marks - the one position's mark, or each position's in order (NaN: no mark)
   */
  constructor(
    private readonly parts: EquityParts,
    private readonly marks: number | readonly number[],
  ) {}

  exact(): Dec {
    return snapshotEquity(this.parts, this.marks);
  }
}

/**
 * Captures what the exact equity depends on now (the immutable Decimal balances, positions and
 * loans, and the prices they are valued at, as numbers) and returns a snapshot computing it
 * later, exactly as `equityOf` would have now. Capturing costs a few reads (the Decimal parts are
 * shared between snapshots while they do not change); the Decimal work is done only if the value
 * is asked for, e.g. when a sample turns out to be a bucket's extreme.
 * @param state - the venue
 * @returns the snapshot of the equity now
 */
export function equitySnapshotOf(state: SimState): EquitySnapshot {
  const parts = commonParts(state);
  if (parts === undefined) return generalSnapshotOf(state);
  const positions = parts.positions;
  // Snapshots are taken for nearly every equity sample and many are kept in the curve's buckets:
  // one position (the usual case) keeps its mark as a number, more keep an array of exactly their count.
  if (positions.length === 1)
    return new PartsSnapshot(parts, markNumberOf(state, (positions[0] as EquityPart).sym));
  const marks = new Array<number>(positions.length);
  for (let i = 0; i < positions.length; i++) {
    marks[i] = markNumberOf(state, (positions[i] as EquityPart).sym);
  }
  return new PartsSnapshot(parts, marks);
}

/**
 * The equity of common parts at the marks captured with them (NaN: no mark, valued at the
 * average price, so no PnL), exactly as `equityOf` computes it.
 * @param parts - the parts
 * @param marks - the one position's mark, or each position's in order
 */
function snapshotEquity(parts: EquityParts, marks: number | readonly number[]): Dec {
  const { balances, sized, sizedCost } = decimalsOf(parts);
  let equity = balances;
  for (let i = 0; i < sized.length; i++) {
    const mark = typeof marks === 'number' ? marks : (marks[i] as number);
    if (!Number.isNaN(mark))
      equity = equity.plus((sized[i] as Dec).mul(decimalOf(mark)).minus(sizedCost[i] as Dec));
  }
  return equity;
}

function generalSnapshotOf(state: SimState): EquitySnapshot {
  const balances: [Dec, number][] = [];
  for (const [coin, balance] of state.balances) balances.push([balance, coinValueN(state, coin)]);
  const positions: [qty: Dec, size: Dec, signedCost: Dec, mark: number, settle: number][] = [];
  for (const position of state.positions.values()) {
    if (position.qty.isZero()) continue;
    const spec = state.opts.instruments.get(position.sym);
    const market = state.markets.get(position.sym);
    positions.push([
      position.qty,
      spec?.contractSize ?? D(1),
      signedCost(position),
      market ? markPriceOf(market) : Number.NaN,
      coinValueN(state, spec?.settleAsset ?? 'USDT'),
    ]);
  }
  const loans: [Dec, number][] = [];
  for (const loan of state.loans.values()) loans.push([loan.principal, coinValueN(state, loan.coin)]);
  const exact = (): Dec => {
    let equity = ZERO;
    for (const [balance, value] of balances) equity = equity.plus(valued(balance, coinDec(value)));
    for (const [qty, size, cost, mark, settle] of positions) {
      if (Number.isNaN(mark)) continue;
      equity = equity.plus(valued(unrealizedFromCost(qty, cost, decimalOf(mark), size), coinDec(settle)));
    }
    for (const [principal, value] of loans) equity = equity.minus(valued(principal, coinDec(value)));
    return equity;
  };
  return { exact };
}

/** The equity estimate and, from it, a number floor of the available margin. */
export interface MarginHeadroom {
  /** {@link equityEstimateOf} now. */
  readonly equity: number;
  /**
   * A lower bound of the available margin (equity minus the initial margin of positions and open
   * orders): every open order is counted as if it increased its position, and a market order at
   * the mark. NaN when a coin or price it needs is unknown.
   */
  readonly floor: number;
}

/**
 * The equity estimate and a number floor of the available margin, in one pass over the balances
 * and positions. The margin check of a new order (reject when the exact available margin is
 * negative) needs the exact Decimal figures only when the floor is not clearly positive.
 * @param state - the venue
 * @returns the estimate and the floor, in the account currency
 */
export function marginHeadroomOf(state: SimState): MarginHeadroom {
  const equity = equityEstimateOf(state);
  return { equity, floor: marginFloorFrom(state, equity) };
}

/**
 * The number floor of the available margin ({@link MarginHeadroom.floor}) from the equity
 * estimate, for a caller that has it: no record of the two is made (the margin check of every
 * order and modify asks).
 * @param state - the venue
 * @param equity - {@link equityEstimateOf} now
 * @returns the floor, in the account currency
 */
export function marginFloorFrom(state: SimState, equity: number): number {
  let floor = equity;
  for (const position of state.positions.values()) {
    if (position.qtyN === 0) continue;
    const market = state.markets.get(position.sym);
    const mark = market ? markPriceOf(market) : Number.NaN;
    const settle = settleValueN(state, position.sym);
    floor -= (Math.abs(position.qtyN) * position.contractSizeN * mark * settle) / asNumber(position.leverage);
  }
  for (const order of state.liveOrders) {
    if (order.reduceOnly || order.remainingN === 0) continue;
    const spec = state.opts.instruments.get(order.sym);
    const price = order.priceN > 0 ? order.priceN : markNumberOf(state, order.sym);
    const size = spec === undefined ? 1 : instrumentNumbers(spec).contractSize;
    const settle = coinValueN(state, spec?.settleAsset ?? 'USDT');
    floor -= (order.remainingN * size * price * settle) / leverageN(state, order.sym);
  }
  return floor;
}

function markNumberOf(state: SimState, sym: string): number {
  const market = state.markets.get(sym);
  return market ? markPriceOf(market) : Number.NaN;
}

function settleValueN(state: SimState, sym: string): number {
  return coinValueN(state, state.opts.instruments.get(sym)?.settleAsset ?? 'USDT');
}

// A sym's leverage is fixed for the venue's life (`leverageOf` answers from the options): its
// number is converted once per sym.
const leverageNumbers = new WeakMap<SimState, Map<string, number>>();

function leverageN(state: SimState, sym: string): number {
  let numbers = leverageNumbers.get(state);
  if (numbers === undefined) {
    numbers = new Map();
    leverageNumbers.set(state, numbers);
  }
  let leverage = numbers.get(sym);
  if (leverage === undefined) {
    leverage = asNumber(state.opts.leverageOf(sym));
    numbers.set(sym, leverage);
  }
  return leverage;
}

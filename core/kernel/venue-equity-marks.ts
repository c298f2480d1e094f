import type { Dec, InstrumentSpec, Position } from '../model/index.ts';
import { asNumber, decimalOf, ONE, ZERO } from '../model/index.ts';
import { type EquityEstimate, ESTIMATE_ROUNDING } from './equity-estimate.ts';

/** What marking the venue's equity reads from the kernel state. */
export interface MarkSource {
  /** The venue's latest position report per `sym|positionSide`. */
  readonly positions: ReadonlyMap<string, Position>;
  /**
   * @param sym - the symbol
   * @returns its spec (for the contract size), or undefined when unknown
   */
  instrument(sym: string): InstrumentSpec | undefined;
  /**
   * @param sym - the symbol
   * @returns the price the venue marks positions at now, as far as Keel has seen, or undefined
   */
  venueMarkPrice(sym: string): number | undefined;
}

/**
 * Marks the equity the venue reports to the latest market price between its reports. The venue
 * sends account (and asset) reports when money changes hands, a fill or a funding payment (the
 * spec shows no periodic push), so its equity holds open positions at the mark of that moment
 * (the fill price inside a bar) until the next report. Keel's choice: equity = the latest report
 * - the unrealized PnL that report included + the unrealized PnL at the latest price, so an open
 * position moves the curve, `ctx.equity()` and position sizing as in a backtest of the same data.
 *
 * The unrealized PnL a report included is, per leg, the venue's own figure when a position report
 * came since the previous account report (they are sent together on a fill), else Keel's
 * valuation at that moment (a report without positions, e.g. funding). Decimal work happens only
 * when equity is asked for (per intent or sample), never per market event.
 */
export class VenueEquityMarks {
  #included: Dec = ZERO;
  #includedN = 0;
  /** The last reported equity estimated and its number: a report is read many times. */
  #reportedOf: Dec | undefined;
  #reportedN = 0;
  /** The numbers of each sym's last position report estimated: converted once per report. */
  readonly #legNumbers = new Map<string, LegNumbers>();
  readonly #reported = new Set<string>();
  /** Each sym's last price as money and the number it came from: converted once per new price. */
  readonly #prices = new Map<string, { n: number; d: Dec }>();

  /**
   * Notes that the venue reported a position leg, so the next account report valued it at the
   * leg's reported mark.
   * @param key - the leg's `sym|positionSide`
   */
  positionReported(key: string): void {
    this.#reported.add(key);
  }

  /**
   * Records the unrealized PnL an equity report just received included.
   * @param source - the kernel state, positions already folded
   */
  rebase(source: MarkSource): void {
    let included = ZERO;
    for (const [key, position] of source.positions) {
      if (position.positionQty.isZero()) continue;
      included = included.add(
        this.#reported.has(key) ? position.unrealizedPNL : this.#unrealizedAtMark(source, position),
      );
    }
    this.#included = included;
    this.#includedN = asNumber(included);
    this.#reported.clear();
  }

  /**
   * @param reported - the equity of the venue's latest report
   * @param source - the kernel state
   * @returns that equity with open positions marked at the latest prices
   */
  marked(reported: Dec, source: MarkSource): Dec {
    let equity = reported.sub(this.#included);
    for (const position of source.positions.values()) {
      if (!position.positionQty.isZero()) equity = equity.add(this.#unrealizedAtMark(source, position));
    }
    return equity;
  }

  /**
   * {@link VenueEquityMarks.marked} on numbers: the same sum, each Decimal read as its nearest
   * double, with a bound of how far the exact sum may be.
   * @param reported - the equity of the venue's latest report
   * @param source - the kernel state
   * @returns the estimate
   */
  estimate(reported: Dec, source: MarkSource): EquityEstimate {
    if (this.#reportedOf !== reported) {
      this.#reportedOf = reported;
      this.#reportedN = asNumber(reported);
    }
    let value = this.#reportedN - this.#includedN;
    let size = Math.abs(this.#reportedN) + Math.abs(this.#includedN);
    for (const position of source.positions.values()) {
      if (position.positionQty.isZero()) continue;
      const price = source.venueMarkPrice(position.sym);
      if (price === undefined) {
        const unrealized = asNumber(position.unrealizedPNL);
        value += unrealized;
        size += Math.abs(unrealized);
      } else {
        const leg = this.#numbersOf(source, position);
        value += leg.sized * (price - leg.avg);
        size += Math.abs(leg.sized) * (Math.abs(price) + Math.abs(leg.avg));
      }
    }
    return { value, error: size * ESTIMATE_ROUNDING };
  }

  /** A leg's signed qty x contract size and its avgPrice as numbers, converted once per report. */
  #numbersOf(source: MarkSource, position: Position): LegNumbers {
    // By sym rather than in a WeakMap by report (whose insert cost more than the conversion): a
    // sym holding two legs converts them in turn, the same numbers all the same.
    const cached = this.#legNumbers.get(position.sym);
    const contractSize = source.instrument(position.sym)?.contractSize ?? ONE;
    if (cached?.position === position && cached.contractSize === contractSize) return cached;
    const qty = asNumber(position.positionQty);
    const numbers: LegNumbers = {
      position,
      contractSize,
      sized: (position.positionSide === 'SHORT' ? -Math.abs(qty) : qty) * asNumber(contractSize),
      avg: asNumber(position.avgPrice),
    };
    this.#legNumbers.set(position.sym, numbers);
    return numbers;
  }

  /**
   * One leg's unrealized PnL at the latest price: signed qty x contract size x (price - avgPrice);
   * the venue's own figure when Keel has seen no price for the sym.
   */
  #unrealizedAtMark(source: MarkSource, position: Position): Dec {
    const price = source.venueMarkPrice(position.sym);
    if (price === undefined) return position.unrealizedPNL;
    let cached = this.#prices.get(position.sym);
    if (cached?.n !== price) {
      cached = { n: price, d: decimalOf(price) };
      this.#prices.set(position.sym, cached);
    }
    // A SHORT leg may be reported with a positive size (two-way mode): it is short all the same.
    const qty = position.positionSide === 'SHORT' ? position.positionQty.abs().neg() : position.positionQty;
    const contractSize = source.instrument(position.sym)?.contractSize ?? ONE;
    return qty.mul(contractSize).mul(cached.d.sub(position.avgPrice));
  }
}

/** One position report's numbers, for {@link VenueEquityMarks.estimate}. */
interface LegNumbers {
  readonly position: Position;
  readonly contractSize: Dec;
  readonly sized: number;
  readonly avg: number;
}

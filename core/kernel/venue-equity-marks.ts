import type { Dec, InstrumentSpec, Position } from '../model/index.ts';
import { decimalOf, ONE, ZERO } from '../model/index.ts';

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

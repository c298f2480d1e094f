import type { Dec, InstrumentSpec, Position } from '../model/index.ts';
import { asNumber, decimalOf, ONE, signedPositionQty, ZERO } from '../model/index.ts';
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
  /**
   * @param sym - the symbol
   * @returns the venue time (`ts`) of the event {@link MarkSource.venueMarkPrice} comes from, or undefined
   */
  venueMarkTime(sym: string): number | undefined;
}

/** How the venue's latest equity report is taken to hold one open position leg. */
/** A sum on numbers and the sum of its terms' sizes, which bounds its rounding error. */
interface NumberSum {
  value: number;
  size: number;
}

interface HeldLeg {
  /** The leg's position report the equity report is taken to include: its size and avgPrice. */
  readonly position: Position;
  /** The venue price the report holds it at; undefined: the position report's own mark (its unrealizedPNL). */
  price: number | undefined;
  /** The venue time of that price; unused without one. */
  priceTime: number;
}

/**
 * @param leg - a held leg
 * @returns the venue time of the mark it is held at: its price's, else its position report's updateAt
 */
function heldTime(leg: HeldLeg): number {
  return leg.price === undefined ? leg.position.updateAt : leg.priceTime;
}

/**
 * Marks the equity the venue reports to the latest market price between its reports. The venue
 * sends account (and asset) reports when money changes hands, a fill or a funding payment, or when
 * the account enters or leaves MARGIN_CALL (the spec shows no periodic push), so its equity holds
 * open positions at the venue's mark of that moment (the fill price inside a bar) until the next
 * report. Keel's choice: equity = the latest report - the unrealized PnL that report included +
 * the unrealized PnL at the latest price, so an open position moves the curve, `ctx.equity()` and
 * position sizing as in a backtest of the same data.
 *
 * The unrealized PnL a report included is, per leg, at the venue's price at the report's time
 * (its event's `ts`), which Keel may not have yet: market data and User Data come on separate
 * connections, and a report sent alone (a margin call, a loan's interest) may arrive before the
 * mark that caused it. Keel takes it, per leg, from whichever of the leg's latest position report
 * (its mark at its `updateAt`) and the latest price of its sym (at its `ts`) is stamped nearest the
 * report's time, the position report on a tie, so a report sent with the positions is exact. When
 * that is stamped before the report, each price of the sym that arrives later stamped at or before
 * the report's time replaces it, until one stamped after it arrives: the price move the report
 * already counted is not counted again. A position report stamped at or before the report's time
 * that arrives after it (a fill's, sent after its account report) holds the leg at its size from
 * then on, at whichever of its own mark, the price the leg was held at and the latest price is
 * stamped nearest the report's time, by the same rule. Decimal work happens only when equity is
 * asked for (per intent or sample), never per market event.
 */
export class VenueEquityMarks {
  /** The venue time of the latest equity report. */
  #asOf = Number.NEGATIVE_INFINITY;
  /** Per `sym|positionSide`, how the latest report holds each leg it included. */
  readonly #held = new Map<string, HeldLeg>();
  /** Syms a price stamped at or before the report's time may still come for. */
  readonly #awaiting = new Set<string>();
  /** The unrealized PnL the latest report included; undefined: to compute. */
  #included: Dec | undefined = ZERO;
  /**
   * The same on numbers, and the sum of its terms' sizes (its share of the error bound), for
   * {@link VenueEquityMarks.estimate}, which never needs the Decimal; valid while
   * `#includedCounted`.
   */
  #includedN = 0;
  #includedSize = 0;
  #includedCounted = true;
  /** The last reported equity estimated and its number: a report is read many times. */
  #reportedOf: Dec | undefined;
  #reportedN = 0;
  /** The running sum of an estimate or of the included figure on numbers, reused (neither calls the other mid-sum). */
  readonly #sum: NumberSum = { value: 0, size: 0 };
  /** The numbers of each sym's last position report estimated: converted once per report. */
  readonly #legNumbers = new Map<string, LegNumbers>();
  /** Each sym's last price as money and the number it came from: converted once per new price. */
  readonly #prices = new Map<string, { n: number; d: Dec }>();

  /** @returns true while a price arriving may still be the one the latest report held a leg at */
  get awaitingPrices(): boolean {
    return this.#awaiting.size > 0;
  }

  /**
   * Takes an equity report just received as holding each open leg at the venue's price at `asOf`.
   * @param source - the kernel state, positions already folded
   * @param asOf - the report's venue time (its event's `ts`)
   */
  rebase(source: MarkSource, asOf: number): void {
    this.#asOf = asOf;
    // Only when not empty: clearing a map allocates its new table, and reports come per fill.
    if (this.#held.size > 0) this.#held.clear();
    if (this.#awaiting.size > 0) this.#awaiting.clear();
    this.#forgetIncluded();
    for (const [key, position] of source.positions) {
      if (!position.positionQty.isZero()) this.#hold(key, position, undefined, source);
    }
  }

  /**
   * A position report was folded (the kernel drops one older than the leg's last): stamped at or
   * before the latest equity report's time (the venue sent it after that report), it is the size
   * that report held the leg at, marked as {@link VenueEquityMarks.rebase} would.
   * @param key - the leg's `sym|positionSide`
   * @param position - the report
   * @param source - the kernel state, the report already folded
   */
  positionArrived(key: string, position: Position, source: MarkSource): void {
    if (position.updateAt > this.#asOf) return;
    this.#hold(key, position, this.#held.get(key), source);
    this.#forgetIncluded();
  }

  /**
   * Holds a leg as a position report, at whichever of its own mark, the price the leg was held at
   * before and the sym's latest price is stamped nearest the equity report's time (the position
   * report on a tie), and awaits the sym's prices while that is stamped before it and no price
   * stamped after it came.
   */
  #hold(key: string, position: Position, before: HeldLeg | undefined, source: MarkSource): void {
    const asOf = this.#asOf;
    const leg: HeldLeg = { position, price: undefined, priceTime: position.updateAt };
    if (before?.price !== undefined && Math.abs(before.priceTime - asOf) < Math.abs(heldTime(leg) - asOf)) {
      leg.price = before.price;
      leg.priceTime = before.priceTime;
    }
    const price = source.venueMarkPrice(position.sym);
    const time = source.venueMarkTime(position.sym);
    if (price !== undefined && time !== undefined && Math.abs(time - asOf) < Math.abs(heldTime(leg) - asOf)) {
      leg.price = price;
      leg.priceTime = time;
    }
    this.#held.set(key, leg);
    if (heldTime(leg) < asOf && !(time !== undefined && time > asOf)) this.#awaiting.add(position.sym);
  }

  /**
   * A price of the sym arrived: while it is stamped at or before the latest report's time and
   * later than the price a leg is held at, the report held the leg at it.
   * @param sym - the sym whose market data just arrived
   * @param source - the kernel state, the event already folded
   */
  priceArrived(sym: string, source: MarkSource): void {
    if (!this.#awaiting.has(sym)) return;
    const price = source.venueMarkPrice(sym);
    const time = source.venueMarkTime(sym);
    if (price === undefined || time === undefined) return;
    if (time > this.#asOf) {
      this.#awaiting.delete(sym);
      return;
    }
    for (const leg of this.#held.values()) {
      if (
        leg.position.sym !== sym ||
        time < heldTime(leg) ||
        (time === heldTime(leg) && leg.price === undefined)
      )
        continue;
      if (leg.price !== price) this.#forgetIncluded();
      leg.price = price;
      leg.priceTime = time;
    }
  }

  /**
   * @param reported - the equity of the venue's latest report
   * @param source - the kernel state
   * @returns that equity with open positions marked at the latest prices
   */
  marked(reported: Dec, source: MarkSource): Dec {
    let equity = reported.sub(this.#includedOf(source));
    for (const [key, position] of source.positions) {
      if (!position.positionQty.isZero())
        equity = equity.add(this.#unrealizedAt(source, position, this.#priceNow(key, position, source)));
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
    this.#countIncluded(source);
    const sum = this.#sum;
    sum.value = this.#reportedN - this.#includedN;
    sum.size = Math.abs(this.#reportedN) + this.#includedSize;
    for (const [key, position] of source.positions) {
      if (position.positionQty.isZero()) continue;
      this.#addUnrealizedN(sum, source, position, this.#priceNow(key, position, source));
    }
    return { value: sum.value, error: sum.size * ESTIMATE_ROUNDING };
  }

  /**
   * The price an open leg is valued at now: the sym's latest price when it is stamped after the
   * venue's own valuation of the leg, else that valuation (undefined: the position report's own
   * mark). The venue's valuation is the price the latest equity report holds the leg at, or, for a
   * position report stamped after that report, its own mark at its `updateAt`. A price older than
   * the venue's word never replaces it: a fill's reports value the leg at the fill's price, newer
   * than the bar close before it (the kernel has not seen the bar the fill traded in yet), and
   * re-marking them to that close would show a loss or gain that never was.
   * @param key - the leg's `sym|positionSide`
   * @param position - the leg's latest position report
   * @param source - the kernel state
   */
  #priceNow(key: string, position: Position, source: MarkSource): number | undefined {
    const price = source.venueMarkPrice(position.sym);
    if (price === undefined) return undefined;
    const held = this.#held.get(key);
    const leg = held?.position === position ? held : undefined;
    const valuedAt = leg === undefined ? position.updateAt : heldTime(leg);
    const time = source.venueMarkTime(position.sym);
    if (time === undefined || time > valuedAt) return price;
    return leg?.price;
  }

  /** The unrealized PnL the latest report included, computed once per report or price it is held at. */
  #includedOf(source: MarkSource): Dec {
    if (this.#included !== undefined) return this.#included;
    let included = ZERO;
    for (const leg of this.#held.values()) {
      included = included.add(this.#unrealizedAt(source, leg.position, leg.price));
    }
    this.#included = included;
    return included;
  }

  /** A report or a price a leg is held at changed what the latest report included. */
  #forgetIncluded(): void {
    this.#included = undefined;
    this.#includedCounted = false;
  }

  /**
   * {@link VenueEquityMarks.#includedOf} on numbers, each leg as {@link VenueEquityMarks.estimate}
   * marks a position: once per report or price a leg is held at, with no Decimal work (an
   * estimate is asked for per sizing, after the report of every fill).
   */
  #countIncluded(source: MarkSource): void {
    if (this.#includedCounted) return;
    const sum = this.#sum;
    sum.value = 0;
    sum.size = 0;
    for (const leg of this.#held.values()) this.#addUnrealizedN(sum, source, leg.position, leg.price);
    this.#includedN = sum.value;
    this.#includedSize = sum.size;
    this.#includedCounted = true;
  }

  /**
   * {@link VenueEquityMarks.#unrealizedAt} on numbers, added to `sum`: the report's figure moved
   * from its mark to `price` (the figure itself without one), and its terms' sizes for the bound.
   */
  #addUnrealizedN(sum: NumberSum, source: MarkSource, position: Position, price: number | undefined): void {
    if (price === undefined) {
      const unrealized = asNumber(position.unrealizedPNL);
      sum.value += unrealized;
      sum.size += Math.abs(unrealized);
      return;
    }
    const { base, sized, from } = this.#numbersOf(source, position);
    sum.value += base + sized * (price - from);
    sum.size += Math.abs(base) + Math.abs(sized) * (Math.abs(price) + Math.abs(from));
  }

  /** A leg's signed qty x contract size, unrealized PnL and mark (or avgPrice) as numbers, converted once per report. */
  #numbersOf(source: MarkSource, position: Position): LegNumbers {
    // By sym rather than in a WeakMap by report (whose insert cost more than the conversion): a
    // sym holding two legs converts them in turn, the same numbers all the same.
    const cached = this.#legNumbers.get(position.sym);
    const contractSize = source.instrument(position.sym)?.contractSize ?? ONE;
    if (cached?.position === position && cached.contractSize === contractSize) return cached;
    const qty = asNumber(position.positionQty);
    const marked = !position.markPrice.isZero();
    const numbers: LegNumbers = {
      position,
      contractSize,
      sized: (position.positionSide === 'SHORT' ? -Math.abs(qty) : qty) * asNumber(contractSize),
      base: marked ? asNumber(position.unrealizedPNL) : 0,
      from: asNumber(marked ? position.markPrice : position.avgPrice),
    };
    this.#legNumbers.set(position.sym, numbers);
    return numbers;
  }

  /**
   * One leg's unrealized PnL at a price: the venue's own figure moved from the report's mark to the
   * price, + signed qty x contract size x (price - markPrice), so it keeps the venue's exact
   * accounting (its avgPrice may be a rounding of the leg's cost); the venue's own figure when there
   * is no price; from the avgPrice, signed qty x contract size x (price - avgPrice), when the report
   * has no mark.
   */
  #unrealizedAt(source: MarkSource, position: Position, price: number | undefined): Dec {
    if (price === undefined) return position.unrealizedPNL;
    let cached = this.#prices.get(position.sym);
    if (cached?.n !== price) {
      cached = { n: price, d: decimalOf(price) };
      this.#prices.set(position.sym, cached);
    }
    const qty = signedPositionQty(position);
    const contractSize = source.instrument(position.sym)?.contractSize ?? ONE;
    if (position.markPrice.isZero()) return qty.mul(contractSize).mul(cached.d.sub(position.avgPrice));
    return position.unrealizedPNL.plus(qty.mul(contractSize).mul(cached.d.sub(position.markPrice)));
  }
}

/** One position report's numbers, for {@link VenueEquityMarks.estimate}. */
interface LegNumbers {
  readonly position: Position;
  readonly contractSize: Dec;
  readonly sized: number;
  /** The report's unrealized PnL, marked from {@link LegNumbers.from} (0 from the avgPrice when it has no mark). */
  readonly base: number;
  /** The report's mark, or its avgPrice when it has none. */
  readonly from: number;
}

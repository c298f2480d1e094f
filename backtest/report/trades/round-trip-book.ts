import type { Dec, Execution, PositionSide } from '../../../core/model/index.ts';
import { asNumber, D, ONE, positionKey } from '../../../core/model/index.ts';
import type { TimeInterval } from '../equity-sample.ts';
import type { OpenTrade, RoundTripTrade, TradeDirection } from './round-trip-trade.ts';

interface Lot {
  readonly direction: TradeDirection;
  readonly entryTs: number;
  readonly entryPrice: Dec;
  readonly entryOrderId: string;
  qty: Dec;
  /** Entry fees not yet assigned to a closed trade; shrinks pro rata with qty. */
  fees: Dec;
}

/** The open lots of one sym and positionSide, oldest first. */
interface LotBook {
  readonly sym: string;
  readonly positionSide: PositionSide;
  readonly lots: Lot[];
}

/** Flat-to-flat stretches kept as they are; older ones are folded (see `fold`). */
const KEPT_STRETCHES = 64;

/**
 * Pairs fills into round-trip trades as they come, first in first out, per sym and
 * positionSide: a fill against the open lots' direction closes them oldest first; what it has
 * left opens a new lot (in NET mode a BUY larger than the short position closes it and opens a
 * long). Fees minus rebates are split pro rata to quantity, so the trades' fees always add up to
 * the fills' fees. It holds only the open lots, so a run of any length pairs its fills in
 * bounded memory; closed trades go to the caller as they close.
 */
export class RoundTripBook {
  private readonly books = new Map<string, LotBook>();
  private openLots = 0;
  private exposedSince: number | undefined;
  private readonly exposed: TimeInterval[] = [];
  /** The oldest stretches folded into one: where the first began and their total length. */
  private folded: { readonly from: number; readonly ms: number } | undefined;

  /**
   * @param contractSizeOf - units of base per contract for a sym (PnL multiplier); 1 when undefined
   */
  constructor(private readonly contractSizeOf: (sym: string) => Dec | undefined = () => undefined) {}

  /**
   * Books one fill.
   * @param fill - the next execution, in the order they happened
   * @param onClosed - receives each round trip the fill closes, in closing order
   */
  add(fill: Execution, onClosed: (trade: RoundTripTrade) => void): void {
    const key = positionKey(fill.sym, fill.positionSide);
    let book = this.books.get(key);
    if (book === undefined) {
      book = { sym: fill.sym, positionSide: fill.positionSide, lots: [] };
      this.books.set(key, book);
    }
    const lots = book.lots;
    const direction: TradeDirection = fill.side === 'BUY' ? 'LONG' : 'SHORT';
    const contractSize = this.contractSizeOf(fill.sym) ?? ONE;
    let qtyLeft = fill.quantity;
    let feeLeft = fill.fee.minus(fill.rebate);
    while (qtyLeft.gt(0) && lots.length > 0 && lots[0]?.direction !== direction) {
      const lot = lots[0] as Lot;
      const qty = D.min(lot.qty, qtyLeft);
      const entryFees = qty.eq(lot.qty) ? lot.fees : lot.fees.mul(qty).div(lot.qty);
      const exitFees = qty.eq(qtyLeft) ? feeLeft : feeLeft.mul(qty).div(qtyLeft);
      onClosed(closeLot(lot, fill, qty, entryFees.plus(exitFees), contractSize));
      lot.qty = lot.qty.minus(qty);
      lot.fees = lot.fees.minus(entryFees);
      qtyLeft = qtyLeft.minus(qty);
      feeLeft = feeLeft.minus(exitFees);
      if (lot.qty.isZero()) {
        lots.shift();
        this.lotClosed(fill.timestamp);
      }
    }
    if (qtyLeft.gt(0)) {
      lots.push({
        direction,
        entryTs: fill.timestamp,
        entryPrice: fill.price,
        entryOrderId: fill.orderId,
        qty: qtyLeft,
        fees: feeLeft,
      });
      this.lotOpened(fill.timestamp);
    }
  }

  /**
   * The lots still open, as open trades.
   * @returns open lots in opening order
   */
  openTrades(): OpenTrade[] {
    const open: OpenTrade[] = [];
    for (const { sym, positionSide, lots } of this.books.values()) {
      for (const lot of lots) {
        open.push({
          sym,
          positionSide,
          direction: lot.direction,
          qty: lot.qty,
          entryTs: lot.entryTs,
          entryPrice: lot.entryPrice,
          entryOrderId: lot.entryOrderId,
          entryFees: lot.fees,
        });
      }
    }
    return open.sort((a, b) => a.entryTs - b.entryTs);
  }

  /**
   * When some lot was open: each stretch from a fill opening a lot while none was open to the
   * fill closing the last one (fills come in time order), the last one up to `end` when lots are
   * still open. Their union is that of the round trips' [entryTs, exitTs] and the open trades'
   * [entryTs, end] (a lot's round trips all start at its entry and the last one ends when it
   * closes), with one interval per flat-to-flat stretch instead of one per trade.
   * @param end - end of the run, for lots still open
   * @returns the intervals, in time order
   */
  exposureIntervals(end: number): TimeInterval[] {
    const folded =
      this.folded === undefined ? [] : [{ from: this.folded.from, to: this.folded.from + this.folded.ms }];
    return this.exposedSince === undefined
      ? [...folded, ...this.exposed]
      : [...folded, ...this.exposed, { from: this.exposedSince, to: end }];
  }

  private lotOpened(ts: number): void {
    if (this.openLots++ === 0) this.exposedSince = ts;
  }

  private lotClosed(ts: number): void {
    if (--this.openLots === 0 && this.exposedSince !== undefined) {
      this.exposed.push({ from: this.exposedSince, to: ts });
      this.exposedSince = undefined;
      if (this.exposed.length > 2 * KEPT_STRETCHES) this.fold();
    }
  }

  /**
   * Folds all but the latest {@link KEPT_STRETCHES} stretches into one interval as long as
   * their total, starting where the first began: it lies inside their span, before every kept
   * stretch, so the union's length, clipped to the run, is unchanged as long as the folded ones
   * lie inside the run, which they do: they began at fills and ended before the latest stretches.
   * A long run's memory stays bounded however often it goes flat.
   */
  private fold(): void {
    const old = this.exposed.splice(0, this.exposed.length - KEPT_STRETCHES);
    let ms = this.folded?.ms ?? 0;
    for (const stretch of old) ms += stretch.to - stretch.from;
    this.folded = { from: this.folded?.from ?? (old[0] as TimeInterval).from, ms };
  }
}

function closeLot(lot: Lot, fill: Execution, qty: Dec, fees: Dec, contractSize: Dec): RoundTripTrade {
  const sign = lot.direction === 'LONG' ? 1 : -1;
  const grossPnl = fill.price.minus(lot.entryPrice).mul(qty).mul(contractSize).mul(sign);
  const pnl = grossPnl.minus(fees);
  const entryNotional = lot.entryPrice.mul(qty).mul(contractSize);
  return {
    sym: fill.sym,
    positionSide: fill.positionSide,
    direction: lot.direction,
    qty,
    entryTs: lot.entryTs,
    exitTs: fill.timestamp,
    entryPrice: lot.entryPrice,
    exitPrice: fill.price,
    entryOrderId: lot.entryOrderId,
    exitOrderId: fill.orderId,
    grossPnl,
    fees,
    pnl,
    // A number metric, divided as numbers: the 40-digit Decimal quotient cost more than the rest of closing the trade.
    returnFraction: entryNotional.isZero() ? 0 : asNumber(pnl) / asNumber(entryNotional),
    durationMs: fill.timestamp - lot.entryTs,
  };
}

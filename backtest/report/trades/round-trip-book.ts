import type { Dec, PositionSide } from '../../../core/model/index.ts';
import { isAboveZero, ONE, positionKey, shareOf, ZERO } from '../../../core/model/index.ts';
import type { TimeInterval } from '../equity-sample.ts';
import type { FillRecord } from '../result/owned-records.ts';
import { closedTrade, priceOf } from './closed-trade.ts';
import { ExposureStretches } from './exposure-stretches.ts';
import {
  ADOPTED_ENTRY_ORDER_ID,
  type AdoptedPosition,
  type ClosingTrade,
  type Lot,
  type LotBook,
} from './lot-book.ts';
import { netFee } from './net-fee.ts';
import type { OpenTrade, RoundTripTrade, TradeDirection } from './round-trip-trade.ts';

/**
 * Most trades held back (growing, or done but behind an older growing one) before the oldest is
 * handed on as it is (Keel's choice): it bounds memory when a lot stays partly open for long. An
 * exit order still filling after this many later trades began would then count twice.
 */
const MAX_HELD_TRADES = 1024;

/**
 * Pairs fills into round-trip trades as they come, first in first out, per sym and
 * positionSide: a fill against the open lots' direction closes them oldest first; what it has
 * left opens a new lot (in NET mode a BUY larger than the short position closes it and opens a
 * long). A trade is what one entry opened and one exit closed, where an entry or exit is one order,
 * or the orders of one batch (see {@link RoundTripBook.add}: one order sliced into several, sent
 * in one hook call by one strategy), so how a strategy slices an order changes no trade. The fills
 * of an entry grow one lot (at their volume-weighted price) while no other entry opened a lot of
 * that sym and side after it, and every fill of one exit against one lot grows one trade, whatever
 * other fills (of other syms, or of other exits closing the same lot) come between. This is
 * Keel's count: backtesting.py counts each `buy()`/`sell()` call (one order) as a trade, and
 * NautilusTrader reports positions (flat to flat); a strategy sending one order per decision gets
 * backtesting.py's count. Fees minus rebates are
 * split pro rata to quantity, so the trades' fees always add up to the fills' fees. It holds only
 * the open lots and the trades not yet handed on, at most {@link MAX_HELD_TRADES}, so a run of any
 * length pairs its fills in bounded memory. A trade is done once its lot is closed (or at
 * {@link RoundTripBook.flush}), and trades go to `onClosed` in the order their first fill closed.
 */
export class RoundTripBook {
  private readonly books = new Map<string, LotBook>();
  /** Trades not yet handed on, in the order their first fill closed: growing or done. */
  private held: ClosingTrade[] = [];
  private readonly exposure = new ExposureStretches();
  /** When some lot of each sym was open, by sym. */
  private readonly symExposure = new Map<string, ExposureStretches>();
  /** The book the last fill went to: runs fill one sym and side again and again, and books are never dropped. */
  private lastBook: LotBook | undefined;

  /**
   * @param onClosed - receives each round trip once it can grow no more, in the order its first
   *   fill closed (a done trade waits for the older ones still growing)
   * @param contractSizeOf - units of base per contract for a sym (PnL multiplier); 1 when
   *   undefined. Read once per sym and positionSide.
   */
  constructor(
    private readonly onClosed: (trade: RoundTripTrade) => void,
    private readonly contractSizeOf: (sym: string) => Dec | undefined = () => undefined,
  ) {}

  /**
   * Books one fill.
   * @param fill - the next execution, in the order they happened
   * @param owner - the strategy owning its order (default: the fill's `strategyId`), for a fill
   *   not copied with its owner
   * @param batch - the batch of the fill's order (`EntryBatches.batchOf`): fills of orders of one
   *   batch count as fills of one order (default, and for undefined: the fill's order id, a batch
   *   of its own)
   */
  add(fill: FillRecord, owner: string | undefined = fill.strategyId, batch: string = fill.orderId): void {
    const book = this.bookOf(fill.sym, fill.positionSide);
    const lots = book.lots;
    const direction: TradeDirection = fill.side === 'BUY' ? 'LONG' : 'SHORT';
    let qtyLeft = fill.quantity;
    let feeLeft = netFee(fill);
    let used = false;
    while (!used && isAboveZero(qtyLeft) && lots.length > 0 && lots[0]?.direction !== direction) {
      const lot = lots[0] as Lot;
      // One comparison decides both: whether the fill closes the whole lot, and whether it is all used.
      const order = lot.qty.cmp(qtyLeft);
      const whole = order <= 0;
      const qty = whole ? lot.qty : qtyLeft;
      const entryCost = whole ? lot.cost : shareOf(lot.cost, qty, lot.qty);
      const entryFees = whole ? lot.fees : shareOf(lot.fees, qty, lot.qty);
      const exitFees = order >= 0 ? feeLeft : shareOf(feeLeft, qty, qtyLeft);
      this.closePart(
        lot,
        book,
        fill,
        owner,
        batch,
        qty,
        entryCost,
        entryFees.plus(exitFees),
        whole && lot.costIsProduct,
      );
      // A fill used up leaves nothing to subtract from: its rest (zero) would never be read.
      if (order >= 0) used = true;
      else {
        qtyLeft = qtyLeft.minus(qty);
        feeLeft = feeLeft.minus(exitFees);
      }
      if (!whole) {
        lot.qty = lot.qty.minus(qty);
        lot.cost = lot.cost.minus(entryCost);
        lot.fees = lot.fees.minus(entryFees);
        lot.costIsProduct = false;
      } else {
        // A closed lot leaves the book: what is left of it (all zero) is never read again.
        this.dropOldestLot(book, fill.timestamp);
      }
    }
    this.handOn();
    if (!used && isAboveZero(qtyLeft)) {
      // Read only when there is one: lots[-1] of an empty book (a reversal closed the only lot) is a
      // named-property look-up along the prototype chain, ~4x an in-bounds read.
      const last = lots.length > 0 ? lots[lots.length - 1] : undefined;
      if (last !== undefined && last.entryBatch === batch && last.direction === direction) {
        last.qty = last.qty.plus(qtyLeft);
        last.cost = last.cost.plus(fill.price.mul(qtyLeft));
        last.fees = last.fees.plus(feeLeft);
        last.costIsProduct = false;
        return;
      }
      lots.push({
        direction,
        entryTs: fill.timestamp,
        entryOrderId: fill.orderId,
        entryBatch: batch,
        entryStrategyId: owner,
        firstPrice: fill.price,
        qty: qtyLeft,
        cost: fill.price.mul(qtyLeft),
        fees: feeLeft,
        costIsProduct: true,
      });
      this.exposure.lotOpened(fill.timestamp);
      book.symExposure.lotOpened(fill.timestamp);
    }
  }

  /**
   * Opens the lot of a position the venue held before the fills began (a live or paper session
   * adopting what an earlier run left open), so the fills that reduce it close it instead of
   * opening the reverse: its entry order is {@link ADOPTED_ENTRY_ORDER_ID}, its strategy unknown,
   * its entry fees zero (paid before the session). Call it before the first fill.
   * @param position - the sym and positionSide, direction, quantity (> 0), entry price and time
   */
  adopt(position: AdoptedPosition): void {
    const book = this.bookOf(position.sym, position.positionSide);
    book.lots.push({
      direction: position.direction,
      entryTs: position.ts,
      entryOrderId: ADOPTED_ENTRY_ORDER_ID,
      entryBatch: undefined,
      entryStrategyId: undefined,
      firstPrice: position.price,
      qty: position.qty,
      cost: position.price.mul(position.qty),
      fees: ZERO,
      costIsProduct: true,
    });
    this.exposure.lotOpened(position.ts);
    book.symExposure.lotOpened(position.ts);
  }

  /**
   * Takes out of the open lots a quantity that left a spot holding without a trade (loan interest
   * paid in the coin), as the simulated venue takes it out of the holding: the oldest long lots
   * shrink at their own price, and what no long covers grows the newest short lot at `price` (the
   * short's average price), or opens one at it from flat, with no entry order. No trade is made,
   * so the trades' PnL stays their fills' and the interest stays a cash flow of its own; the entry
   * fees of what left stay with the lots left, so the trades' fees still add up to the fills' fees
   * (unless the interest took every lot of the sym and side: their fees then end in no trade).
   * @param spent - the sym and positionSide, the quantity (> 0), the price for a short, and when
   */
  spend(spent: {
    readonly sym: string;
    readonly positionSide: PositionSide;
    readonly qty: Dec;
    readonly price: Dec;
    readonly ts: number;
  }): void {
    const book = this.bookOf(spent.sym, spent.positionSide);
    const lots = book.lots;
    let qtyLeft = spent.qty;
    let feesLeft = ZERO;
    while (isAboveZero(qtyLeft) && lots[0]?.direction === 'LONG') {
      const lot = lots[0];
      if (lot.qty.gt(qtyLeft)) {
        lot.cost = lot.cost.minus(shareOf(lot.cost, qtyLeft, lot.qty));
        lot.qty = lot.qty.minus(qtyLeft);
        lot.costIsProduct = false;
        qtyLeft = ZERO;
        break;
      }
      qtyLeft = qtyLeft.minus(lot.qty);
      feesLeft = feesLeft.plus(lot.fees);
      this.dropOldestLot(book, spent.ts);
    }
    this.handOn();
    if (!isAboveZero(qtyLeft)) {
      const next = lots[0];
      if (next !== undefined) next.fees = next.fees.plus(feesLeft);
      return;
    }
    const last = lots[lots.length - 1];
    if (last !== undefined) {
      last.qty = last.qty.plus(qtyLeft);
      last.cost = last.cost.plus(spent.price.mul(qtyLeft));
      last.fees = last.fees.plus(feesLeft);
      last.costIsProduct = false;
      return;
    }
    lots.push({
      direction: 'SHORT',
      entryTs: spent.ts,
      entryOrderId: '',
      entryBatch: undefined,
      entryStrategyId: undefined,
      firstPrice: spent.price,
      qty: qtyLeft,
      cost: spent.price.mul(qtyLeft),
      fees: feesLeft,
      costIsProduct: true,
    });
    this.exposure.lotOpened(spent.ts);
    book.symExposure.lotOpened(spent.ts);
  }

  /** Hands every trade still growing to `onClosed`; call it once the fills are over. */
  flush(): void {
    const held = this.held;
    this.held = [];
    for (const trade of held) {
      trade.lot.closing = undefined;
      this.onClosed(closedTrade(trade));
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
          entryPrice: priceOf(lot.cost, lot.qty, lot.firstPrice),
          entryOrderId: lot.entryOrderId,
          ...(lot.entryStrategyId === undefined ? {} : { entryStrategyId: lot.entryStrategyId }),
          entryFees: lot.fees,
        });
      }
    }
    return open.sort((a, b) => a.entryTs - b.entryTs);
  }

  /**
   * When some lot was open: each stretch from a fill opening a lot while none was open to the
   * fill closing the last one, the last one up to `end` when lots are still open (see
   * {@link ExposureStretches.intervals}).
   * @param end - end of the run, for lots still open
   * @returns the intervals, in time order
   */
  exposureIntervals(end: number): TimeInterval[] {
    return this.exposure.intervals(end);
  }

  /**
   * {@link RoundTripBook.exposureIntervals} of one sym: when some lot of it (either position
   * side) was open.
   * @param sym - the sym
   * @param end - end of the run, for lots still open
   * @returns the intervals, in time order; empty for a sym never held
   */
  symExposureIntervals(sym: string, end: number): TimeInterval[] {
    return this.symExposure.get(sym)?.intervals(end) ?? [];
  }

  private closePart(
    lot: Lot,
    book: LotBook,
    fill: FillRecord,
    owner: string | undefined,
    batch: string,
    qty: Dec,
    entryCost: Dec,
    fees: Dec,
    entryCostIsProduct: boolean,
  ): void {
    const exitCost = fill.price.mul(qty);
    const growing = growingFrom(lot, batch);
    if (growing === undefined) {
      const trade: ClosingTrade = {
        lot,
        sym: book.sym,
        positionSide: book.positionSide,
        exitOrderId: fill.orderId,
        exitBatch: batch,
        exitStrategyId: owner,
        firstExitPrice: fill.price,
        contractSize: book.contractSize,
        qty,
        entryCost,
        exitCost,
        entryCostIsProduct,
        exitCostIsProduct: true,
        fees,
        exitTs: fill.timestamp,
        done: false,
      };
      startClosing(lot, trade);
      this.held.push(trade);
      return;
    }
    growing.qty = growing.qty.plus(qty);
    growing.entryCost = growing.entryCost.plus(entryCost);
    growing.exitCost = growing.exitCost.plus(exitCost);
    growing.fees = growing.fees.plus(fees);
    growing.exitTs = fill.timestamp;
    growing.entryCostIsProduct = false;
    growing.exitCostIsProduct = false;
  }

  /** Takes the oldest lot out of the book, closed at `ts`: the trades it was growing are done. */
  private dropOldestLot(book: LotBook, ts: number): void {
    const lot = book.lots.shift() as Lot;
    this.exposure.lotClosed(ts);
    book.symExposure.lotClosed(ts);
    const closing = lot.closing;
    if (closing instanceof Map) for (const trade of closing.values()) trade.done = true;
    else if (closing !== undefined) closing.done = true;
    lot.closing = undefined;
  }

  /** The lots of a sym and positionSide, made empty on first use. */
  private bookOf(sym: string, positionSide: PositionSide): LotBook {
    const last = this.lastBook;
    if (last !== undefined && last.sym === sym && last.positionSide === positionSide) return last;
    const key = positionKey(sym, positionSide);
    let book = this.books.get(key);
    if (book === undefined) {
      const contractSize = this.contractSizeOf(sym);
      let symExposure = this.symExposure.get(sym);
      if (symExposure === undefined) {
        symExposure = new ExposureStretches();
        this.symExposure.set(sym, symExposure);
      }
      book = {
        sym,
        positionSide,
        lots: [],
        contractSize: contractSize === undefined || contractSize.eq(ONE) ? undefined : contractSize,
        symExposure,
      };
      this.books.set(key, book);
    }
    this.lastBook = book;
    return book;
  }

  /**
   * Hands on the done trades at the head of the held ones, and the oldest beyond
   * {@link MAX_HELD_TRADES} even while growing (a later fill of its order starts a new trade).
   */
  private handOn(): void {
    let n = 0;
    while (n < this.held.length) {
      const trade = this.held[n] as ClosingTrade;
      if (!trade.done && this.held.length - n <= MAX_HELD_TRADES) break;
      if (!trade.done) stopClosing(trade);
      this.onClosed(closedTrade(trade));
      n++;
    }
    // Mostly one trade at a time: a shift returns it, where a splice makes an array of it.
    if (n === 1) this.held.shift();
    else if (n > 1) this.held.splice(0, n);
  }
}

/** The trade an exit batch is growing from a lot, if any. */
function growingFrom(lot: Lot, exitBatch: string): ClosingTrade | undefined {
  const closing = lot.closing;
  if (closing instanceof Map) return closing.get(exitBatch);
  return closing?.exitBatch === exitBatch ? closing : undefined;
}

/** Notes a trade an exit batch starts growing from a lot: kept alone, in a map once there are two. */
function startClosing(lot: Lot, trade: ClosingTrade): void {
  const closing = lot.closing;
  if (closing === undefined) lot.closing = trade;
  else if (closing instanceof Map) closing.set(trade.exitBatch, trade);
  else
    lot.closing = new Map([
      [closing.exitBatch, closing],
      [trade.exitBatch, trade],
    ]);
}

/** Forgets a trade still growing from its lot (handed on early: a later fill starts a new one). */
function stopClosing(trade: ClosingTrade): void {
  const lot = trade.lot;
  if (lot.closing instanceof Map) lot.closing.delete(trade.exitBatch);
  else if (lot.closing === trade) lot.closing = undefined;
}

import type { Dec, Execution, PositionSide } from '../../../core/model/index.ts';
import { D, ONE, positionKey } from '../../../core/model/index.ts';
import type { OpenTrade, RoundTripTrade, TradeDirection } from './round-trip-trade.ts';

/** Options of {@link roundTripsFromFills}. */
export interface RoundTripOptions {
  /** Units of base per contract for a sym (PnL multiplier); 1 when omitted or undefined. */
  readonly contractSizeOf?: (sym: string) => Dec | undefined;
}

/** The trades a list of fills makes: closed round trips and what is still open. */
export interface RoundTrips {
  readonly closed: readonly RoundTripTrade[];
  readonly open: readonly OpenTrade[];
}

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

/**
 * Pairs fills into round-trip trades, first in first out, per sym and positionSide. A fill
 * against the open lots' direction closes them oldest first; what it has left opens a new lot
 * (in NET mode a BUY larger than the short position closes it and opens a long). Fees minus
 * rebates are split pro rata to quantity, so the trades' fees always add up to the fills' fees.
 * @param fills - executions in the order they happened
 * @param options - contract sizes for PnL
 * @returns closed trades in closing order, and the open lots in opening order
 * @example
 * const { closed } = roundTripsFromFills([buy(1, '100'), sell(1, '110')]); // one LONG trade, +10
 */
export function roundTripsFromFills(fills: readonly Execution[], options: RoundTripOptions = {}): RoundTrips {
  const books = new Map<string, LotBook>();
  const closed: RoundTripTrade[] = [];
  for (const fill of fills) {
    const key = positionKey(fill.sym, fill.positionSide);
    let book = books.get(key);
    if (book === undefined) {
      book = { sym: fill.sym, positionSide: fill.positionSide, lots: [] };
      books.set(key, book);
    }
    const lots = book.lots;
    const direction: TradeDirection = fill.side === 'BUY' ? 'LONG' : 'SHORT';
    const contractSize = options.contractSizeOf?.(fill.sym) ?? ONE;
    let qtyLeft = fill.quantity;
    let feeLeft = fill.fee.minus(fill.rebate);
    while (qtyLeft.gt(0) && lots.length > 0 && lots[0]?.direction !== direction) {
      const lot = lots[0] as Lot;
      const qty = D.min(lot.qty, qtyLeft);
      const entryFees = qty.eq(lot.qty) ? lot.fees : lot.fees.mul(qty).div(lot.qty);
      const exitFees = qty.eq(qtyLeft) ? feeLeft : feeLeft.mul(qty).div(qtyLeft);
      closed.push(closeLot(lot, fill, qty, entryFees.plus(exitFees), contractSize));
      lot.qty = lot.qty.minus(qty);
      lot.fees = lot.fees.minus(entryFees);
      qtyLeft = qtyLeft.minus(qty);
      feeLeft = feeLeft.minus(exitFees);
      if (lot.qty.isZero()) lots.shift();
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
    }
  }
  return { closed, open: openTrades(books.values()) };
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
    returnFraction: entryNotional.isZero() ? 0 : pnl.div(entryNotional).toNumber(),
    durationMs: fill.timestamp - lot.entryTs,
  };
}

function openTrades(books: Iterable<LotBook>): OpenTrade[] {
  const open: OpenTrade[] = [];
  for (const { sym, positionSide, lots } of books) {
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

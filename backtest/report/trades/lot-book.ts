import type { Dec, PositionSide } from '../../../core/model/index.ts';
import type { ExposureStretches } from './exposure-stretches.ts';
import type { TradeDirection } from './round-trip-trade.ts';

/**
 * The entry order id of a lot a live or paper session adopted: the position the venue already held
 * when the session began, opened by no order the session knows.
 */
export const ADOPTED_ENTRY_ORDER_ID = 'adopted';

/** A position a session found open on the venue when it began: the lot its trade list starts from. */
export interface AdoptedPosition {
  readonly sym: string;
  readonly positionSide: PositionSide;
  readonly direction: TradeDirection;
  /** The quantity held (> 0), in contracts (or units). */
  readonly qty: Dec;
  /** The venue's average entry price of the position. */
  readonly price: Dec;
  /** When the session adopted it, epoch ms. */
  readonly ts: number;
}

/** What one entry order opened of one sym and positionSide and is not closed yet. */
export interface Lot {
  readonly direction: TradeDirection;
  readonly entryTs: number;
  /** The first order that opened it. */
  readonly entryOrderId: string;
  /**
   * The entry the orders that opened it make (see `RoundTripBook.add`): a later fill of that entry
   * grows the lot while it is the newest of its book. Undefined for a lot no order opened.
   */
  readonly entryBatch: string | undefined;
  readonly entryStrategyId: string | undefined;
  /** The price of the lot's first fill: its entry price while its cost is that price times its qty (see `priceOf`). */
  readonly firstPrice: Dec;
  qty: Dec;
  /** Entry price x quantity summed over the lot's fills; shrinks pro rata with qty. */
  cost: Dec;
  /** Entry fees not yet assigned to a closed trade; shrinks pro rata with qty. */
  fees: Dec;
  /**
   * Whether `cost` is `firstPrice.mul(qty)` as decimal.js computed it when the lot opened (one
   * fill, neither grown nor shrunk since): its price is then told without multiplying again.
   */
  costIsProduct: boolean;
  /**
   * The trades exits are growing from this lot (absent while none): the one trade itself (nearly
   * always: one exit closes a lot), by exit batch once two exits close it.
   */
  closing?: ClosingTrade | Map<string, ClosingTrade>;
}

/** The open lots of one sym and positionSide, oldest first. */
export interface LotBook {
  readonly sym: string;
  readonly positionSide: PositionSide;
  readonly lots: Lot[];
  /** Units of base per contract; undefined for 1, which multiplies nothing. */
  readonly contractSize: Dec | undefined;
  /** When some lot of the sym was open (shared by the sym's books of both position sides). */
  readonly symExposure: ExposureStretches;
}

/** What one exit (its orders' fills) has closed of one lot so far: a trade still growing while they fill. */
export interface ClosingTrade {
  readonly lot: Lot;
  readonly sym: string;
  readonly positionSide: PositionSide;
  /** The first order of the exit. */
  readonly exitOrderId: string;
  /** The exit the closing orders make (see `RoundTripBook.add`): its later fills grow this trade. */
  readonly exitBatch: string;
  readonly exitStrategyId: string | undefined;
  /** The price of the trade's first exit fill: its exit price while its exit cost is that price times its qty. */
  readonly firstExitPrice: Dec;
  /** Units of base per contract; undefined for 1. */
  readonly contractSize: Dec | undefined;
  qty: Dec;
  entryCost: Dec;
  exitCost: Dec;
  /** Whether `entryCost` is `lot.firstPrice.mul(qty)` as decimal.js computed it (see `Lot.costIsProduct`). */
  entryCostIsProduct: boolean;
  /** Whether `exitCost` is `firstExitPrice.mul(qty)` as decimal.js computed it (one exit fill so far). */
  exitCostIsProduct: boolean;
  fees: Dec;
  exitTs: number;
  /** Set once the trade can grow no more: its lot closed, or the book was flushed. */
  done: boolean;
}

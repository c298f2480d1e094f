import type {
  AlgoOrder,
  Dec,
  InstrumentSpec,
  Order,
  OrderSide,
  PositionMode,
  PositionSide,
  TimeInForce,
} from '../model/index.ts';
import type { KernelState } from './kernel-state.ts';

/** What a replace or cancel of an algo order reads of it: its sym, side and latest trigger price. */
export type AlgoOrderTerms = Pick<AlgoOrder, 'sym' | 'side' | 'triggerPrice'>;

/** What the factory reads to fill defaults; the strategy's context provides it. */
export interface OrderFactoryState {
  instrument(sym: string): InstrumentSpec | undefined;
  positionMode(): PositionMode;
  positionQty(sym: string, positionSide: PositionSide): Dec;
  orderByRef(ref: string): Order | undefined;
  /**
   * An algo order Keel knows or has sent, with the trigger price last sent on it (a replace not
   * answered yet included), or undefined.
   */
  algoByRef(ref: string): AlgoOrderTerms | undefined;
  /** The next generated caller reference of this strategy. */
  nextRef(): string;
}

/**
 * A strategy's factory view of the kernel state: instruments, position mode and legs, its orders
 * and algo orders by reference.
 * @param state - the kernel state
 * @param nextRef - the strategy's next generated caller reference
 * @returns what the factory reads
 */
export function orderFactoryStateOf(state: KernelState, nextRef: () => string): OrderFactoryState {
  return {
    instrument: (sym) => state.instrument(sym),
    positionMode: () => state.positionMode(),
    positionQty: (sym, side) => state.positionQty(sym, side),
    orderByRef: (ref) => state.orderByRef(ref),
    algoByRef: (ref) => latestAlgoTerms(state, ref),
    nextRef,
  };
}

/**
 * An algo order's terms as the strategy last sent them: one the venue acknowledged with the trigger
 * of the latest replace in flight on it, one not answered yet as sent (replaces since merged in).
 */
function latestAlgoTerms(state: KernelState, ref: string): AlgoOrderTerms | undefined {
  const known = state.orders.algoByRef.get(ref);
  if (known === undefined) return state.inFlightAlgoOrder(ref);
  const replaces = state.inFlightAlgoReplaces(ref);
  for (let i = replaces.length - 1; i >= 0; i--) {
    const triggerPrice = replaces[i]?.triggerPrice;
    if (triggerPrice !== undefined) return { sym: known.sym, side: known.side, triggerPrice };
  }
  return known;
}

/**
 * Whether a sym is a US equity (its orders default to DAY, IOC becomes FAK, dates are New York's).
 * @param state - what defaults are computed from
 * @param sym - the symbol (a `US_EQUITY_` prefix counts when the instrument is unknown)
 * @returns true for a US equity
 */
export function isEquity(state: OrderFactoryState, sym: string): boolean {
  return state.instrument(sym)?.id.kind === 'equity' || sym.startsWith('US_EQUITY_');
}

/**
 * The time in force of an order that names none: DAY for US equities, GTC otherwise.
 * @param state - what defaults are computed from
 * @param sym - the symbol
 * @returns the time in force
 */
export function defaultTimeInForce(state: OrderFactoryState, sym: string): TimeInForce {
  return isEquity(state, sym) ? 'DAY' : 'GTC';
}

/**
 * The time in force of an immediate order (market, IOC limit, trailing stop): FAK for US equities,
 * as the venue reports a PLACE_ORDER one, IOC otherwise.
 * @param state - what defaults are computed from
 * @param sym - the symbol
 * @returns the time in force
 */
export function immediateTimeInForce(state: OrderFactoryState, sym: string): TimeInForce {
  return isEquity(state, sym) ? 'FAK' : 'IOC';
}

/**
 * The position side of an order that names none. BOTH mode: an opening BUY is the LONG leg, a
 * reducing BUY the SHORT leg, and vice versa.
 * @param state - what defaults are computed from
 * @param side - the order's side
 * @param reduceOnly - whether the order only reduces
 * @returns NONE in NET mode, else LONG or SHORT
 */
export function defaultPositionSide(
  state: OrderFactoryState,
  side: OrderSide,
  reduceOnly: boolean,
): PositionSide {
  if (state.positionMode() === 'NET') return 'NONE';
  return (side === 'BUY') !== reduceOnly ? 'LONG' : 'SHORT';
}

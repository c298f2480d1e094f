import type {
  Dec,
  InstrumentSpec,
  Order,
  OrderSide,
  PositionMode,
  PositionSide,
  TimeInForce,
} from '../model/index.ts';

/** What the factory reads to fill defaults; the strategy's context provides it. */
export interface OrderFactoryState {
  instrument(sym: string): InstrumentSpec | undefined;
  positionMode(): PositionMode;
  positionQty(sym: string, positionSide: PositionSide): Dec;
  orderByRef(ref: string): Order | undefined;
  algoSymByRef(ref: string): string | undefined;
  /** The next generated caller reference of this strategy. */
  nextRef(): string;
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

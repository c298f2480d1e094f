import type {
  AlgoConditionType,
  AlgoOrderType,
  ConditionCode,
  Dec,
  EmulationTrigger,
  OrderSide,
  PositionSide,
  TimeInForce,
  TriggerPriceType,
} from '../model/index.ts';

/** An amount as a strategy may write it: a Decimal, a number (hot-path price) or a decimal string. */
export type Amount = Dec | number | string;

/** A take-profit or stop-loss attachment; `price` omitted or zero = market when triggered. */
export interface TpSlInput {
  readonly triggerPrice: Amount;
  /** Default LastPrice. */
  readonly triggerType?: TriggerPriceType;
  readonly price?: Amount;
}

/** Fields shared by every order the factory makes. */
export interface OrderInputBase {
  readonly sym: string;
  readonly side: OrderSide;
  readonly qty: Amount;
  /**
   * Caller reference (clientOrderId, <= 40 chars), usable once per run; generated from the
   * strategy id when omitted: `{id}-{counter in base 36}` in backtests, `{id}-{run tag}-{counter}`
   * in paper and live. A reference of a generated form of one of the run's strategies is refused
   * (`kernel.ref`: "has the form of this strategy's generated references"), so it never meets one
   * generated later: the untagged form (`mm-7`, and `mm-bid`, all base 36 after the id) in every
   * mode, a tagged one (`mm-tk3x9a4f-7`) only in the run of that tag (elsewhere it is a custom
   * reference). Any other, even one starting with the strategy id (`mm-bid-1`, `mm-BUY-1`), is
   * sent as given.
   */
  readonly ref?: string;
  /**
   * Default false. A crypto venue trims a reduce-only order to the position and cancels it when the
   * position is gone, so the risk gate lets one larger than the position through (SELL 0.3 against
   * a 0.1 long sells 0.1) and denies one only with no position opposite to it. US equities'
   * PLACE_ORDER has no such flag: the risk gate checks that the order reduces and is no larger than
   * the position when it is sent, and after that the venue (and so paper and the backtest sim)
   * treats it as a plain order, neither trimmed nor cancelled, so a fill after the position closed
   * opens one.
   */
  readonly reduceOnly?: boolean;
  /** Default: NONE in NET mode; in BOTH mode the leg the order opens (BUY -> LONG) or reduces. */
  readonly positionSide?: PositionSide;
  /**
   * Take-profit attached to the order. Not on a US equity (PLACE_ORDER carries no attachments): the
   * risk gate denies it (`equityAttachments`); place a conditional order (OCO, SL) after the fill.
   */
  readonly tp?: TpSlInput;
  /** Stop-loss attached to the order; as `tp`, not on a US equity. */
  readonly sl?: TpSlInput;
  /**
   * Round qty down to the lot and prices to the tick: limit prices passively (buys down, sells up),
   * a tp's limit price passively for the exit's side (opposite the order's: a long's SELL exit up),
   * an sl's limit price away from its trigger, so aggressively for the exit's side (a long's SELL
   * exit down, a short's BUY exit up: rounding never leaves a stop less room to fill after a gap),
   * trigger prices to the nearest tick (one exactly half a tick off to the tick above).
   * A number is first freed of its float noise (a few units in its last place), so `33.4 * 3`
   * rounds as 100.2, not 100.19999999999999; a Decimal or a string rounds as written.
   */
  readonly round?: boolean;
  /** US equities: allow pre-market and after-hours trading. */
  readonly extendedTrading?: boolean;
}

/** A limit order. */
export interface LimitInput extends OrderInputBase {
  readonly price: Amount;
  /** Default GTC for crypto, DAY for US equities (the PLACE_ORDER default). */
  readonly timeInForce?: TimeInForce;
}

/**
 * A market order, sized in base quantity or (quoteQty) in quote currency: one of them at least, so
 * an order given neither is a type error rather than a denial for a quantity of 0. Give one: the
 * risk gate denies an order with both a qty above zero and a quoteQty (`orderQty`), as the venue
 * does not say which one sizes it. A US equity's
 * order is sized in shares: PLACE_ORDER carries no quote amount, so the risk gate denies quoteQty
 * there (`equityQuoteQty`).
 */
export type MarketInput = Omit<OrderInputBase, 'qty'> & {
  /** Default IOC for crypto, FAK for US equities (what the venue reports for a PLACE_ORDER market order). */
  readonly timeInForce?: TimeInForce;
} & (
    | { readonly qty: Amount; readonly quoteQty?: Amount }
    | { readonly qty?: Amount; readonly quoteQty: Amount }
  );

/** What a modify changes: new qty and / or price, and optionally the modify's own reference. */
export interface ModifyInput {
  /**
   * The order's new total quantity, its filled part included (not what is left to fill): it must
   * exceed the order's `executedQty`, or the risk gate denies the modify (`modifyTarget`) as the
   * venue would refuse it (400001).
   */
  readonly qty?: Amount;
  readonly price?: Amount;
  /** Caller reference of the modify itself, under the rules of an order's `ref`. */
  readonly ref?: string;
  /**
   * Round qty down to the lot and the price passively to the tick for the order's side, as `round`
   * of a placement does; only when the order is known (an unknown target is denied whatever its
   * amounts).
   */
  readonly round?: boolean;
}

/** What a replace of an algo order changes: trigger, limit price and / or qty, and its own reference. */
export interface ReplaceAlgoInput {
  readonly triggerPrice?: Amount;
  /** The limit price when triggered; zero = market. */
  readonly price?: Amount;
  readonly qty?: Amount;
  /** Caller reference of the replace itself, under the rules of an order's `ref`. */
  readonly ref?: string;
  /**
   * Round as `round` of an algo order does: qty down to the lot, the trigger price to the nearest
   * tick and the limit price away from the trigger (the new one when given, else the latest sent
   * on the algo order, a replace not yet answered included); only when the algo order is known (an
   * unknown target is denied whatever its amounts).
   */
  readonly round?: boolean;
}

/** A good-till-date limit order. */
export interface GtdInput extends OrderInputBase {
  readonly price: Amount;
  /**
   * Last day, `YYYY-MM-DD`, or an epoch ms whose date is taken in New York for US equities and
   * in UTC otherwise (Keel's choice).
   */
  readonly expiry: string | number;
}

/** A conditional order of the PLACE_ORDER message (UT, DT, SL, OCO, TIME, HOLD). */
export interface ConditionalInput extends OrderInputBase {
  readonly code: ConditionCode;
  /** Limit price; omitted = market order. */
  readonly price?: Amount;
  readonly triggerPrice?: Amount;
  readonly stopPrice?: Amount;
  /**
   * TIME orders: when to send, epoch ms (written as New York time, the zone the venue reads it
   * in, in whole seconds: a moment between two goes at the later one) or the spec's text form
   * `yyyy-MM-dd HH:mm:ss`, New York time.
   */
  readonly sendAt?: number | string;
  readonly timeInForce?: TimeInForce;
}

/** An algo (trigger) order held by the venue until its trigger price is crossed. */
export interface AlgoInput {
  readonly sym: string;
  readonly side: OrderSide;
  readonly qty: Amount;
  readonly triggerPrice: Amount;
  /** GTE fires when the trigger price rises to the level, LTE when it falls to it. */
  readonly condition: AlgoConditionType;
  /** Default LastPrice. */
  readonly triggerType?: TriggerPriceType;
  /** Limit price when triggered; omitted or zero = market. */
  readonly price?: Amount;
  /** Default TRIGGER. */
  readonly algoOrderType?: AlgoOrderType;
  readonly reduceOnly?: boolean;
  readonly positionSide?: PositionSide;
  /** Caller reference (clientAlgoOrderId), under the rules of an order's `ref` ({@link OrderInputBase.ref}). */
  readonly ref?: string;
  /**
   * Round qty down to the lot, the trigger price to the nearest tick and the limit price away from
   * the trigger (a SELL stop's limit below its trigger down, a BUY stop's above it up), so rounding
   * never moves a stop's limit onto its trigger; numbers are first freed of float noise, as `round`
   * of an order.
   */
  readonly round?: boolean;
}

/**
 * A trailing stop's distance from the best price seen: a price, a whole number of ticks, or basis
 * points of the best price (100 bps = 1%). Exactly one.
 */
export type TrailingOffsetInput =
  | { readonly price: Amount }
  | { readonly ticks: number }
  | { readonly bps: Amount };

/**
 * A trailing stop (trailing-stop-market), emulated by the kernel: a SELL stop trails the highest
 * price since activation by `offset`, a BUY stop the lowest; when the price crosses the stop the
 * kernel sends a MARKET order of `qty` through the risk gate, a reduce-only one of at most the
 * position it reduces then (which a partial exit may have shrunk since the stop was placed).
 */
export interface TrailingStopInput {
  readonly sym: string;
  readonly side: OrderSide;
  readonly qty: Amount;
  readonly offset: TrailingOffsetInput;
  /** Trail only once the price reaches it (SELL: at or above, BUY: at or below); default at once. */
  readonly activationPrice?: Amount;
  /** The price trailed and compared: last trade (default), mark, or bid (SELL) / ask (BUY). */
  readonly triggerOn?: EmulationTrigger;
  /** Default true (Keel's choice: a trailing stop is an exit); false lets it open or add to a position. */
  readonly reduceOnly?: boolean;
  readonly positionSide?: PositionSide;
  /**
   * Caller reference, under the rules of an order's `ref` ({@link OrderInputBase.ref}); also the
   * clientOrderId of the MARKET order sent when it triggers.
   */
  readonly ref?: string;
  /** Round qty down to the lot (a number first freed of its float noise, as `round` of an order). */
  readonly round?: boolean;
}

/** A margin loan movement (borrow or repay) in one exchange account of the portfolio. */
export interface LoanInput {
  readonly exchange: string;
  readonly coin: string;
  readonly amount: Amount;
  /** Caller reference, under the rules of an order's `ref` ({@link OrderInputBase.ref}); generated when omitted. */
  readonly ref?: string;
}

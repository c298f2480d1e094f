import { DateTime } from 'luxon';
import type {
  BorrowIntent,
  CancelAlgoOrderIntent,
  CancelAllAlgoOrdersIntent,
  CancelOrderIntent,
  CancelOrdersIntent,
  ClosePositionIntent,
  ClosePositionsIntent,
  Dec,
  InstrumentSpec,
  ModifyOrderIntent,
  Order,
  OrderCondition,
  OrderSide,
  PlaceAlgoOrderIntent,
  PlaceOrderIntent,
  PositionMode,
  PositionSide,
  RepayIntent,
  ReplaceAlgoOrderIntent,
  SetPositionModeIntent,
  TimeInForce,
  TpSl,
} from '../model/index.ts';
import { decimalOf, formatTimeToSend, parseDecimal, ZERO } from '../model/index.ts';
import type {
  AlgoInput,
  Amount,
  ConditionalInput,
  GtdInput,
  LimitInput,
  LoanInput,
  MarketInput,
  OrderInputBase,
  TpSlInput,
} from './order-inputs.ts';
import { US_EQUITY_ZONE } from './us-equity-session.ts';

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
 * Turns an amount into a Decimal exactly.
 * @param value - Decimal, number or decimal string
 * @param field - the field name for the error message
 * @returns the Decimal
 * @throws TypeError when a number is not finite or a string is not a decimal
 */
export function toDecimal(value: Amount, field: string): Dec {
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new TypeError(`order factory: ${field} must be a finite number, got ${value}`);
    return decimalOf(value);
  }
  return typeof value === 'string' ? parseDecimal(value, field) : value;
}

/**
 * The order factory a strategy gets as `ctx.order`: one method per intent kind of the model.
 * It fills defaults (time in force, position side, reference) and rounds to tick and lot when
 * asked (`round: true`); it does not judge: the risk gate does.
 */
export class OrderFactory {
  /** @param state - what defaults are computed from */
  constructor(private readonly state: OrderFactoryState) {}

  /**
   * A limit order.
   * @param input - sym, side, qty, price and options
   * @returns the intent
   * @example
   * ctx.submit(ctx.order.limit({ sym, side: 'BUY', qty: '0.01', price: quote.bid, round: true }));
   */
  limit(input: LimitInput): PlaceOrderIntent {
    return this.place(input, 'LIMIT', input.price, input.timeInForce ?? this.defaultTif(input.sym));
  }

  /**
   * A market order, sized by `qty` or by `quoteQty` (quote currency).
   * @param input - sym, side, qty or quoteQty and options
   * @returns the intent
   */
  market(input: MarketInput): PlaceOrderIntent {
    const intent = this.place(
      { ...input, qty: input.qty ?? ZERO },
      'MARKET',
      undefined,
      input.timeInForce ?? 'IOC',
    );
    return input.quoteQty === undefined
      ? intent
      : { ...intent, quoteOrderQty: toDecimal(input.quoteQty, 'quoteQty') };
  }

  /**
   * A post-only limit order (GTX): rejected rather than taking liquidity.
   * @param input - as for a limit order
   * @returns the intent
   */
  postOnly(input: Omit<LimitInput, 'timeInForce'>): PlaceOrderIntent {
    return this.place(input, 'LIMIT', input.price, 'GTX');
  }

  /**
   * An immediate-or-cancel limit order (FAK for US equities).
   * @param input - as for a limit order
   * @returns the intent
   */
  ioc(input: Omit<LimitInput, 'timeInForce'>): PlaceOrderIntent {
    return this.place(input, 'LIMIT', input.price, this.isEquity(input.sym) ? 'FAK' : 'IOC');
  }

  /**
   * A fill-or-kill limit order.
   * @param input - as for a limit order
   * @returns the intent
   */
  fok(input: Omit<LimitInput, 'timeInForce'>): PlaceOrderIntent {
    return this.place(input, 'LIMIT', input.price, 'FOK');
  }

  /**
   * A good-till-date limit order.
   * @param input - as for a limit order plus `expiry`
   * @returns the intent, with `expiryDate` as `YYYY-MM-DD`
   */
  gtd(input: GtdInput): PlaceOrderIntent {
    const zone = this.isEquity(input.sym) ? US_EQUITY_ZONE : 'utc';
    const expiryDate =
      typeof input.expiry === 'number'
        ? (DateTime.fromMillis(input.expiry, { zone }).toISODate() ?? '')
        : input.expiry;
    return { ...this.place(input, 'LIMIT', input.price, 'GTD'), expiryDate };
  }

  /**
   * A conditional order of the PLACE_ORDER message: UT / DT / SL / OCO with trigger (and stop
   * for OCO) prices, TIME with a send time, or HOLD.
   * @param input - order fields plus the condition
   * @returns the intent
   */
  conditional(input: ConditionalInput): PlaceOrderIntent {
    const round = input.round === true ? this.instrumentOf(input.sym) : undefined;
    const condition: OrderCondition = {
      code: input.code,
      ...(input.triggerPrice === undefined ? {} : { triggerPrice: this.trigger(input.triggerPrice, round) }),
      ...(input.stopPrice === undefined ? {} : { stopPrice: this.trigger(input.stopPrice, round) }),
      ...(input.sendAt === undefined
        ? {}
        : { timeToSend: typeof input.sendAt === 'number' ? formatTimeToSend(input.sendAt) : input.sendAt }),
    };
    const orderType = input.price === undefined ? 'MARKET' : 'LIMIT';
    const tif = input.timeInForce ?? this.defaultTif(input.sym);
    return { ...this.place(input, orderType, input.price, tif), condition };
  }

  /**
   * An algo (trigger) order.
   * @param input - sym, side, qty, trigger and options
   * @returns the intent
   * @example
   * ctx.order.algo({ sym, side: 'SELL', qty: 1, triggerPrice: 58_000, condition: 'LTE', reduceOnly: true });
   */
  algo(input: AlgoInput): PlaceAlgoOrderIntent {
    const spec = input.round === true ? this.instrumentOf(input.sym) : undefined;
    const reduceOnly = input.reduceOnly ?? false;
    return {
      kind: 'placeAlgoOrder',
      ref: input.ref ?? this.state.nextRef(),
      sym: input.sym,
      side: input.side,
      algoOrderType: input.algoOrderType ?? 'TRIGGER',
      conditionType: input.condition,
      triggerType: input.triggerType ?? 'LastPrice',
      triggerPrice: this.trigger(input.triggerPrice, spec),
      price: input.price === undefined ? ZERO : this.price(input.price, input.side, spec),
      qty: this.qty(input.qty, spec),
      reduceOnly,
      positionSide: input.positionSide ?? this.defaultPositionSide(input.side, reduceOnly),
    };
  }

  /**
   * Replaces an open algo order's trigger, price or quantity.
   * @param target - clientAlgoOrderId
   * @param changes - the new values
   * @returns the intent
   */
  replaceAlgo(
    target: string,
    changes: { triggerPrice?: Amount; price?: Amount; qty?: Amount; ref?: string },
  ): ReplaceAlgoOrderIntent {
    return {
      kind: 'replaceAlgoOrder',
      ref: changes.ref ?? this.state.nextRef(),
      target,
      sym: this.state.algoSymByRef(target) ?? '',
      ...(changes.triggerPrice === undefined
        ? {}
        : { triggerPrice: toDecimal(changes.triggerPrice, 'triggerPrice') }),
      ...(changes.price === undefined ? {} : { price: toDecimal(changes.price, 'price') }),
      ...(changes.qty === undefined ? {} : { qty: toDecimal(changes.qty, 'qty') }),
    };
  }

  /**
   * Cancels one algo order.
   * @param target - clientAlgoOrderId
   * @returns the intent
   */
  cancelAlgo(target: string): CancelAlgoOrderIntent {
    const sym = this.state.algoSymByRef(target) ?? '';
    return { kind: 'cancelAlgoOrder', ref: this.state.nextRef(), target, sym };
  }

  /**
   * Cancels all of the strategy's open algo orders, optionally on one sym or of one type.
   * @param filter - sym and / or algo order type
   * @returns the intent
   */
  cancelAllAlgos(filter: Omit<CancelAllAlgoOrdersIntent, 'kind' | 'ref'> = {}): CancelAllAlgoOrdersIntent {
    return { kind: 'cancelAllAlgoOrders', ref: this.state.nextRef(), ...filter };
  }

  /**
   * Modifies an open order's quantity and / or price.
   * @param target - clientOrderId (or the order)
   * @param changes - new qty and / or price
   * @returns the intent
   */
  modify(target: string | Order, changes: { qty?: Amount; price?: Amount; ref?: string }): ModifyOrderIntent {
    const ref = typeof target === 'string' ? target : target.clientOrderId;
    return {
      kind: 'modifyOrder',
      ref: changes.ref ?? this.state.nextRef(),
      target: ref,
      sym: this.state.orderByRef(ref)?.sym ?? '',
      ...(changes.qty === undefined ? {} : { qty: toDecimal(changes.qty, 'qty') }),
      ...(changes.price === undefined ? {} : { price: toDecimal(changes.price, 'price') }),
    };
  }

  /**
   * Cancels one order.
   * @param target - clientOrderId (or the order)
   * @returns the intent
   */
  cancel(target: string | Order): CancelOrderIntent {
    const ref = typeof target === 'string' ? target : target.clientOrderId;
    return {
      kind: 'cancelOrder',
      ref: this.state.nextRef(),
      target: ref,
      sym: this.state.orderByRef(ref)?.sym ?? '',
    };
  }

  /**
   * Cancels the listed orders, or all of the strategy's open orders (on `sym` when given).
   * @param selection - targets and / or sym; empty = all of the strategy's orders
   * @returns the intent
   */
  cancelMany(selection: { targets?: readonly string[]; sym?: string } = {}): CancelOrdersIntent {
    return { kind: 'cancelOrders', ref: this.state.nextRef(), ...selection };
  }

  /**
   * Closes a position with a market close. In BOTH mode without a side, the non-flat leg
   * (LONG first) is closed.
   * @param sym - the symbol
   * @param positionSide - the leg; default NONE in NET mode
   * @returns the intent
   */
  closePosition(sym: string, positionSide?: PositionSide): ClosePositionIntent {
    let side: PositionSide = positionSide ?? 'NONE';
    if (positionSide === undefined && this.state.positionMode() === 'BOTH') {
      side = this.state.positionQty(sym, 'LONG').isZero() ? 'SHORT' : 'LONG';
    }
    return { kind: 'closePosition', ref: this.state.nextRef(), sym, positionSide: side };
  }

  /**
   * Closes several positions (the venue takes up to 20 syms; the risk gate enforces it).
   * @param symList - the symbols
   * @returns the intent
   */
  closePositions(symList: readonly string[]): ClosePositionsIntent {
    return { kind: 'closePositions', ref: this.state.nextRef(), symList: [...symList] };
  }

  /**
   * Borrows an asset into an exchange account of the portfolio.
   * @param input - exchange, coin, amount
   * @returns the intent
   */
  borrow(input: LoanInput): BorrowIntent {
    return { kind: 'borrow', ...this.loan(input) };
  }

  /**
   * Repays loan principal.
   * @param input - exchange, coin, amount
   * @returns the intent
   */
  repay(input: LoanInput): RepayIntent {
    return { kind: 'repay', ...this.loan(input) };
  }

  /**
   * Switches the portfolio's position mode.
   * @param positionMode - NET or BOTH
   * @returns the intent
   */
  setPositionMode(positionMode: PositionMode): SetPositionModeIntent {
    return { kind: 'setPositionMode', ref: this.state.nextRef(), positionMode };
  }

  /** The fields a borrow and a repay share, with the amount as an exact Decimal. */
  private loan(input: LoanInput): Omit<BorrowIntent | RepayIntent, 'kind'> {
    const { exchange, coin } = input;
    return {
      ref: input.ref ?? this.state.nextRef(),
      exchange,
      coin,
      amount: toDecimal(input.amount, 'amount'),
    };
  }

  private place(
    input: OrderInputBase,
    orderType: 'LIMIT' | 'MARKET',
    price: Amount | undefined,
    timeInForce: TimeInForce,
  ): PlaceOrderIntent {
    const spec = input.round === true ? this.instrumentOf(input.sym) : undefined;
    const reduceOnly = input.reduceOnly ?? false;
    return {
      kind: 'placeOrder',
      ref: input.ref ?? this.state.nextRef(),
      sym: input.sym,
      side: input.side,
      orderType,
      qty: this.qty(input.qty, spec),
      ...(price === undefined ? {} : { price: this.price(price, input.side, spec) }),
      timeInForce,
      reduceOnly,
      positionSide: input.positionSide ?? this.defaultPositionSide(input.side, reduceOnly),
      ...(input.tp === undefined ? {} : { tp: this.tpSl(input.tp, spec) }),
      ...(input.sl === undefined ? {} : { sl: this.tpSl(input.sl, spec) }),
      ...(input.extendedTrading === undefined ? {} : { extendedTrading: input.extendedTrading }),
    };
  }

  private instrumentOf(sym: string): InstrumentSpec | undefined {
    return this.state.instrument(sym);
  }

  private isEquity(sym: string): boolean {
    return this.state.instrument(sym)?.id.kind === 'equity' || sym.startsWith('US_EQUITY_');
  }

  private defaultTif(sym: string): TimeInForce {
    return this.isEquity(sym) ? 'DAY' : 'GTC';
  }

  /** BOTH mode: an opening BUY is the LONG leg, a reducing BUY the SHORT leg, and vice versa. */
  private defaultPositionSide(side: OrderSide, reduceOnly: boolean): PositionSide {
    if (this.state.positionMode() === 'NET') return 'NONE';
    return (side === 'BUY') !== reduceOnly ? 'LONG' : 'SHORT';
  }

  private qty(value: Amount, spec: InstrumentSpec | undefined): Dec {
    const qty = toDecimal(value, 'qty');
    return spec === undefined ? qty : qty.div(spec.lotSize).floor().mul(spec.lotSize);
  }

  /** Limit prices round passively (buys down, sells up), so rounding never makes an order more aggressive. */
  private price(value: Amount, side: OrderSide, spec: InstrumentSpec | undefined): Dec {
    const price = toDecimal(value, 'price');
    if (spec === undefined) return price;
    const steps = price.div(spec.tickSize);
    return (side === 'BUY' ? steps.floor() : steps.ceil()).mul(spec.tickSize);
  }

  private trigger(value: Amount, spec: InstrumentSpec | undefined, field = 'triggerPrice'): Dec {
    const price = toDecimal(value, field);
    return spec === undefined ? price : price.toNearest(spec.tickSize);
  }

  private tpSl(input: TpSlInput, spec: InstrumentSpec | undefined): TpSl {
    return {
      triggerPrice: this.trigger(input.triggerPrice, spec),
      triggerType: input.triggerType ?? 'LastPrice',
      price: input.price === undefined ? ZERO : this.trigger(input.price, spec, 'tp/sl price'),
    };
  }
}

import type {
  BorrowIntent,
  CancelAlgoOrderIntent,
  CancelAllAlgoOrdersIntent,
  CancelOrderIntent,
  CancelOrdersIntent,
  ClosePositionIntent,
  ClosePositionsIntent,
  ModifyOrderIntent,
  Order,
  OrderSide,
  PlaceAlgoOrderIntent,
  PlaceOrderIntent,
  PositionMode,
  PositionSide,
  RepayIntent,
  ReplaceAlgoOrderIntent,
  SetPositionModeIntent,
} from '../model/index.ts';
import { ZERO } from '../model/index.ts';
import { closePositionIntent, loanFields } from './account-intents.ts';
import { IntentTally } from './intent-tally.ts';
import { type LegPiece, legPieces } from './leg-pieces.ts';
import { toDecimal } from './order-amounts.ts';
import {
  cancelAlgoOrderIntent,
  cancelOrderIntent,
  modifyOrderIntent,
  replaceAlgoOrderIntent,
} from './order-change-intents.ts';
import type { OrderFactoryState } from './order-defaults.ts';
import { defaultTimeInForce, immediateTimeInForce } from './order-defaults.ts';
import type {
  AlgoInput,
  Amount,
  ConditionalInput,
  GtdInput,
  LimitInput,
  LoanInput,
  MarketInput,
  ModifyInput,
  ReplaceAlgoInput,
  TrailingStopInput,
} from './order-inputs.ts';
import {
  gtdIntent,
  orderCondition,
  placeAlgoOrderIntent,
  placeOrderIntent,
  trailingStopIntent,
} from './placement-intents.ts';

/**
 * The order factory a strategy gets as `ctx.order`: one method per intent kind of the model.
 * It fills defaults (time in force, position side, reference) and rounds to tick and lot when
 * asked (`round: true`); it does not judge: the risk gate does.
 */
export class OrderFactory {
  /**
   * @param state - what defaults are computed from
   * @param tally - counts the intents built (the kernel counts those sent), for the warning of
   *   intents a hook built and never sent
   */
  constructor(
    private readonly state: OrderFactoryState,
    readonly tally: IntentTally = new IntentTally(),
  ) {}

  /**
   * A limit order.
   * @param input - sym, side, qty, price and options
   * @returns the intent
   * @example
   * ctx.submit(ctx.order.limit({ sym, side: 'BUY', qty: '0.01', price: quote.bid, round: true }));
   */
  limit(input: LimitInput): PlaceOrderIntent {
    return this.built(
      placeOrderIntent(
        this.state,
        input,
        'LIMIT',
        input.price,
        input.timeInForce ?? defaultTimeInForce(this.state, input.sym),
      ),
    );
  }

  /**
   * A market order, sized by `qty` or by `quoteQty` (quote currency). Its time in force defaults to
   * IOC, FAK for US equities: the venue reports a PLACE_ORDER market order as FAK.
   * @param input - sym, side, qty or quoteQty and options
   * @returns the intent
   */
  market(input: MarketInput): PlaceOrderIntent {
    const intent = placeOrderIntent(
      this.state,
      { ...input, qty: input.qty ?? ZERO },
      'MARKET',
      undefined,
      input.timeInForce ?? immediateTimeInForce(this.state, input.sym),
    );
    return this.built(
      input.quoteQty === undefined
        ? intent
        : { ...intent, quoteOrderQty: toDecimal(input.quoteQty, 'quoteQty') },
    );
  }

  /**
   * A post-only limit order (GTX): rejected rather than taking liquidity.
   * @param input - as for a limit order
   * @returns the intent
   */
  postOnly(input: Omit<LimitInput, 'timeInForce'>): PlaceOrderIntent {
    return this.built(placeOrderIntent(this.state, input, 'LIMIT', input.price, 'GTX'));
  }

  /**
   * An immediate-or-cancel limit order (FAK for US equities).
   * @param input - as for a limit order
   * @returns the intent
   */
  ioc(input: Omit<LimitInput, 'timeInForce'>): PlaceOrderIntent {
    return this.built(
      placeOrderIntent(this.state, input, 'LIMIT', input.price, immediateTimeInForce(this.state, input.sym)),
    );
  }

  /**
   * A fill-or-kill limit order.
   * @param input - as for a limit order
   * @returns the intent
   */
  fok(input: Omit<LimitInput, 'timeInForce'>): PlaceOrderIntent {
    return this.built(placeOrderIntent(this.state, input, 'LIMIT', input.price, 'FOK'));
  }

  /**
   * A good-till-date limit order. The venue takes GTD for US equities only: the risk gate denies
   * it on a crypto sym (`timeInForce` check), whose orders are GTC, IOC, FOK or GTX.
   * @param input - as for a limit order plus `expiry`
   * @returns the intent, with `expiryDate` as `YYYY-MM-DD`
   */
  gtd(input: GtdInput): PlaceOrderIntent {
    return this.built(gtdIntent(this.state, input));
  }

  /**
   * A conditional order of the PLACE_ORDER message: UT / DT / SL / OCO with trigger (and stop
   * for OCO) prices, TIME with a send time, or HOLD. US equities only: the venue's crypto orders
   * carry no condition, so the risk gate denies one on a crypto sym (`cryptoConditions`) in every
   * mode; place an {@link OrderFactory.algo} order there.
   * @param input - order fields plus the condition
   * @returns the intent
   */
  conditional(input: ConditionalInput): PlaceOrderIntent {
    const condition = orderCondition(
      input,
      input.round === true ? this.state.instrument(input.sym) : undefined,
    );
    const orderType = input.price === undefined ? 'MARKET' : 'LIMIT';
    const tif = input.timeInForce ?? defaultTimeInForce(this.state, input.sym);
    return this.built({ ...placeOrderIntent(this.state, input, orderType, input.price, tif), condition });
  }

  /**
   * An algo (trigger) order.
   * @param input - sym, side, qty, trigger and options
   * @returns the intent
   * @example
   * ctx.order.algo({ sym, side: 'SELL', qty: 1, triggerPrice: 58_000, condition: 'LTE', reduceOnly: true });
   */
  algo(input: AlgoInput): PlaceAlgoOrderIntent {
    return this.built(placeAlgoOrderIntent(this.state, input));
  }

  /**
   * A trailing stop (trailing-stop-market), which Keel emulates: the venue has no trailing order
   * type, so the kernel holds it, trails it on the market data it routes, and when the price
   * crosses the stop sends a MARKET order (same reference) through the risk gate. The gate also
   * judges the stop when it is placed, as that MARKET order (a denial comes to `onDenied` and no
   * stop is held; a reduce-only one need not have a position yet). Reduce-only by default. Its
   * life reaches `onTrailingStop`; `ctx.trailingStops()` lists the open ones;
   * `ctx.order.cancel(ref)` cancels it. Held in memory: a restarted session has none.
   * @param input - sym, side, qty, offset (price, ticks or bps), activation price, trigger source
   * @returns the intent (a placeOrder with `trailingStop`)
   * @throws TypeError when the offset does not have exactly one of price, ticks, bps
   * @example
   * // long 1 BTC: sell it if the last price falls 50 ticks below its highest since 60 000
   * ctx.order.trailingStop({ sym, side: 'SELL', qty: 1, offset: { ticks: 50 }, activationPrice: 60_000 });
   */
  trailingStop(input: TrailingStopInput): PlaceOrderIntent {
    return this.built(trailingStopIntent(this.state, input));
  }

  /**
   * Replaces an open algo order's trigger, price or quantity.
   * @param target - clientAlgoOrderId
   * @param changes - the new values, and options (`round: true` rounds them as an algo order's:
   *   the limit away from the new trigger, or from the latest one sent when the trigger stays)
   * @returns the intent
   * @example
   * ctx.submit(ctx.order.replaceAlgo(stopRef, { triggerPrice: low - 0.5, price: low - 1, round: true }));
   */
  replaceAlgo(target: string, changes: ReplaceAlgoInput): ReplaceAlgoOrderIntent {
    return this.built(replaceAlgoOrderIntent(this.state, target, changes));
  }

  /**
   * Cancels one algo order.
   * @param target - clientAlgoOrderId
   * @returns the intent
   */
  cancelAlgo(target: string): CancelAlgoOrderIntent {
    return this.built(cancelAlgoOrderIntent(this.state, target));
  }

  /**
   * Cancels all of the strategy's open algo orders, optionally on one sym or of one type.
   * @param filter - sym and / or algo order type
   * @returns the intent
   */
  cancelAllAlgos(filter: Omit<CancelAllAlgoOrdersIntent, 'kind' | 'ref'> = {}): CancelAllAlgoOrdersIntent {
    return this.built({ kind: 'cancelAllAlgoOrders', ref: this.state.nextRef(), ...filter });
  }

  /**
   * Modifies an open order's quantity and / or price.
   * @param target - clientOrderId (or the order)
   * @param changes - new qty and / or price, and options (`round: true` rounds them as a placement's)
   * @returns the intent
   * @example
   * ctx.submit(ctx.order.modify(order, { price: quote.bid - 0.5, round: true }));
   */
  modify(target: string | Order, changes: ModifyInput): ModifyOrderIntent {
    return this.built(modifyOrderIntent(this.state, target, changes));
  }

  /**
   * Cancels one order.
   * @param target - clientOrderId (or the order)
   * @returns the intent
   */
  cancel(target: string | Order): CancelOrderIntent {
    return this.built(cancelOrderIntent(this.state, target));
  }

  /**
   * Cancels the listed orders, or all of the strategy's open orders (on `sym` when given).
   * @param selection - targets and / or sym; empty = all of the strategy's orders
   * @returns the intent
   */
  cancelMany(selection: { targets?: readonly string[]; sym?: string } = {}): CancelOrdersIntent {
    return this.built({ kind: 'cancelOrders', ref: this.state.nextRef(), ...selection });
  }

  /**
   * Closes a position with a market close. In BOTH mode without a side, the non-flat leg
   * (LONG first) is closed.
   * @param sym - the symbol
   * @param positionSide - the leg; default NONE in NET mode
   * @returns the intent
   */
  closePosition(sym: string, positionSide?: PositionSide): ClosePositionIntent {
    return this.built(closePositionIntent(this.state, sym, positionSide));
  }

  /**
   * Closes several positions (the venue takes up to 20 syms; the risk gate enforces it).
   * @param symList - the symbols
   * @returns the intent
   */
  closePositions(symList: readonly string[]): ClosePositionsIntent {
    return this.built({ kind: 'closePositions', ref: this.state.nextRef(), symList: [...symList] });
  }

  /**
   * Borrows an asset into an exchange account of the portfolio.
   * @param input - exchange, coin, amount
   * @returns the intent
   */
  borrow(input: LoanInput): BorrowIntent {
    return this.built({ kind: 'borrow', ...loanFields(this.state, input) });
  }

  /**
   * Repays loan principal.
   * @param input - exchange, coin, amount
   * @returns the intent
   */
  repay(input: LoanInput): RepayIntent {
    return this.built({ kind: 'repay', ...loanFields(this.state, input) });
  }

  /**
   * How a trade that moves the net position by `qty` goes to the legs: in NET mode one piece on
   * NONE; in BOTH mode a piece that closes the held opposite leg first (its positionSide,
   * reduce-only, at most its size), then a piece that opens the order's own leg with the rest.
   * Spread each piece into an order input, so a strategy written for NET mode trades one leg at a
   * time in BOTH mode instead of opening the opposite leg with every order meant to reduce.
   * A piece below the instrument's minimum size (or notional at `price`) is not made: a closing
   * one that small gives way to the whole trade on the order's own leg, an opening one is left out.
   * @param sym - the symbol
   * @param side - BUY or SELL
   * @param qty - the quantity to trade (zero or less gives no piece)
   * @param price - the price the pieces would trade at (a limit, or the reference price of a market
   *   order), for the minimum notional; unchecked when undefined
   * @returns the pieces, closing one first
   * @example
   * ctx.order.legs(sym, 'SELL', qty, ctx.referencePrice(sym)).map((leg) => ctx.order.market({ sym, side: 'SELL', ...leg }));
   */
  legs(sym: string, side: OrderSide, qty: Amount, price?: number): LegPiece[] {
    return legPieces(this.state, sym, side, toDecimal(qty, 'qty'), price);
  }

  /**
   * Switches the portfolio's position mode.
   * @param positionMode - NET or BOTH
   * @returns the intent
   */
  setPositionMode(positionMode: PositionMode): SetPositionModeIntent {
    return this.built({ kind: 'setPositionMode', ref: this.state.nextRef(), positionMode });
  }

  /**
   * Counts an intent the factory built, once it is built: a builder call that throws (a qty string
   * that is not a decimal) built nothing, so the warning of intents left unsent does not count it.
   * @param intent - the intent just built
   * @returns the intent
   */
  private built<T>(intent: T): T {
    this.tally.built++;
    return intent;
  }
}

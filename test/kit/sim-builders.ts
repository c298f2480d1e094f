import {
  createSimVenue,
  type SimVenue,
  type SimVenueOptions,
  ZERO_LATENCY,
} from '../../backtest/sim/index.ts';
import { seededRandom } from '../../core/kernel/index.ts';
import type {
  BarEvent,
  BookEvent,
  BookLevel,
  Intent,
  MarketTradeEvent,
  MarkPriceEvent,
  PlaceAlgoOrderIntent,
  PlaceOrderIntent,
  QuoteEvent,
  UserEvent,
} from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';
import type { ApprovedIntent } from '../../core/risk/index.ts';
import { anInstrument } from './instrument-builders.ts';
import { aFeedBar } from './kernel-events.ts';

/** The sym most sim tests trade. */
export const BTC = 'BINANCE_PERP_BTC_USDT';

/**
 * TESTS ONLY: brands an intent as approved without a risk gate (product code must go through it).
 * @param intent - the intent
 * @param strategyId - the strategy tag
 * @returns the "approved" command
 */
export function asApproved(intent: Intent, strategyId = 'test'): ApprovedIntent {
  return { strategyId, intent } as ApprovedIntent;
}

/**
 * A BTC order intent in NET mode (positionSide NONE), not reduce-only, with the type's fields.
 * @param ref - caller reference (clientOrderId)
 * @param side - BUY or SELL
 * @param qty - quantity as a decimal string
 * @param fields - order type, time in force and any overrides
 * @returns the intent
 */
function aBtcOrder(
  ref: string,
  side: 'BUY' | 'SELL',
  qty: string,
  fields: Pick<PlaceOrderIntent, 'orderType' | 'timeInForce'> & Partial<PlaceOrderIntent>,
): PlaceOrderIntent {
  return {
    kind: 'placeOrder',
    ref,
    sym: BTC,
    side,
    qty: D(qty),
    reduceOnly: false,
    positionSide: 'NONE',
    ...fields,
  };
}

/**
 * A limit order intent on BTC (GTC, NET, not reduce-only) unless told otherwise.
 * @param ref - caller reference (clientOrderId)
 * @param side - BUY or SELL
 * @param qty - quantity as a decimal string
 * @param price - limit price as a decimal string
 * @param more - overrides
 * @returns the intent
 */
export function aLimit(
  ref: string,
  side: 'BUY' | 'SELL',
  qty: string,
  price: string,
  more: Partial<PlaceOrderIntent> = {},
): PlaceOrderIntent {
  return aBtcOrder(ref, side, qty, { orderType: 'LIMIT', price: D(price), timeInForce: 'GTC', ...more });
}

/**
 * A market order intent on BTC (IOC, NET, not reduce-only) unless told otherwise.
 * @param ref - caller reference
 * @param side - BUY or SELL
 * @param qty - quantity
 * @param more - overrides
 * @returns the intent
 */
export function aMarket(
  ref: string,
  side: 'BUY' | 'SELL',
  qty: string,
  more: Partial<PlaceOrderIntent> = {},
): PlaceOrderIntent {
  return aBtcOrder(ref, side, qty, { orderType: 'MARKET', timeInForce: 'IOC', ...more });
}

/**
 * A BUY 1 BTC algo order that fires into a market order when the last price reaches 105 or more.
 * @param ref - clientAlgoOrderId
 * @param fields - overrides
 * @returns the intent
 */
export function anAlgo(ref: string, fields: Partial<PlaceAlgoOrderIntent> = {}): PlaceAlgoOrderIntent {
  return {
    kind: 'placeAlgoOrder',
    ref,
    sym: BTC,
    side: 'BUY',
    algoOrderType: 'TRIGGER',
    conditionType: 'GTE',
    triggerType: 'LastPrice',
    triggerPrice: D('105'),
    price: D('0'),
    qty: D('1'),
    reduceOnly: false,
    positionSide: 'NONE',
    ...fields,
  };
}

/**
 * A BBO event at time `ts` (recvTs = ts).
 * @returns the event
 */
export function aQuote(
  ts: number,
  bid: number,
  bidQty: number,
  ask: number,
  askQty: number,
  sym = BTC,
): QuoteEvent {
  return { kind: 'quote', sym, ts, recvTs: ts, bid, bidQty, ask, askQty };
}

/**
 * A public trade at time `ts`; `side` is the aggressor's.
 * @returns the event
 */
export function aTrade(
  ts: number,
  price: number,
  qty: number,
  side: 'BUY' | 'SELL',
  sym = BTC,
): MarketTradeEvent {
  return { kind: 'trade', sym, ts, recvTs: ts, tradeId: `t${ts}`, price, qty, side };
}

/**
 * A recorded book snapshot at time `ts` (recvTs = ts).
 * @param ts - event time
 * @param bids - bid levels, best first, as [price, size]
 * @param asks - ask levels, best first, as [price, size]
 * @param sym - the sym (default BTC)
 * @returns the event
 */
export function aBook(ts: number, bids: BookLevel[], asks: BookLevel[], sym = BTC): BookEvent {
  return { kind: 'book', sym, ts, recvTs: ts, bids, asks };
}

/**
 * A closed 1m bar ending at `ts`, volume 100.
 * @returns the event
 */
export function aBar(
  ts: number,
  open: number,
  high: number,
  low: number,
  close: number,
  sym = BTC,
): BarEvent {
  return aFeedBar(ts - 60_000, [open, high, low, close, 100], sym);
}

/**
 * A mark price event, with funding when given.
 * @returns the event
 */
export function aMark(
  ts: number,
  markPrice: number,
  funding?: { rate: number; next: number },
  sym = BTC,
): MarkPriceEvent {
  return {
    kind: 'markPrice',
    sym,
    ts,
    recvTs: ts,
    markPrice,
    ...(funding ? { fundingRate: funding.rate, nextFundingTime: funding.next } : {}),
  };
}

/** A sim under test with every event it emitted. */
export interface SimUnderTest {
  readonly sim: SimVenue;
  readonly events: UserEvent[];
  /** Submits intents (as approved) in order. */
  send(...intents: Intent[]): void;
  /** Events of one kind. */
  of<K extends UserEvent['kind']>(kind: K): Extract<UserEvent, { kind: K }>[];
}

/**
 * A simulated venue on one BTC perpetual (tick 0.1, lot 0.001, maker 2 bps, taker 5 bps, leverage
 * 10), 10 000 USDT, zero latency, `through` fill model unless told otherwise.
 * @param overrides - options to replace
 * @returns the sim and the events it emits
 */
export function aSim(overrides: Partial<SimVenueOptions> = {}): SimUnderTest {
  const sim = createSimVenue({
    instruments: [anInstrument(BTC)],
    startingBalances: { USDT: D('10000') },
    random: seededRandom(7),
    latency: ZERO_LATENCY,
    fillModel: 'through',
    ...overrides,
  });
  const events: UserEvent[] = [];
  sim.events.subscribe((event) => events.push(event));
  return {
    sim,
    events,
    send: (...intents) => {
      for (const intent of intents) sim.submit(asApproved(intent));
    },
    of: <K extends UserEvent['kind']>(kind: K) =>
      events.filter((e): e is Extract<UserEvent, { kind: K }> => e.kind === kind),
  };
}

/**
 * A BOTH-mode account of 300 USDT holding LONG 1 and SHORT 0.5 BTC, both opened at 1000 by
 * market orders (taker fees 0.5 + 0.25), the mark at 1000, the sim at time 1.
 * @returns the sim and the events it emits
 */
export function aHedgedBtcAccount(): SimUnderTest {
  const t = aSim({ startingBalances: { USDT: D('300') }, positionMode: 'BOTH' });
  t.sim.onMarket(aQuote(0, 1000, 50, 1000, 50));
  t.sim.onMarket(aMark(0, 1000));
  t.send(
    aMarket('l', 'BUY', '1', { positionSide: 'LONG' }),
    aMarket('s', 'SELL', '0.5', { positionSide: 'SHORT' }),
  );
  t.sim.advanceTo(1);
  return t;
}

/**
 * Each fill the sim emitted, in order, as `ref side qty@price execType` (e.g. `b BUY 3@100 MAKER`).
 * @param t - the sim under test
 * @returns one line a fill
 */
export function fillLines(t: SimUnderTest): string[] {
  return t
    .of('execution')
    .map(
      ({ execution: e }) =>
        `${e.clientOrderId} ${e.side} ${e.quantity.toFixed()}@${e.price.toFixed()} ${e.execType}`,
    );
}

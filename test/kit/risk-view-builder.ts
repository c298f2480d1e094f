import {
  type AlgoOrder,
  D,
  type Dec,
  type InstrumentSpec,
  isFinalOrderState,
  type Order,
  onlyReducesPosition,
  type PlaceAlgoOrderIntent,
  type PositionMode,
  type PositionSide,
  positionKey,
  ZERO,
} from '../../core/model/index.ts';
import type { OpenOrderFilter, RiskView } from '../../core/risk/index.ts';
import { anInstrument } from './instrument-builders.ts';

/** An open order with the strategy that owns it. */
export interface OwnedOrder {
  readonly strategyId: string;
  readonly order: Order;
}

/** A hand-made, mutable RiskView for tests: set the fields, the view reads them. */
export interface FakeRiskView extends RiskView {
  time: number;
  mode: PositionMode;
  equityValue: Dec;
  gross: Dec;
  readonly instruments: Map<string, InstrumentSpec>;
  readonly references: Map<string, number>;
  readonly positions: Map<string, Dec>;
  /** The orders the view knows, final or not; the open-order questions see the non-final ones. */
  orders: OwnedOrder[];
  /** The algo orders the view knows, with their owners; those in state NEW count as open. */
  algoOrders: { readonly strategyId: string; readonly algo: AlgoOrder }[];
  /** Algo orders sent and not answered yet, by owner. */
  algosInFlight: string[];
  /** Algo orders sent and not answered yet, as sent, with their owners (counted as open too). */
  algosSent: { readonly strategyId: string; readonly intent: PlaceAlgoOrderIntent }[];
  /** Trailing stops held by Keel, by owner. */
  trailingStops: string[];
  /** The qty a modify in flight asks for, by the clientOrderId of its order. */
  readonly modifyClaims: Map<string, Dec>;
  /** Signed sizes closes in flight will close, by `sym|positionSide` (any strategy's). */
  readonly closing: Map<string, Dec>;
  /**
   * Sets a position.
   * @param sym - the symbol
   * @param qty - signed quantity (e.g. "-2")
   * @param side - position side, NONE by default
   */
  setPosition(sym: string, qty: string, side?: PositionSide): void;
}

function openOf(view: FakeRiskView, { strategyId, sym }: OpenOrderFilter): Order[] {
  return view.orders
    .filter(
      (o) =>
        !isFinalOrderState(o.order.orderState) &&
        (strategyId === undefined || o.strategyId === strategyId) &&
        (sym === undefined || o.order.sym === sym),
    )
    .map((o) => o.order);
}

/**
 * A RiskView over BINANCE_PERP_BTC_USDT (reference 100), NET mode, flat, no orders, equity 10000.
 * @returns the fake view
 */
export function aRiskView(): FakeRiskView {
  const view: FakeRiskView = {
    time: Date.UTC(2026, 0, 5, 12),
    mode: 'NET',
    equityValue: D('10000'),
    gross: ZERO,
    instruments: new Map([['BINANCE_PERP_BTC_USDT', anInstrument()]]),
    references: new Map([['BINANCE_PERP_BTC_USDT', 100]]),
    positions: new Map(),
    orders: [],
    algoOrders: [],
    algosInFlight: [],
    algosSent: [],
    trailingStops: [],
    modifyClaims: new Map(),
    closing: new Map(),
    now: () => view.time,
    instrument: (sym) => view.instruments.get(sym),
    referencePrice: (sym) => view.references.get(sym),
    positionQty: (sym, side) => view.positions.get(positionKey(sym, side)) ?? ZERO,
    positionMode: () => view.mode,
    openOrders: (strategyId) => openOf(view, { ...(strategyId === undefined ? {} : { strategyId }) }),
    forEachOpenOrder: (strategyId, visit) => {
      for (const order of openOf(view, strategyId === undefined ? {} : { strategyId })) visit(order);
    },
    countOpenOrders: (filter = {}) => openOf(view, filter).length,
    openOrdersOn: (sym, strategyId) =>
      openOf(view, { sym, ...(strategyId === undefined ? {} : { strategyId }) }),
    ownerOf: (ref) => view.orders.find((o) => o.order.clientOrderId === ref)?.strategyId,
    orderByRef: (ref) => view.orders.find((o) => o.order.clientOrderId === ref)?.order,
    inFlightModifyQty: (order) => view.modifyClaims.get(order.clientOrderId),
    inFlightModifyPrice: () => undefined,
    closingPositionQty: (sym, side) => view.closing.get(positionKey(sym, side)) ?? ZERO,
    legMayGrow: (sym, side) =>
      [
        ...openOf(view, { sym }),
        ...view.algoOrders.filter((a) => a.algo.state === 'NEW').map((a) => a.algo),
      ].some((order) => order.sym === sym && order.positionSide === side && !onlyReducesPosition(order)),
    algoOrderByRef: (ref) => view.algoOrders.find((a) => a.algo.clientAlgoOrderId === ref)?.algo,
    inFlightAlgoOrder: (ref) => view.algosSent.find((a) => a.intent.ref === ref)?.intent,
    inFlightAlgoReplaces: () => [],
    countOpenAlgoOrders: (strategyId) =>
      view.algoOrders.filter(
        (a) => a.algo.state === 'NEW' && (strategyId === undefined || a.strategyId === strategyId),
      ).length +
      view.algosInFlight.filter((owner) => strategyId === undefined || owner === strategyId).length +
      view.algosSent.filter((a) => strategyId === undefined || a.strategyId === strategyId).length,
    forEachOpenAlgoOrder: (strategyId, visit) => {
      for (const { strategyId: owner, algo } of view.algoOrders)
        if (algo.state === 'NEW' && (strategyId === undefined || owner === strategyId)) visit(algo);
      for (const { strategyId: owner, intent } of view.algosSent)
        if (strategyId === undefined || owner === strategyId) visit(intent);
    },
    countHeldTrailingStops: (strategyId) =>
      view.trailingStops.filter((owner) => strategyId === undefined || owner === strategyId).length,
    equity: () => view.equityValue,
    grossExposure: () => view.gross,
    setPosition(sym, qty, side = 'NONE') {
      view.positions.set(positionKey(sym, side), D(qty));
    },
  };
  return view;
}

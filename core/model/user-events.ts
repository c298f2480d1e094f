import type { Account, Asset, Loan } from './account.ts';
import type { AlgoOrder } from './algo-order.ts';
import type { Dec } from './decimal.ts';
import type { Execution } from './execution.ts';
import type { IntentKind } from './intents.ts';
import type { LiquidationEventRecord, LiquidationPositionRecord } from './liquidation.ts';
import type { Order } from './order.ts';
import type { Position, PositionSide } from './position.ts';

/** Every User Data event carries the venue time `ts` and the local receive time `recvTs`. */
interface UserEventBase {
  readonly ts: number;
  readonly recvTs: number;
  /**
   * True on an event the venue adapter made itself rather than the venue pushed (an order's ack
   * built from the order-entry reply, an order or command it reports refused, a lookup's answer,
   * a reconciliation's correction, loan and ADL reads): its `ts` is the session's clock when Keel
   * made it, not a time the venue stamped. Absent on the venue's own events and in a backtest.
   */
  readonly stampedByKeel?: true;
}

/** Orders channel: an order's new state. */
export interface OrderUpdateEvent extends UserEventBase {
  readonly kind: 'order';
  readonly order: Order;
}

/** Trades channel: one execution. */
export interface ExecutionEvent extends UserEventBase {
  readonly kind: 'execution';
  readonly execution: Execution;
  /**
   * The part of the execution's fee that is the sub-portfolio markup, as the simulated venue
   * charged it (the embedded paper venue's collection records); absent when none was charged (a
   * liquidation fill pays the liquidation fee instead) and in a real venue's events.
   */
  readonly subPortfolioMarkup?: Dec;
}

/** Positions channel (per public venue docs). */
export interface PositionUpdateEvent extends UserEventBase {
  readonly kind: 'position';
  readonly position: Position;
}

/** Assets channel. */
export interface AssetUpdateEvent extends UserEventBase {
  readonly kind: 'asset';
  readonly asset: Asset;
}

/** Accounts channel. */
export interface AccountUpdateEvent extends UserEventBase {
  readonly kind: 'account';
  readonly account: Account;
}

/** LiquidationEvent channel: the liquidation process reached a new node. */
export interface LiquidationNodeEvent extends UserEventBase {
  readonly kind: 'liquidationEvent';
  readonly record: LiquidationEventRecord;
}

/**
 * LiquidationPosition channel (`byUser` false) or LiquidationPositionByUser channel (`byUser`
 * true, delivered on the main account's connection for every sub-portfolio).
 */
export interface LiquidationPositionEvent extends UserEventBase {
  readonly kind: 'liquidationPosition';
  readonly byUser: boolean;
  readonly record: LiquidationPositionRecord;
}

/** An algo order changed state (REST query or simulated venue). */
export interface AlgoOrderUpdateEvent extends UserEventBase {
  readonly kind: 'algoOrder';
  readonly algoOrder: AlgoOrder;
}

/** ADL rank of a position (GET /api/v1/adl/rank); 1 lowest to 5 highest. */
export interface AdlRankEvent extends UserEventBase {
  readonly kind: 'adlRank';
  readonly sym: string;
  readonly positionId: string;
  readonly positionSide: PositionSide;
  readonly rank: number;
}

/** A margin loan changed (borrow, repay, interest accrual). */
export interface LoanUpdateEvent extends UserEventBase {
  readonly kind: 'loan';
  readonly loan: Loan;
}

/** The venue refused a command that is not an order (borrow, close position...), with its code. */
export interface CommandRejectedEvent extends UserEventBase {
  readonly kind: 'commandRejected';
  readonly ref: string;
  readonly intentKind: IntentKind;
  readonly code: number;
  readonly message: string;
}

/** Any User Data event. */
export type UserEvent =
  | OrderUpdateEvent
  | ExecutionEvent
  | PositionUpdateEvent
  | AssetUpdateEvent
  | AccountUpdateEvent
  | LiquidationNodeEvent
  | LiquidationPositionEvent
  | AlgoOrderUpdateEvent
  | AdlRankEvent
  | LoanUpdateEvent
  | CommandRejectedEvent;

/**
 * The kernel and the public strategy API. Strategies import only this file and
 * `core/model/index.ts`.
 * @packageDocumentation
 */

export { ATR, BollingerBands, EMA, RSI, SMA } from 'trading-signals';
export { AWAITING_ALGO_CHILD_MS, AWAITING_ALGO_CHILDREN_KEPT } from './algo-children-awaiting.ts';
export type { AlgoChildGivenUp, GivenUpCause } from './algo-children-given-up.ts';
export type { LateBarInputs } from './bar-aggregator.ts';
export { BookedFills } from './booked-fills.ts';
export type { Clock } from './clock.ts';
export { intentSym } from './command-syms.ts';
export type { StrategyDefinition, StrategyHooks, StrategySpec } from './define-strategy.ts';
export { defineStrategy } from './define-strategy.ts';
export { MARKET_OBSERVATION_MS } from './equity-observations.ts';
export type { FillGivenUp } from './fill-given-up.ts';
export { fillOnOrderLeg, orderLegOf } from './fill-leg.ts';
export { FILL_AWAITING_ORDER_MS } from './fills-awaiting-order.ts';
export { sweepWhileHalted } from './halt-sweep.ts';
export type { InFlightAlgoOrder, InFlightAlgoRef } from './in-flight-algo-orders.ts';
export type { CloseOrdering, UnattributedCloseOrder } from './in-flight-closes.ts';
export type { Bands, WarmIndicator } from './indicators.ts';
export { atr, bollinger, ema, rsi, sma, warmUp } from './indicators.ts';
export { MAX_REF_LENGTH } from './intent-ownership.ts';
export type { UnsentIntents } from './intent-tally.ts';
export { Kernel } from './kernel.ts';
export type { IntentGate, KernelOptions, StrategySlot } from './kernel-options.ts';
export type { KernelState } from './kernel-state.ts';
export type { KernelWarmUp, WarmUpCoverage } from './kernel-warm-up.ts';
export { eventStart, formatPeriod, warmUpFrom } from './kernel-warm-up.ts';
export type { LegPiece } from './leg-pieces.ts';
export { legPieces } from './leg-pieces.ts';
export type { DeclaredSyms, SymsDeclaration } from './market-listeners.ts';
export { declaredSymsOf } from './market-listeners.ts';
export { mergeByTime } from './merge-by-time.ts';
export { toDecimal } from './order-amounts.ts';
export type { AlgoOrderTerms, OrderFactoryState } from './order-defaults.ts';
export { OrderFactory } from './order-factory.ts';
export type {
  AlgoInput,
  Amount,
  ConditionalInput,
  GtdInput,
  LimitInput,
  LoanInput,
  MarketInput,
  ModifyInput,
  OrderInputBase,
  ReplaceAlgoInput,
  TpSlInput,
  TrailingOffsetInput,
  TrailingStopInput,
} from './order-inputs.ts';
export { orderKey } from './order-keys.ts';
export type { EquityFractionOptions, PositionSizer } from './position-sizer.ts';
export {
  qtyForCash,
  qtyForEquityFraction,
  qtyForEquityFractionAfterFee,
  qtyOnLotGrid,
  wholeUnits,
} from './position-sizer.ts';
export type { RandomSource } from './random.ts';
export { seededRandom } from './random.ts';
export { sweepWhileReducing } from './reducing-sweep.ts';
export { RetentionQueue } from './retention-queue.ts';
export type { Scheduler } from './scheduler.ts';
export { secretParam } from './secret-param.ts';
export type { StrategyContext } from './strategy-context.ts';
export type { DenialSource, IntentDenied, IntentOutput, TimerEvent } from './strategy-events.ts';
export type { StrategyFault, StrategyRejection } from './strategy-faults.ts';
export type { StrategyLoan } from './strategy-loan.ts';
export type { SweepScope } from './strategy-order-sweep.ts';
export { cancelStrategyOrders } from './strategy-order-sweep.ts';
export { strictParams } from './strict-params.ts';
export type { SweepFailure } from './sweep-retries.ts';
export { SWEEP_WORD_WAIT_MS } from './sweep-retries.ts';
export type { TrailingStep } from './trailing-level.ts';
export { TrailingLevel } from './trailing-level.ts';
export type { TrailingStop, TrailingStopCancelReason, TrailingStopStatus } from './trailing-stop.ts';
export { UnprotectiveOrders } from './unprotective-orders.ts';
export type { UsEquitySessionOptions } from './us-equity-session.ts';
export {
  formatNewYorkTime,
  isUsEquitySessionOpen,
  nextUsEquitySessionClose,
  nextUsEquitySessionOpen,
} from './us-equity-session.ts';
export type { VirtualScheduler } from './virtual-clock.ts';
export { VirtualClock, virtualScheduler } from './virtual-clock.ts';
export { monotonicNow, timerScheduler, wallClock, wallScheduler } from './wall-clock.ts';

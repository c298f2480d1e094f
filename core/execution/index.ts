/**
 * Execution: the execution port, the order state machine and reconciliation. Keel's in-flight
 * bookkeeping (PENDING_* placeholders, refused and unanswered requests) is the kernel's.
 * @packageDocumentation
 */
export type { ExecutionPort, VenueSnapshot } from './execution-port.ts';
export { forgottenOrders, forgottenOrdersWarning } from './forgotten-orders.ts';
export { LastingLookupFailure } from './lasting-lookup-failure.ts';
export type { PlaceIntentOrderFacts } from './order-from-place-intent.ts';
export { orderFromPlaceIntent } from './order-from-place-intent.ts';
export { applyOrderUpdate, isNewerOrderUpdate } from './order-state-machine.ts';
export type {
  LocalTradingState,
  ReconcileOptions,
  ReconciliationLookups,
  ReconciliationPlan,
  UnknownToVenue,
} from './reconciliation.ts';
export {
  loanCorrections,
  planReconciliation,
  reconcile,
  UNKNOWN_ORDER_REASON,
  UNREADABLE_ORDER_REASON,
  unknownAlgoOrderEnded,
  unknownOrderEnded,
} from './reconciliation.ts';

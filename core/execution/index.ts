/**
 * Execution: the execution port, order state machine, in-flight tracking and reconciliation.
 * @packageDocumentation
 */
export type { ExecutionPort, VenueSnapshot } from './execution-port.ts';
export type { PlaceIntentOrderFacts } from './order-from-place-intent.ts';
export { orderFromPlaceIntent } from './order-from-place-intent.ts';
export { applyOrderUpdate, isNewerOrderUpdate } from './order-state-machine.ts';
export type { OrderTrackerOptions } from './order-tracker.ts';
export { OrderTracker } from './order-tracker.ts';
export type { LocalTradingState, ReconcileOptions, ReconciliationPlan } from './reconciliation.ts';
export { planReconciliation, reconcile } from './reconciliation.ts';
export type { InFlightRequest } from './tracked-orders.ts';

/**
 * Execution: the execution port, order state machine, in-flight tracking and reconciliation.
 * @packageDocumentation
 */
export type { ExecutionPort, VenueSnapshot } from './execution-port.ts';

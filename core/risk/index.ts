/**
 * The risk gate: every intent passes through it before an execution port.
 * @packageDocumentation
 */
export type { ApprovedIntent } from './approved-intent.ts';

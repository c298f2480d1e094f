import type { TrailingStop, TrailingStopStatus } from '../../../core/kernel/index.ts';
import type { Dec } from '../../../core/model/index.ts';

/** One status change of an emulated trailing stop: when, and its stop price then (none while PENDING). */
export interface TrailingStopStep {
  readonly ts: number;
  readonly status: TrailingStopStatus;
  readonly stopPrice?: Dec;
}

/**
 * A trailing stop the kernel emulated, as a result holds it: its last state (the stop price it
 * had, the price that crossed it) with every status change. Its MARKET order, when it triggered,
 * is in the orders under the same reference.
 */
export interface TrailingStopRecord extends Omit<TrailingStop, 'kind'> {
  readonly steps: readonly TrailingStopStep[];
}

/**
 * Keeps every emulated trailing stop of a run by reference, in the order the kernel accepted
 * them, each with its status changes.
 */
export class TrailingStopLog {
  private readonly byRef = new Map<string, TrailingStopRecord>();

  /**
   * Takes one status change as the kernel reported it.
   * @param stop - the stop, in its new status
   */
  observe(stop: TrailingStop): void {
    const { kind: _kind, ...fields } = stop;
    const step: TrailingStopStep = {
      ts: stop.updateAt,
      status: stop.status,
      ...(stop.stopPrice === undefined ? {} : { stopPrice: stop.stopPrice }),
    };
    const steps = this.byRef.get(stop.ref)?.steps ?? [];
    this.byRef.set(stop.ref, { ...fields, steps: [...steps, step] });
  }

  /** @returns every stop in its last state, in acceptance order */
  records(): TrailingStopRecord[] {
    return [...this.byRef.values()];
  }
}

import type { Logger } from 'pino';
import type { Position } from '../../core/model/index.ts';
import { type StopCancelOutcome, stopCancelWarning } from './cancel-on-stop.ts';

/** What a stopped session leaves on the venue, for its summary and result. */
export interface StopLeftovers {
  /** For `result.meta.warnings` (and so the summary): orders a requested cancel may have missed. */
  readonly warnings: readonly string[];
  /** Summary lines: what was left open as configured. */
  readonly notes: readonly string[];
}

/** What the session's own record says is still open when it stops. */
export interface OpenAtStop {
  readonly orders: readonly { readonly clientOrderId: string }[];
  readonly algoRefs: readonly string[];
  readonly positions: Iterable<Position>;
}

/**
 * What a stopping session left on the venue: with `shutdown.cancelAllOrders`, a warning (logged
 * at error) naming the orders its cancels could not cancel; without, a note of the orders, algo
 * orders and positions left open as configured.
 * @param cancelled - what the cancels at stop achieved, or undefined when none were asked for
 * @param open - the orders, algo orders and positions open at the end, by the session's record
 * @param timeoutMs - `shutdown.timeoutMs`, named in the warning
 * @param logger - where the warning is logged
 * @returns the warnings and notes
 */
export function stopLeftovers(
  cancelled: StopCancelOutcome | undefined,
  open: OpenAtStop,
  timeoutMs: number,
  logger: Logger,
): StopLeftovers {
  if (cancelled !== undefined) {
    const warning = stopCancelWarning(cancelled, timeoutMs);
    if (warning === undefined) return { warnings: [], notes: [] };
    logger.error({ leftOpen: cancelled.leftOpen, attempts: cancelled.attempts }, warning);
    return { warnings: [warning], notes: [] };
  }
  const positions = [...open.positions].filter((p) => !p.positionQty.isZero());
  const parts = [
    countOf(
      open.orders.length,
      'order',
      open.orders.map((o) => o.clientOrderId),
    ),
    countOf(open.algoRefs.length, 'algo order', open.algoRefs),
    positions.length === 0
      ? ''
      : `positions ${positions.map((p) => `${p.sym} ${p.positionSide === 'NONE' ? '' : `${p.positionSide} `}${p.positionQty.toFixed()}`).join(', ')}`,
  ].filter((part) => part !== '');
  if (parts.length === 0) return { warnings: [], notes: [] };
  return {
    warnings: [],
    notes: [`left open on the venue (shutdown.cancelAllOrders is false): ${parts.join('; ')}`],
  };
}

function countOf(n: number, noun: string, refs: readonly string[]): string {
  if (n === 0) return '';
  const shown = refs.slice(0, 5).join(', ') + (n > 5 ? `, and ${n - 5} more` : '');
  return `${n} ${noun}${n === 1 ? '' : 's'} (${shown})`;
}

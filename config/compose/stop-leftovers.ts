import type { Logger } from 'pino';
import type { TrailingStop } from '../../core/kernel/index.ts';
import type { Position } from '../../core/model/index.ts';
import { type ProtectiveAtStop, type StopCancelOutcome, stopCancelWarning } from './cancel-on-stop.ts';
import { endedTrailingStopsNote, endedTrailingStopWarnings } from './ended-trailing-stops.ts';
import type { InFlightCommand } from './in-flight-commands.ts';
import { positionLabel } from './position-label.ts';

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
  /** The emulated trailing stops the kernel's stop ended (none when absent). */
  readonly trailingStops?: readonly TrailingStop[];
  /** The commands still in flight when the stop stopped waiting for them (none when absent). */
  readonly unanswered?: UnansweredAtStop;
}

/** Commands whose outcome was still unknown when the stop stopped waiting. */
export interface UnansweredAtStop {
  readonly commands: readonly InFlightCommand[];
  /** When the stop stopped waiting for their answers (and the client's lookups of them), epoch ms. */
  readonly lookedUpUntil: number;
}

/**
 * What a stopping session left on the venue: a warning (logged at error) naming the commands
 * whose fate is unknown (sent, never answered before the stop gave up waiting: an order among
 * them may be live); with `shutdown.cancelAllOrders`, a warning naming the orders its cancels
 * could not cancel, a note of the positions left open and the protective orders kept for them,
 * and a warning of those left without theirs (`shutdown.keepProtectiveOrders` false); without, a
 * note of the orders, algo orders, positions and commands of unknown fate left as configured.
 * Either way, a warning per emulated trailing stop the stop ended (Keel held it, the venue never
 * had it: the position it protected is unprotected) and a note of them.
 * @param cancelled - what the cancels at stop achieved, or undefined when none were asked for
 * @param open - the orders, algo orders, positions and unanswered commands at the end, by the session's record
 * @param timeoutMs - `shutdown.timeoutMs`, named in the warnings
 * @param logger - where the warnings are logged
 * @returns the warnings and notes
 */
export function stopLeftovers(
  cancelled: StopCancelOutcome | undefined,
  open: OpenAtStop,
  timeoutMs: number,
  logger: Logger,
): StopLeftovers {
  const unknown = open.unanswered?.commands ?? [];
  const warnings: string[] = [];
  if (open.unanswered !== undefined && unknown.length > 0) {
    const warning = unansweredWarning(open.unanswered, timeoutMs);
    logger.error({ fateUnknown: unknown.map((c) => c.ref) }, warning);
    warnings.push(warning);
  }
  const positions = [...open.positions].filter((p) => !p.positionQty.isZero());
  const stops = open.trailingStops ?? [];
  for (const warning of endedTrailingStopWarnings(stops, positions)) {
    logger.warn(warning);
    warnings.push(warning);
  }
  const stopsNote = endedTrailingStopsNote(stops);
  if (cancelled !== undefined) {
    const warning = stopCancelWarning(cancelled, timeoutMs);
    if (warning !== undefined) {
      logger.error({ leftOpen: cancelled.leftOpen, attempts: cancelled.attempts }, warning);
      warnings.push(warning);
    }
    const unprotected = unprotectedWarning(positions, cancelled.unprotected);
    if (unprotected !== undefined) {
      logger.warn(unprotected);
      warnings.push(unprotected);
    }
    return { warnings, notes: [...positionsNote(positions, cancelled.kept), ...stopsNote] };
  }
  const parts = [
    countOf(
      open.orders.length,
      'order',
      open.orders.map((o) => o.clientOrderId),
    ),
    countOf(open.algoRefs.length, 'algo order', open.algoRefs),
    positions.length === 0 ? '' : `positions ${positions.map(positionLabel).join(', ')}`,
    unknown.length === 0
      ? ''
      : `${countOf(
          unknown.length,
          'command',
          unknown.map((c) => c.ref),
        )} of unknown fate`,
  ].filter((part) => part !== '');
  if (parts.length === 0) return { warnings, notes: stopsNote };
  return {
    warnings,
    notes: [`left open on the venue (shutdown.cancelAllOrders is false): ${parts.join('; ')}`, ...stopsNote],
  };
}

/**
 * The warning of commands sent before the stop that were never answered: the venue may have
 * taken them (an order may be working, a loan taken), so they are named for the user to check.
 */
function unansweredWarning(unanswered: UnansweredAtStop, timeoutMs: number): string {
  const { commands, lookedUpUntil } = unanswered;
  const n = commands.length;
  const shown =
    commands
      .slice(0, 10)
      .map((c) => `${c.ref} (${c.kind})`)
      .join(', ') + (n > 10 ? `, and ${n - 10} more` : '');
  return `${n} command${n === 1 ? '' : 's'} sent before the stop ${n === 1 ? 'has' : 'have'} no answer from the venue: ${shown} (fate unknown: looked up until ${new Date(lookedUpUntil).toISOString()}, shutdown.timeoutMs ${timeoutMs} ms; ${n === 1 ? 'it' : 'they'} may have taken effect: check the venue's open orders, algo orders and loans)`;
}

/** The protective orders of a position leg, among those given. */
function protectiveOf(p: Position, orders: readonly ProtectiveAtStop[]): string[] {
  return orders.filter((o) => o.sym === p.sym && o.positionSide === p.positionSide).map((o) => o.ref);
}

/**
 * The note of positions a stop that cancelled the orders left open (it closes none), each with
 * the protective orders kept for it (`shutdown.keepProtectiveOrders`).
 */
function positionsNote(positions: readonly Position[], kept: readonly ProtectiveAtStop[]): string[] {
  if (positions.length === 0) return [];
  let anyKept = false;
  const shown = positions.map((p) => {
    const refs = protectiveOf(p, kept);
    anyKept ||= refs.length > 0;
    return refs.length === 0 ? positionLabel(p) : `${positionLabel(p)} (kept ${refs.join(', ')})`;
  });
  const why = anyKept
    ? 'shutdown.cancelAllOrders cancels orders, not positions, and shutdown.keepProtectiveOrders kept their protective orders'
    : 'shutdown.cancelAllOrders cancels orders, not positions';
  return [`left open on the venue: positions ${shown.join(', ')} (${why})`];
}

/**
 * The warning of positions left open whose protective orders the stop cancelled
 * (`shutdown.keepProtectiveOrders` false): they now trade without their stop-loss.
 */
function unprotectedWarning(
  positions: readonly Position[],
  unprotected: readonly ProtectiveAtStop[],
): string | undefined {
  const bare = positions.flatMap((p) => {
    const refs = protectiveOf(p, unprotected);
    return refs.length === 0 ? [] : [`${positionLabel(p)} (cancelled ${refs.join(', ')})`];
  });
  if (bare.length === 0) return undefined;
  return `position${bare.length === 1 ? '' : 's'} left open on the venue without ${bare.length === 1 ? 'its' : 'their'} protective orders, cancelled at stop as shutdown.keepProtectiveOrders is false: ${bare.join(', ')}`;
}

function countOf(n: number, noun: string, refs: readonly string[]): string {
  if (n === 0) return '';
  const shown = refs.slice(0, 5).join(', ') + (n > 5 ? `, and ${n - 5} more` : '');
  return `${n} ${noun}${n === 1 ? '' : 's'} (${shown})`;
}

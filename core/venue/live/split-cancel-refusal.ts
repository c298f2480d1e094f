import { COMMAND_OUTCOME_UNKNOWN, refusesAFinalOrder } from '../../model/index.ts';
import { rejectionCode } from './command-rejection.ts';

/** A part of a split batch cancel that failed: the venue refused it, or it was never sent. */
export interface PartRefusal {
  /** The orders (clientOrderIds) the part cancels. */
  readonly targets: readonly string[];
  readonly error: unknown;
  /** A Keel-local code for a failure without a venue code (see `commandRejection`). */
  readonly keelCode?: number;
}

/** The refusal a command reports: why, and its code. */
export interface OneRefusal {
  readonly error: unknown;
  readonly keelCode?: number;
}

/**
 * The one refusal a batch cancel split in two (the orders the venue knows cancelled at once, the
 * rest held for their acks) reports for its reference once both parts were answered: the kernel
 * takes one answer per command, and a second refusal of the same reference reached no one (neither
 * its strategy, nor a look-up of its orders, nor a sweep's retry). Of two, the one that asks most
 * of the kernel is reported, with the code it would have had alone, naming each part's reason: an
 * outcome unknown (-1: every target looked up), then an order already final (looked up), then any
 * other venue refusal, then not sent (-2).
 * @param parts - the parts that failed, the one sent at once first
 * @returns the refusal to report, undefined when no part failed
 */
export function splitCancelRefusal(parts: readonly PartRefusal[]): OneRefusal | undefined {
  const [first, second] = parts;
  if (first === undefined) return undefined;
  if (second === undefined) return first.keelCode === undefined ? { error: first.error } : first;
  const ranked = parts.map((part) => ({ part, code: rejectionCode(part.error, part.keelCode) }));
  const chosen = ranked.reduce((best, next) => (rank(next.code) < rank(best.code) ? next : best));
  const why = parts.map((part) => `${part.targets.join(', ')}: ${messageOf(part.error)}`).join('; ');
  return { error: new Error(why), keelCode: chosen.code };
}

function rank(code: number): number {
  if (code === COMMAND_OUTCOME_UNKNOWN) return 0;
  if (refusesAFinalOrder(code)) return 1;
  return code > 0 ? 2 : 3;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

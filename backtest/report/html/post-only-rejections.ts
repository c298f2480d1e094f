import type { OrderRecord } from '../result/owned-records.ts';

/**
 * How the simulated venue (and the paper venue embedding it) words its refusal of a post-only
 * (GTX) order that would take liquidity when it arrives.
 */
export const POST_ONLY_TAKE_REASON = 'post-only (GTX) order would take liquidity';

/** How a run's warning counting the orders the venue rejected begins (the runner's `rejectionWarning`). */
export const REJECTION_WARNING_START = 'the venue rejected ';

/** A run's orders placed, those the venue rejected, and those of them that were post-only orders that would have taken. */
export interface PostOnlyRejections {
  readonly placed: number;
  readonly rejected: number;
  readonly postOnly: number;
}

/**
 * Counts a run's rejected orders and, among them, the post-only orders the venue refused because
 * they would have taken liquidity: the venue's normal answer to a post-only order priced through
 * the book (a market maker's quote the market moved onto), not a sign the run is set up wrong.
 * Reads the orders once, keeping counts only.
 * @param orders - the run's orders in their final state
 * @returns the counts
 */
export function postOnlyRejections(orders: Iterable<OrderRecord>): PostOnlyRejections {
  let placed = 0;
  let rejected = 0;
  let postOnly = 0;
  for (const order of orders) {
    placed += 1;
    if (order.orderState !== 'REJECTED') continue;
    rejected += 1;
    if (order.timeInForce === 'GTX' && order.reason?.includes(POST_ONLY_TAKE_REASON) === true) postOnly += 1;
  }
  return { placed, rejected, postOnly };
}

/**
 * The report's note on post-only rejections, kept apart from the setup warnings.
 * @param counts - the run's rejections
 * @returns the sentence, or undefined when no post-only order was so rejected
 */
export function postOnlyRejectionNote(counts: PostOnlyRejections): string | undefined {
  if (counts.postOnly === 0) return undefined;
  const orders = counts.postOnly === 1 ? 'post-only (GTX) order was' : 'post-only (GTX) orders were';
  const among = counts.postOnly < counts.rejected ? ` (of the ${counts.rejected} orders rejected)` : '';
  return `${counts.postOnly} ${orders} rejected${among} because ${counts.postOnly === 1 ? 'it' : 'they'} would have taken liquidity: the venue's normal answer to a post-only order priced through the book, not a setup problem`;
}

/** A run's warnings split: those saying its setup looks wrong, and notes on normal venue behaviour. */
export interface RunWarningsAndNotes {
  readonly warnings: readonly string[];
  readonly notes: readonly string[];
}

/**
 * Splits a run's warnings, for its report and its terminal summary alike: a rejection warning
 * ({@link REJECTION_WARNING_START}) whose every rejected order was a post-only order that would
 * have taken is a note, with {@link postOnlyRejectionNote}; with other rejections among them it
 * stays a warning, and the note counts the post-only ones apart. When every order placed was
 * rejected (nothing could rest or fill: quotes priced through the book as a rule are a setup
 * problem) it stays a warning with no note. Reads the orders only when there is a rejection warning.
 * @param warnings - the run's warnings (`result.meta.warnings`)
 * @param orders - the run's orders in their final state
 * @returns the warnings and the notes, each in the run's order
 */
export function warningsAndNotes(
  warnings: readonly string[],
  orders: Iterable<OrderRecord>,
): RunWarningsAndNotes {
  const isRejection = (w: string): boolean => w.startsWith(REJECTION_WARNING_START);
  if (!warnings.some(isRejection)) return { warnings, notes: [] };
  const counts = postOnlyRejections(orders);
  const note = postOnlyRejectionNote(counts);
  if (note === undefined || counts.rejected === counts.placed) return { warnings, notes: [] };
  const onlyPostOnly = counts.postOnly === counts.rejected;
  return {
    warnings: onlyPostOnly ? warnings.filter((w) => !isRejection(w)) : warnings,
    notes: onlyPostOnly ? [...warnings.filter(isRejection), note] : [note],
  };
}

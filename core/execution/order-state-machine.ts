import type { Order, OrderState } from '../model/index.ts';
import { isFinalOrderState } from '../model/index.ts';

/**
 * Progress rank of a venue state among updates with the same executedQty and updateAt: an
 * order is acknowledged (NEW), rests (OPEN), fills (PARTIALLY_FILLED), ends (final states).
 * In-flight states are Keel's own placeholders and rank below anything the venue says.
 */
const STATE_RANK: Readonly<Record<OrderState, number>> = {
  PENDING_NEW: -1,
  PENDING_CANCEL: -1,
  PENDING_REPLACE: -1,
  NEW: 0,
  OPEN: 1,
  PARTIALLY_FILLED: 2,
  FILLED: 3,
  CANCELLED: 3,
  REJECTED: 3,
  FAIL: 3,
};

/**
 * Whether `update` is newer than `current` for the same order. Fills only ever add to
 * executedQty, so it decides first; then updateAt (amendments change neither qty executed nor
 * state); then the state's progress rank. A final state beats any live one and never changes
 * again, except one Keel synthesized (`synthesized`), which the venue's own update replaces; and
 * the venue's word beats Keel's in-flight placeholders (whose times are local). Of two live updates
 * with the same executedQty, the venue's beats one Keel built (`synthesized`: an acknowledgement
 * stamped with Keel's receipt time, which may be later than the venue's own stamp of the order's
 * next update) whatever their times. Equal on all three means a
 * duplicate, except for an amendment confirmed in the same millisecond as the update before
 * it: an AMEND_COMPLETED update whose price or quantity differs is newer (see
 * {@link isSameMillisecondAmend}).
 * @param current - the order as last known
 * @param update - an incoming update of the same order
 * @returns true when the update should replace `current`
 */
export function isNewerOrderUpdate(current: Order, update: Order): boolean {
  // A final state Keel made up (REJECTED for an order the venue had not booked yet) is not the
  // venue's word: the venue's own later update on that order wins.
  if (isFinalOrderState(current.orderState))
    return current.synthesized === true && update.synthesized !== true;
  if (isFinalOrderState(update.orderState)) return true;
  const currentInFlight = STATE_RANK[current.orderState] < 0;
  const updateInFlight = STATE_RANK[update.orderState] < 0;
  if (currentInFlight !== updateInFlight) return currentInFlight;
  // Most updates carry the very Decimal of the previous one (nothing filled in between), and
  // comparedTo copies its argument before comparing: the same instance is equal for free.
  const executed =
    update.executedQty === current.executedQty ? 0 : update.executedQty.comparedTo(current.executedQty);
  if (executed !== 0) return executed > 0;
  // An acknowledgement Keel built from its intent carries Keel's receipt time, not the venue's:
  // the venue's own update of the same fills ranks above it, whatever its time.
  const builtByKeel = current.synthesized === true;
  if (builtByKeel !== (update.synthesized === true)) return builtByKeel;
  if (update.updateAt !== current.updateAt) return update.updateAt > current.updateAt;
  const rank = STATE_RANK[update.orderState] - STATE_RANK[current.orderState];
  if (rank !== 0) return rank > 0;
  return isSameMillisecondAmend(current, update);
}

/**
 * Whether `update` is an amendment confirmed in the same millisecond as `current`: it carries
 * the same executedQty, updateAt and state, so only its action and its new price or quantity
 * tell it from a duplicate. Only an AMEND_COMPLETED update can win this tie, so a late copy of
 * the update it amended never undoes it, in whichever order the two arrive. Two different
 * amendments in the same millisecond cannot be ordered from their content; the later arrival wins.
 * @param current - the order as last known
 * @param update - an incoming update with the same executedQty, updateAt and state rank
 * @returns true when `update` amends `current`'s price or quantity
 */
function isSameMillisecondAmend(current: Order, update: Order): boolean {
  return (
    update.action === 'AMEND_COMPLETED' &&
    update.updateAt === current.updateAt &&
    (!update.limitPrice.eq(current.limitPrice) || !update.orderQty.eq(current.orderQty))
  );
}

/**
 * Folds one update into an order: final states never change (except one Keel synthesized, which
 * the venue's own update replaces), and stale or duplicate updates
 * are absorbed, so any reordering or duplication of a valid update sequence ends in the same
 * order.
 * @param current - the order as last known, or undefined for a first sighting
 * @param update - the incoming update
 * @returns the order after the update (`current` itself when the update was absorbed)
 */
export function applyOrderUpdate(current: Order | undefined, update: Order): Order {
  if (current === undefined) return update;
  return isNewerOrderUpdate(current, update) ? update : current;
}

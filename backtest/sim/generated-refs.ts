import { algoRefTaken, orderRefTaken } from './final-order-retention.ts';
import type { SimState } from './sim-state.ts';

/** The venue's limit on a clientOrderId / clientAlgoOrderId: 40 characters (per public venue docs). */
const MAX_CLIENT_REF_LENGTH = 40;

/**
 * The first of `preferred`, `fallback()`, `fallback()-2`, `-3`... that is free and fits the limit.
 * The fallback is built from venue ids (short and, among the venue's own references, unique), so it
 * fits; the numbered forms only matter when a user chose that very reference.
 */
function firstFree(preferred: string, fallback: () => string, taken: (ref: string) => boolean): string {
  if (preferred.length <= MAX_CLIENT_REF_LENGTH && !taken(preferred)) return preferred;
  const stem = fallback();
  if (!taken(stem)) return stem;
  for (let n = 2; ; n++) {
    const ref = `${stem}-${n}`;
    if (!taken(ref)) return ref;
  }
}

/**
 * A clientOrderId for an order the venue places itself (a fired algo order's child, a position
 * close, a liquidation order): the readable `preferred` one (e.g. `<algo ref>-trig`) when it fits
 * in 40 characters and no order, live, final or forgotten, holds it; else one built from venue ids.
 * So a generated reference never overwrites a user's order in the venue's lookups, and the user's
 * later order with that reference is refused as a duplicate (406010) instead of taking it over.
 * @param state - the venue
 * @param preferred - the readable reference
 * @param fallback - builds a short reference from venue ids (called only when needed)
 * @returns a reference no order holds
 */
export function freeOrderRef(state: SimState, preferred: string, fallback: () => string): string {
  return firstFree(preferred, fallback, (ref) => orderRefTaken(state, ref));
}

/**
 * A clientAlgoOrderId for an algo order the venue places itself (a tp / sl attachment), under the
 * same rule as {@link freeOrderRef} among algo orders.
 * @param state - the venue
 * @param preferred - the readable reference (e.g. `<parent ref>-tp`)
 * @param fallback - builds a short reference from venue ids (called only when needed)
 * @returns a reference no algo order holds
 */
export function freeAlgoRef(state: SimState, preferred: string, fallback: () => string): string {
  return firstFree(preferred, fallback, (ref) => algoRefTaken(state, ref));
}

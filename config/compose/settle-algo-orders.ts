import type { AlgoOrder } from '../../core/model/index.ts';
import { algoOrderFromWire, type VenueRestClient } from '../../core/venue/index.ts';
import type { OpenAlgoRef } from './session-algo-orders.ts';
import type { UserDataJournal } from './user-data-journal.ts';

/** Algo orders looked up at the end of a session at most (Keel's choice: bounded REST calls at shutdown). */
export const MAX_ALGO_LOOKUPS = 100;

/**
 * Asks the venue, once the session stopped, for the algo orders its record still has open: the
 * venue pushes no algo order updates and a cancel-all (a strategy's, or the cancel at shutdown)
 * names none, so without this they would stay NEW in the result although the venue cancelled
 * them. The venue's answer is folded like any algo order update (an unchanged NEW adds nothing).
 * @param journal - the session's User Data journal
 * @param lookUp - the venue's current view of an algo order by clientAlgoOrderId (by algoOrderId
 *   for one without)
 * @param onError - told of the lookup that failed (by the reference or id asked): the lookups
 *   stop there, the records left as they were
 * @param max - lookups at most (default {@link MAX_ALGO_LOOKUPS})
 * @param signal - ends the lookups when aborted (a stopping session's deadline): an answer that
 *   comes after is not folded
 */
export async function settleOpenAlgoOrders(
  journal: UserDataJournal,
  lookUp: (ref: OpenAlgoRef) => Promise<AlgoOrder>,
  onError: (ref: string, error: unknown) => void,
  max = MAX_ALGO_LOOKUPS,
  signal?: AbortSignal,
): Promise<void> {
  for (const ref of journal.openAlgoRefs().slice(0, max)) {
    if (signal?.aborted) return;
    try {
      const algoOrder = await lookUp(ref);
      if (signal?.aborted) return;
      journal.observe({ kind: 'algoOrder', ts: algoOrder.updateAt, recvTs: algoOrder.updateAt, algoOrder });
    } catch (error) {
      if (signal?.aborted) return;
      // The venue may be unreachable at shutdown: one failure ends the lookups rather than 100 timeouts.
      onError('clientAlgoOrderId' in ref ? ref.clientAlgoOrderId : ref.algoOrderId, error);
      return;
    }
  }
}

/**
 * The venue's current view of an algo order, over REST.
 * @param rest - the session's REST client
 * @returns the lookup {@link settleOpenAlgoOrders} takes
 */
export function restAlgoOrderLookup(
  rest: Pick<VenueRestClient, 'getAlgoOrder'>,
): (ref: OpenAlgoRef) => Promise<AlgoOrder> {
  return async (ref) => algoOrderFromWire(await rest.getAlgoOrder(ref));
}

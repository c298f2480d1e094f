import type { AlgoOrder, CancelAllAlgoOrdersIntent, UserEvent } from '../../model/index.ts';
import { algoOrderFromWire } from '../mapping/user-data-mapping.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import { algoOrderAnswer } from './algo-order-lookup.ts';

/** What a cancel of all algo orders reports to, and reads of the client. */
export interface AlgoCancelAllContext {
  /** Where the algo orders it ended go. */
  readonly emit: (event: UserEvent) => void;
  /** Event time, epoch ms. */
  readonly now: () => number;
  /** Told when a read around the accepted cancel failed. */
  readonly followUpFailed: (what: string, error: unknown) => void;
  /** The algo orders the client reported open. */
  readonly openAlgoOrders: () => readonly AlgoOrder[];
  /** Told once the venue accepted the cancel, before the read-back. */
  readonly accepted?: () => void;
  /**
   * Told of an algo order the read-back showed in a state Keel does not know, which it reports
   * ended (CANCELLED) though the venue may still hold it: for a warning.
   */
  readonly unknownAlgoState?: (algoOrder: AlgoOrder, state: string) => void;
}

/**
 * Cancels all algo orders (of a sym, of a type) and reports each one it ended. The venue's reply
 * names none (the spec shows no payload; the paper venue's is a count), so the kernel kept listing
 * them open, and counting them against the risk gate's open-algo limits, until a reconciliation.
 * The ones it may end are the venue's open algo orders read just before it (they include the tp /
 * sl legs read from the history and any placed by hand, which the client never reported) and the
 * ones the client reported open; once the venue accepted the cancel, each is read back and
 * reported in the state the venue shows (CANCELLED, or TRIGGERED when it fired first; CANCELLED
 * when the venue shows a state Keel does not know, as that is not open: see `algoOrderAnswer`, and
 * told to `unknownAlgoState` for a warning, since the venue may still hold it). A read that
 * fails goes to `followUpFailed` (the cancel stands; a reconciliation ends the ones the client
 * reported open): the list failing leaves only the client's own to read back.
 * @param rest - the REST client
 * @param intent - the cancel, with its optional sym and algoOrderType filters
 * @param ctx - where events go, the clock, the failed-read report and the open algo orders
 * @returns when the venue answered and the reads ended
 * @throws whatever the REST client throws for the cancel itself
 */
export async function cancelAllAlgoOrdersAndReadBack(
  rest: VenueRestClient,
  intent: CancelAllAlgoOrdersIntent,
  ctx: AlgoCancelAllContext,
): Promise<void> {
  const filters = {
    ...(intent.sym === undefined ? {} : { sym: intent.sym }),
    ...(intent.algoOrderType === undefined ? {} : { algoOrderType: intent.algoOrderType }),
  };
  let listed: readonly AlgoOrder[] = [];
  let listFailure: unknown;
  try {
    const wire = await rest.getOpenAlgoOrders(intent.sym === undefined ? {} : { sym: intent.sym });
    listed = wire.map(algoOrderFromWire);
  } catch (error) {
    listFailure = error;
  }
  await rest.cancelAllAlgoOrders(filters);
  ctx.accepted?.();
  const what = 'algo orders it may have ended';
  if (listFailure !== undefined) ctx.followUpFailed(what, listFailure);
  const targets = new Map<string, AlgoOrder>();
  for (const algo of [...ctx.openAlgoOrders(), ...listed]) {
    const matches =
      (intent.sym === undefined || algo.sym === intent.sym) &&
      (intent.algoOrderType === undefined || algo.algoOrderType === intent.algoOrderType);
    if (matches && algo.state === 'NEW') targets.set(algo.algoOrderId || algo.clientAlgoOrderId, algo);
  }
  try {
    for (const target of targets.values()) {
      const ref =
        target.algoOrderId === ''
          ? { clientAlgoOrderId: target.clientAlgoOrderId }
          : { algoOrderId: target.algoOrderId };
      const { algoOrder, unknownState } = algoOrderAnswer(await rest.getAlgoOrder(ref), ctx.now());
      if (unknownState !== undefined) ctx.unknownAlgoState?.(algoOrder, unknownState);
      if (algoOrder.state !== 'NEW')
        ctx.emit({ kind: 'algoOrder', ts: ctx.now(), recvTs: ctx.now(), algoOrder });
    }
  } catch (error) {
    ctx.followUpFailed(what, error);
  }
}

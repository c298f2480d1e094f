import type { Logger } from 'pino';
import { unknownAlgoOrderEnded } from '../../execution/index.ts';
import type { AlgoOrder } from '../../model/index.ts';
import { algoOrderFromWire, isKnownAlgoOrderState } from '../mapping/user-data-mapping.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import type { AlgoOrderRef, AlgoOrderWire } from '../wire/algo.ts';
import { notFoundOrThrow } from './lookup-failure.ts';

/** Venue codes that refuse the query itself (400001 bad parameters): refused again if asked again. */
const QUERY_REFUSED_CODES: ReadonlySet<number> = new Set([400001]);

/**
 * Looks one algo order up (`GET /api/v1/algo/order`, the spec's "Query algo order", which answers
 * for an algo order that fired or was cancelled too): by clientAlgoOrderId, Keel's own reference
 * and the key it holds algo orders by; by algoOrderId only for one without it (placed by hand).
 * @param rest - the REST client
 * @param algoOrder - the algo order as Keel holds it
 * @param logger - where a lookup that failed for good is logged, at error
 * @returns the venue's algo order, or undefined when the venue answers 401018 (not found) or a
 *   state Keel does not know, warned of (the rule of {@link algoOrderAnswer}: the reconciliation
 *   keeps it open while it looks it up again under its lookup policy, then ends it CANCELLED
 *   with a warning, as one the venue does not know)
 * @throws LastingLookupFailure when asking again will not help: the answer cannot be decoded, or
 *   the venue refuses the query itself (400001)
 * @throws the REST client's error for a failure that may pass (no answer, 5xx, 429...)
 */
export async function lookUpAlgoOrder(
  rest: VenueRestClient,
  algoOrder: AlgoOrder,
  logger: Logger,
): Promise<AlgoOrder | undefined> {
  const query: AlgoOrderRef =
    algoOrder.clientAlgoOrderId === '' && algoOrder.algoOrderId !== ''
      ? { algoOrderId: algoOrder.algoOrderId }
      : { clientAlgoOrderId: algoOrder.clientAlgoOrderId };
  try {
    const wire = await rest.getAlgoOrder(query);
    if (isKnownAlgoOrderState(wire.algoOrderState)) return algoOrderFromWire(wire);
    logger.warn(
      { ...query, sym: algoOrder.sym, algoOrderState: wire.algoOrderState },
      'algo order lookup answered a state Keel does not know: taken as not open, like one the venue does not know; looked up again, then ended CANCELLED in Keel, though the venue may still hold it',
    );
    return undefined;
  } catch (error) {
    return notFoundOrThrow(
      error,
      { what: 'algo order', query, sym: algoOrder.sym },
      QUERY_REFUSED_CODES,
      logger,
    );
  }
}

/** An algo order a read after a command answered, as Keel takes it. */
export interface AlgoOrderAnswer {
  /** The venue's algo order; ended CANCELLED when its state is one Keel does not know. */
  readonly algoOrder: AlgoOrder;
  /** The state the venue answered when Keel does not know it (absent otherwise). */
  readonly unknownState?: string;
}

/**
 * Reads an algo order the venue answered a query about after a command (a cancel's read-back, the
 * lookup of a lost reply). Keel's rule for an algo order the venue shows in a state Keel does not
 * know (neither the spec nor the venue notes list the algo order states; NEW, TRIGGERED,
 * CANCELLED and FAILED are Keel's), after a lost reply (here) and in a reconciliation
 * ({@link lookUpAlgoOrder}): it is not taken as open for good (mapped to NEW it stayed open in Keel,
 * holding its strategy's open-algo slot), nor forgotten unsaid, since the venue may still hold
 * it: it is looked up again a bounded number of times (the lost-reply policy's lookups, the
 * reconciliation's lookup policy), and when its state is still unknown, ended CANCELLED in Keel
 * with a warning naming it. Here it is ended CANCELLED at once, its state returned for the caller
 * to look it up again and warn (a cancel-all's read-back, the venue having accepted the cancel,
 * takes the ended algo order as it is).
 * @param wire - the venue's answer
 * @param now - the time the ended state is stamped with, epoch ms
 * @returns the algo order, and the unknown state when there was one
 */
export function algoOrderAnswer(wire: AlgoOrderWire, now: number): AlgoOrderAnswer {
  const algoOrder = algoOrderFromWire(wire);
  if (isKnownAlgoOrderState(wire.algoOrderState)) return { algoOrder };
  return { algoOrder: unknownAlgoOrderEnded(algoOrder, now), unknownState: wire.algoOrderState };
}

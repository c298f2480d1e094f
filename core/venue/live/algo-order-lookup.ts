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
 *   state Keel does not know (the lookups are of algo orders the venue no longer lists open, so
 *   such a state, e.g. an exchange's FINISHED or EXPIRED, is not taken as open: mapped to NEW it
 *   kept the algo order open for good, holding its strategy's open-algo slot; instead it is
 *   looked up again and ended CANCELLED as one the venue does not know)
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
      'algo order lookup answered a state Keel does not know: taken as not open, like one the venue does not know',
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
 * lookup of a lost reply). A state Keel does not know (e.g. an exchange's FINISHED or EXPIRED) is
 * not taken as open, as {@link lookUpAlgoOrder} does not: the venue holds the algo order but it is
 * over, so it is ended CANCELLED, as one the venue does not know is (mapped to NEW it stayed open
 * in Keel, holding its strategy's open-algo slot).
 * @param wire - the venue's answer
 * @param now - the time the ended state is stamped with, epoch ms
 * @returns the algo order, and the unknown state when there was one
 */
export function algoOrderAnswer(wire: AlgoOrderWire, now: number): AlgoOrderAnswer {
  const algoOrder = algoOrderFromWire(wire);
  if (isKnownAlgoOrderState(wire.algoOrderState)) return { algoOrder };
  return { algoOrder: unknownAlgoOrderEnded(algoOrder, now), unknownState: wire.algoOrderState };
}

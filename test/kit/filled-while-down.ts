import type { Order } from '../../core/model/index.ts';
import { approved } from './approved-intents.ts';
import { aLimitOrder } from './intent-builders.ts';
import { liveClientOnScriptedVenue, type ScriptedVenueClient } from './live-client-on-scripted-venue.ts';
import { waitFor } from './venue-wait.ts';
import { WIRE_EXECUTION, WIRE_ORDER, WIRE_POSITION } from './venue-wire-samples.ts';

/** The reference of the order {@link filledWhileDown} places. */
export const FILLED_REF = 'c-f';

/**
 * @param h - the client on its scripted venue
 * @param ref - an order's reference
 * @returns the order states and fills of `ref` the client emitted, in order
 */
export function sequenceOf(h: ScriptedVenueClient, ref: string): string[] {
  return h.events.flatMap((e) =>
    e.kind === 'order' && e.order.clientOrderId === ref
      ? [`order ${e.order.orderState}`]
      : e.kind === 'execution' && e.execution.clientOrderId === ref
        ? [`fill ${e.execution.transactionId}`]
        : [],
  );
}

/**
 * The client places a limit buy of 1 at 100 (`c-f`) and, once it is acknowledged, the venue fills
 * it without a word to the client: its order lookup answers FILLED from then on.
 * @param h - the client on its scripted venue
 * @returns the fill's execution row (wire shape, transactionId `t-f`), for the venue's history
 */
export async function filledUnheard(h: ScriptedVenueClient): Promise<Record<string, unknown>> {
  h.live.submit(approved(aLimitOrder({ ref: FILLED_REF })));
  await waitFor(() => sequenceOf(h, FILLED_REF).length === 1, 'the ack');
  const ack = h.events.find((e) => e.kind === 'order') as { order: Order };
  h.state.ordersByRef.set(FILLED_REF, {
    ...WIRE_ORDER,
    orderId: ack.order.orderId,
    clientOrderId: FILLED_REF,
    orderQty: '1',
    limitPrice: '100',
    orderState: 'FILLED',
    executedQty: '1',
    executedAmount: '100',
    executedAvgPrice: '100',
    updateAt: 1_700_000_000_300,
  });
  return {
    ...WIRE_EXECUTION,
    transactionId: 't-f',
    orderId: ack.order.orderId,
    clientOrderId: FILLED_REF,
    quantity: '1',
    price: '100',
    timestamp: 1_700_000_000_300,
  };
}

/**
 * A live client on a scripted venue places a limit buy of 1 at 100 (`c-f`), which fills while the
 * socket is down: after the reconnect the venue shows it FILLED and the position long 1, and its
 * recent executions list what `executions` makes of the fill's row (transactionId `t-f`).
 * @param executions - the execution history the venue lists, given the fill's row (wire shape)
 * @param opts - `defaultRestRetry`: the REST client's default retry policy
 * @returns the client, its socket dropped
 */
export async function filledWhileDown(
  executions: (fill: Record<string, unknown>) => Record<string, unknown>[],
  opts: { readonly defaultRestRetry?: boolean } = {},
): Promise<ScriptedVenueClient> {
  const h = await liveClientOnScriptedVenue({}, opts);
  const fill = await filledUnheard(h);
  h.ws.dropAll();
  h.state.positions = [{ ...WIRE_POSITION, positionQty: '1', avgPrice: '100', updateAt: 1_700_000_000_300 }];
  h.state.executions = executions(fill);
  return h;
}

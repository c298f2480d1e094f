import {
  type CancelOrderIntent,
  type CancelOrdersIntent,
  type ModifyOrderIntent,
  refusesAFinalOrder,
} from '../../model/index.ts';
import { VenueError } from '../errors.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import {
  cancelOrderRequest,
  cancelOrdersRequest,
  type OrderEntryRequest,
  replaceOrderRequest,
} from '../ws/order-entry.ts';
import type { PrivateWsClient } from '../ws/private-ws-client.ts';
import { NotConnectedError } from '../ws/ws-errors.ts';
import { isOutcomeUnknown } from './outcome-unknown.ts';

/** An intent acting on orders already placed: an amendment or a cancel. */
export type OrderActionIntent = ModifyOrderIntent | CancelOrderIntent | CancelOrdersIntent;

/** What an order action is sent through, and where its refusal goes. */
export interface OrderActionChannels {
  readonly ws: PrivateWsClient;
  readonly rest: VenueRestClient;
  /** Told why the action was refused: its request broke a rule, or the venue refused it. */
  readonly refuse: (error: unknown) => void;
}

/**
 * Sends an amendment or a cancel over the WebSocket, and over REST when the socket is down.
 * @param intent - the amendment or cancel
 * @param channels - the WebSocket and REST clients, and where a refusal goes
 * @returns when the venue answered it or it failed (a refusal reported); never rejects
 */
export function sendOrderAction(intent: OrderActionIntent, channels: OrderActionChannels): Promise<void> {
  const { rest } = channels;
  switch (intent.kind) {
    case 'modifyOrder':
      return send(
        channels,
        () => replaceOrderRequest(intent),
        () => rest.replaceOrder(replaceOrderRequest(intent).args),
      );
    case 'cancelOrder':
      return send(
        channels,
        () => cancelOrderRequest(intent),
        () => rest.cancelOrder({ clientOrderId: intent.target, sym: intent.sym }),
      );
    case 'cancelOrders':
      return send(
        channels,
        () => cancelOrdersRequest(intent),
        () => cancelManyViaRest(rest, intent),
      );
  }
}

/**
 * A batch cancel over REST. A list of orders goes as one cancel per order: what the REST
 * cancel-many (`DELETE /api/v1/trading/cancelAll`) takes besides a sym is not public, and a venue
 * that ignored a list there would cancel every order on the sym or the portfolio, other strategies'
 * and manual ones included. Only a cancel without a list (all orders, on the sym when given) goes
 * to cancel-many.
 * @param rest - the REST client
 * @param intent - the batch cancel
 * @returns when every cancel was answered and all succeeded
 * @throws the venue's refusal when it refused every cancel (an already-final one, 401058 or
 *   401117, first: its orders are looked up); an outcome-unknown error when the cancels ended differently or any
 *   answer was lost, so every target is looked up rather than put back as it was
 */
async function cancelManyViaRest(rest: VenueRestClient, intent: CancelOrdersIntent): Promise<void> {
  if (intent.targets === undefined) {
    await rest.cancelAllOrders(cancelOrdersRequest(intent).args);
    return;
  }
  const sym = intent.sym === undefined ? {} : { sym: intent.sym };
  const targets = intent.targets;
  const answers = await Promise.allSettled(
    targets.map((target) => rest.cancelOrder({ clientOrderId: target, ...sym })),
  );
  const failed = answers.flatMap((answer, i) =>
    answer.status === 'rejected' ? [{ target: targets[i], error: answer.reason as unknown }] : [],
  );
  if (failed.length === 0) return;
  const refusals = failed.flatMap(({ error }) =>
    error instanceof VenueError && !isOutcomeUnknown(error) ? [error] : [],
  );
  if (refusals.length === answers.length)
    throw refusals.find((e) => refusesAFinalOrder(e.code)) ?? refusals[0];
  const why = failed.map(
    ({ target, error }) => `${target}: ${error instanceof Error ? error.message : String(error)}`,
  );
  throw new Error(
    `${answers.length - failed.length} of ${answers.length} cancels over REST succeeded (${why.join('; ')}): the orders are looked up`,
  );
}

function send(
  { ws, refuse }: OrderActionChannels,
  build: () => OrderEntryRequest,
  viaRest: () => Promise<unknown>,
): Promise<void> {
  let request: OrderEntryRequest;
  try {
    request = build();
  } catch (error) {
    refuse(error);
    return Promise.resolve();
  }
  return ws.request(request.action, request.args).then(
    () => undefined,
    (error: unknown) => {
      // Cancels and amendments are safe to send again over REST when the socket is down. One
      // whose REST answer was lost (5xx, connection reset, timeout) may have run: it is reported
      // with COMMAND_OUTCOME_UNKNOWN (see commandRejection), and the kernel looks its orders up.
      if (error instanceof NotConnectedError)
        return viaRest().then(
          () => undefined,
          (restError: unknown) => refuse(restError),
        );
      refuse(error);
    },
  );
}

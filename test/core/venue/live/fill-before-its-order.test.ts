import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, Kernel, virtualScheduler } from '../../../../core/kernel/index.ts';
import type { MarketEvent } from '../../../../core/model/index.ts';
import { RiskGate } from '../../../../core/risk/index.ts';
import { anInstrument } from '../../../kit/instrument-builders.ts';
import { aQuote, BTC } from '../../../kit/kernel-events.ts';
import {
  holdAlgoPlaceReply,
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { ok, WIRE_ALGO_ORDER, WIRE_EXECUTION, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

const T0 = 1_700_000_000_000;

/** Places stop `sl-1` on the first quote when `places`, and logs the order updates and fills it is told of. */
function stopPlacer(log: string[], places: boolean) {
  return defineStrategy({
    name: 'stop-placer',
    params: z.object({}),
    onQuote: (ctx) =>
      places
        ? ctx.order.algo({ sym: BTC, side: 'SELL', qty: 1, triggerPrice: 90, condition: 'LTE', ref: 'sl-1' })
        : undefined,
    onOrder: (ctx, order) => {
      log.push(`${ctx.id} order ${order.orderId} ${order.orderState}`);
    },
    onFill: (ctx, fill) => {
      log.push(`${ctx.id} fill ${fill.orderId} ${fill.quantity.toFixed()}`);
    },
  });
}

const STOP = {
  ...WIRE_ALGO_ORDER,
  algoOrderId: 'a-9',
  clientAlgoOrderId: 'sl-1',
  qty: '1',
  triggerPrice: '90',
  algoOrderState: 'NEW',
  createAt: T0,
};

/** The order stop a-9 sent, FILLED, named by algoOrderId only. */
const FIRED_ORDER = {
  ...WIRE_ORDER,
  orderId: 'o-sl',
  clientOrderId: '',
  side: 'SELL',
  orderType: 'MARKET',
  orderState: 'FILLED',
  orderQty: '1',
  executedQty: '1',
  algoOrderId: 'a-9',
  createAt: T0 + 5,
  updateAt: T0 + 10,
};

/** That order's fill. */
const FIRED_FILL = {
  ...WIRE_EXECUTION,
  transactionId: 't-sl',
  orderId: 'o-sl',
  clientOrderId: '',
  side: 'SELL',
  quantity: '1',
  timestamp: T0 + 10,
};

/** A kernel with strategies alpha (placing stop sl-1) and beta on the live client. */
function aKernel(h: ScriptedVenueClient, log: string[]) {
  const market = new Subject<MarketEvent>();
  const kernel = new Kernel({
    instruments: [anInstrument(BTC)],
    market: market.asObservable(),
    execution: h.live,
    gate: new RiskGate(),
    scheduler: virtualScheduler(T0),
    strategies: [
      { id: 'alpha', strategy: stopPlacer(log, true) },
      { id: 'beta', strategy: stopPlacer(log, false) },
    ],
  });
  void kernel.start();
  market.next(aQuote(T0, 100));
  return kernel;
}

const placed = (h: ScriptedVenueClient) =>
  waitFor(
    () => h.http.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/algo/order').length === 1,
    'the POST',
  );

const seen = (h: ScriptedVenueClient, what: (kind: string) => boolean, label: string) =>
  waitFor(() => h.events.some((e) => what(e.kind)), label);

/**
 * End to end, a kernel on the live client on a scripted venue: the venue pushes a fill before its
 * own order's first update (the Trades and Orders channels are not ordered with each other), for
 * an order Keel did not place (the order a stop sent, named by algoOrderId only). The fill found
 * no owner and no order waiting for an algo order, so it was neither held nor delivered: the
 * strategy heard of the order but never of its fill.
 */
describe('timing: a fill that arrives before its order’s first update', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('reaches the stop’s strategy after the order update that names its owner, in arrival order', async () => {
    h = await liveClientOnScriptedVenue();
    h.state.extra = (request) =>
      request.method === 'POST' && request.path === '/api/v1/algo/order' ? { body: ok(STOP) } : undefined;
    const log: string[] = [];
    const kernel = aKernel(h, log);
    await placed(h);
    await waitFor(() => kernel.state.orders.algoByRef.get('sl-1')?.algoOrderId === 'a-9', 'the stop’s reply');
    h.ws.push({ channel: 'Trades', ts: T0 + 10, data: [FIRED_FILL] });
    await seen(h, (kind) => kind === 'execution', 'the fill');
    expect(log).toEqual([]);
    h.ws.push({ channel: 'Orders', ts: T0 + 10, data: [FIRED_ORDER] });
    await waitFor(() => log.length === 2, 'the deliveries');
    expect(log).toEqual(['alpha fill o-sl 1', 'alpha order o-sl FILLED']);
  });

  it('waits with its order for the stop’s place reply when both came before it', async () => {
    h = await liveClientOnScriptedVenue();
    const release = holdAlgoPlaceReply(h, STOP);
    const log: string[] = [];
    const kernel = aKernel(h, log);
    await placed(h);
    h.ws.push({ channel: 'Trades', ts: T0 + 10, data: [FIRED_FILL] });
    h.ws.push({ channel: 'Orders', ts: T0 + 10, data: [FIRED_ORDER] });
    await seen(h, (kind) => kind === 'order', 'the pushes');
    expect(log).toEqual([]);
    release();
    await waitFor(() => kernel.state.orders.algoByRef.get('sl-1')?.state === 'TRIGGERED', 'the stop’s end');
    expect(log).toEqual(['alpha fill o-sl 1', 'alpha order o-sl FILLED']);
  });
});

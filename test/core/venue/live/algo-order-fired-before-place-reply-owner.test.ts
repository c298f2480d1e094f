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
import { WIRE_ALGO_ORDER, WIRE_EXECUTION, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

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

/**
 * End to end, a kernel on the live client on a scripted venue: a strategy's stop is placed with
 * its trigger already met, and the venue pushes the order it sent (naming it only by algoOrderId,
 * with no reference) and that order's fill before the REST place reply {NEW} reaches Keel. The
 * strategy must hear of both, its stop must end, and no other strategy may hear of them.
 */
describe('timing: a strategy hears of the order its stop sent before the stop’s place reply', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('delivers the order and its fill to the stop’s strategy once the reply arrives, and ends the stop', async () => {
    h = await liveClientOnScriptedVenue();
    const release = holdAlgoPlaceReply(h, {
      ...WIRE_ALGO_ORDER,
      algoOrderId: 'a-9',
      clientAlgoOrderId: 'sl-1',
      qty: '1',
      triggerPrice: '90',
      algoOrderState: 'NEW',
      createAt: T0,
    });
    const log: string[] = [];
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
    await waitFor(
      () =>
        h.http.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/algo/order').length === 1,
      'the POST',
    );
    h.ws.push({
      channel: 'Orders',
      ts: T0 + 10,
      data: [
        {
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
        },
      ],
    });
    h.ws.push({
      channel: 'Trades',
      ts: T0 + 10,
      data: [
        {
          ...WIRE_EXECUTION,
          transactionId: 't-sl',
          orderId: 'o-sl',
          clientOrderId: '',
          side: 'SELL',
          quantity: '1',
          timestamp: T0 + 10,
        },
      ],
    });
    await waitFor(
      () => h.events.some((e) => e.kind === 'execution' && e.execution.transactionId === 't-sl'),
      'the pushes',
    );
    expect(log).toEqual([]);
    release();
    await waitFor(() => kernel.state.orders.algoByRef.get('sl-1')?.state === 'TRIGGERED', 'the stop’s end');
    expect(log).toEqual(['alpha order o-sl FILLED', 'alpha fill o-sl 1']);
    expect(kernel.state.ownerOf('\u0000o-sl')).toBe('alpha');
    expect(kernel.state.orders.openAlgo.size).toBe(0);
  });
});

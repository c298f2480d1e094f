import { Subject } from 'rxjs';
import { z } from 'zod';
import { defineStrategy, Kernel, virtualScheduler } from '../../core/kernel/index.ts';
import type { MarketEvent } from '../../core/model/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import { anInstrument } from './instrument-builders.ts';
import { aQuote, BTC } from './kernel-events.ts';
import type { ScriptedVenueClient } from './live-client-on-scripted-venue.ts';
import { waitFor } from './venue-wait.ts';
import { WIRE_ALGO_ORDER, WIRE_EXECUTION, WIRE_ORDER } from './venue-wire-samples.ts';

/** The venue time the fired-stop scenarios start at. */
export const FIRED_STOP_T0 = 1_700_000_000_000;
const T0 = FIRED_STOP_T0;

/** Stop `sl-1` (algo order a-9, SELL 1 at or below 90) as the venue answers its place: NEW. */
export const FIRED_STOP = {
  ...WIRE_ALGO_ORDER,
  algoOrderId: 'a-9',
  clientAlgoOrderId: 'sl-1',
  qty: '1',
  triggerPrice: '90',
  algoOrderState: 'NEW',
  createAt: T0,
};

/** The order stop a-9 sent, FILLED, named by algoOrderId only (no reference). */
export const FIRED_ORDER = {
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
export const FIRED_FILL = {
  ...WIRE_EXECUTION,
  transactionId: 't-sl',
  orderId: 'o-sl',
  clientOrderId: '',
  side: 'SELL',
  quantity: '1',
  timestamp: T0 + 10,
};

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
 * A started kernel on the live client of a scripted venue, with strategies alpha (placing stop
 * `sl-1` on the first quote) and beta (placing nothing), both logging what they are told; the
 * first quote is sent.
 * @param h - the live client on its scripted venue
 * @param log - where the strategies write `<id> order <orderId> <state>` and `<id> fill <orderId> <qty>`
 * @returns the kernel
 */
export function firedStopKernel(h: ScriptedVenueClient, log: string[]): Kernel {
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

/**
 * Waits until the stop's place request reached the scripted venue.
 * @param h - the live client on its scripted venue
 */
export function stopPlaceSent(h: ScriptedVenueClient): Promise<void> {
  return waitFor(
    () => h.http.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/algo/order').length === 1,
    'the POST',
  );
}

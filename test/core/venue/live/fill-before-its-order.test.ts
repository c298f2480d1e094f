import { afterEach, describe, expect, it } from 'vitest';
import {
  FIRED_FILL,
  FIRED_ORDER,
  FIRED_STOP,
  firedStopKernel,
  stopPlaceSent,
  FIRED_STOP_T0 as T0,
} from '../../../kit/fired-stop-rig.ts';
import {
  holdAlgoPlaceReply,
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { ok } from '../../../kit/venue-wire-samples.ts';

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
      request.method === 'POST' && request.path === '/api/v1/algo/order'
        ? { body: ok(FIRED_STOP) }
        : undefined;
    const log: string[] = [];
    const kernel = firedStopKernel(h, log);
    await stopPlaceSent(h);
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
    const release = holdAlgoPlaceReply(h, FIRED_STOP);
    const log: string[] = [];
    const kernel = firedStopKernel(h, log);
    await stopPlaceSent(h);
    h.ws.push({ channel: 'Trades', ts: T0 + 10, data: [FIRED_FILL] });
    h.ws.push({ channel: 'Orders', ts: T0 + 10, data: [FIRED_ORDER] });
    await seen(h, (kind) => kind === 'order', 'the pushes');
    expect(log).toEqual([]);
    release();
    await waitFor(() => kernel.state.orders.algoByRef.get('sl-1')?.state === 'TRIGGERED', 'the stop’s end');
    expect(log).toEqual(['alpha fill o-sl 1', 'alpha order o-sl FILLED']);
  });
});

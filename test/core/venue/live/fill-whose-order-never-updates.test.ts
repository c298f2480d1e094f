import { afterEach, describe, expect, it } from 'vitest';
import {
  FIRED_FILL,
  FIRED_ORDER,
  FIRED_STOP,
  firedStopKernel,
  stopPlaceSent,
} from '../../../kit/fired-stop-rig.ts';
import {
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { ok } from '../../../kit/venue-wire-samples.ts';

const ORDER_LOOKUP = '/api/v1/trading/order';
const lookups = (h: ScriptedVenueClient) =>
  h.http.requests.filter((r) => r.method === 'GET' && r.path === ORDER_LOOKUP && r.query.orderId === 'o-sl');

/**
 * End to end, a kernel on the live client on a scripted venue: the venue pushes the fill of the
 * order a stop sent (named by algoOrderId only) and never that order's update (a push lost). The
 * kernel holds the fill for the update that names its owner, which never comes: without a
 * lookup the stop's strategy never hears of its fill.
 */
describe('timing: a fill whose order never updates', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  async function firedWithoutUpdate(orderLookup: () => object): Promise<string[]> {
    h = await liveClientOnScriptedVenue();
    h.state.extra = (request) => {
      if (request.method === 'POST' && request.path === '/api/v1/algo/order') return { body: ok(FIRED_STOP) };
      if (request.method === 'GET' && request.path === ORDER_LOOKUP && request.query.orderId === 'o-sl')
        return { body: orderLookup() };
      return undefined;
    };
    const log: string[] = [];
    const kernel = firedStopKernel(h, log);
    await stopPlaceSent(h);
    await waitFor(() => kernel.state.orders.algoByRef.get('sl-1')?.algoOrderId === 'a-9', 'the stop’s reply');
    h.ws.push({ channel: 'Trades', ts: FIRED_STOP.createAt + 10, data: [FIRED_FILL] });
    await waitFor(() => h.events.some((e) => e.kind === 'execution'), 'the fill');
    return log;
  }

  it('looks the order up after a while and delivers the fill to the owner it names', async () => {
    const log = await firedWithoutUpdate(() => ok(FIRED_ORDER));
    expect(log).toEqual([]);
    await advanceUntil(h.timer, () => log.length === 2, 'the fill delivered', 250, 80);
    expect(log).toEqual(['alpha fill o-sl 1', 'alpha order o-sl FILLED']);
    expect(lookups(h)).toHaveLength(1);
  });

  it('warns, naming the fill, when the venue cannot say whose order it was', async () => {
    await firedWithoutUpdate(() => ({ code: 401018, message: 'order not found' }));
    await advanceUntil(h.timer, () => h.live.reconciliationWarnings.length > 0, 'the warning', 250, 400);
    expect(h.live.reconciliationWarnings).toEqual([
      expect.stringMatching(/fill t-sl of order o-sl .*no strategy was told of it/),
    ]);
    expect(lookups(h).length).toBeGreaterThanOrEqual(3);
  });

  it('tells no strategy of that fill when its order’s update comes much later after all, as the warning says', async () => {
    const log = await firedWithoutUpdate(() => ({ code: 401018, message: 'order not found' }));
    await advanceUntil(h.timer, () => h.live.reconciliationWarnings.length > 0, 'the warning', 250, 400);
    const late = FIRED_STOP.createAt + 60_000;
    h.ws.push({ channel: 'Orders', ts: late, data: [{ ...FIRED_ORDER, updateAt: late }] });
    await waitFor(() => log.length > 0, 'the order update');
    expect(log).toEqual(['alpha order o-sl FILLED']);
  });

  it('does not look up an order whose update came after its fill', async () => {
    const log = await firedWithoutUpdate(() => ok(FIRED_ORDER));
    h.ws.push({ channel: 'Orders', ts: FIRED_STOP.createAt + 10, data: [FIRED_ORDER] });
    await waitFor(() => log.length === 2, 'the deliveries');
    await h.timer.advance(60_000);
    expect(lookups(h)).toEqual([]);
  });
});

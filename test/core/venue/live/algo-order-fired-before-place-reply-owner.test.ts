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
    const release = holdAlgoPlaceReply(h, FIRED_STOP);
    const log: string[] = [];
    const kernel = firedStopKernel(h, log);
    await stopPlaceSent(h);
    h.ws.push({ channel: 'Orders', ts: T0 + 10, data: [FIRED_ORDER] });
    h.ws.push({ channel: 'Trades', ts: T0 + 10, data: [FIRED_FILL] });
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

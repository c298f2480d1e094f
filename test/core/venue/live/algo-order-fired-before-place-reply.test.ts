import { afterEach, describe, expect, it } from 'vitest';
import type { AlgoOrder } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { FIRED_FILL, FIRED_ORDER, FIRED_STOP, FIRED_STOP_T0 } from '../../../kit/fired-stop-rig.ts';
import { aSellStop } from '../../../kit/intent-builders.ts';
import {
  holdAlgoPlaceReply,
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';

/**
 * A stop is placed over REST (POST /api/v1/algo/order) with its trigger already met: the venue
 * fires it at once, and the order it sends (naming algoOrderId) and its fill are pushed on the
 * private socket BEFORE the REST reply {algoOrderState: NEW} reaches Keel (the socket is the
 * faster path). A correct client ends with the algo order TRIGGERED (the order naming it arrived),
 * not NEW (held as open by the risk gate's open-algo count and shown live to the strategy).
 */
describe('timing: algo order fires before its place reply arrives', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('reports it TRIGGERED right after its NEW place reply when the order it sent was pushed first', async () => {
    h = await liveClientOnScriptedVenue();
    const algoEvents = (): AlgoOrder[] =>
      h.events.flatMap((e) =>
        e.kind === 'algoOrder' && e.algoOrder.clientAlgoOrderId === 'sl-1' ? [e.algoOrder] : [],
      );
    const placed = FIRED_STOP;
    const release = holdAlgoPlaceReply(h, placed);

    h.live.submit(approved(aSellStop({ ref: 'sl-1' })));
    await waitFor(
      () => h.http.requests.some((r) => r.method === 'POST' && r.path === '/api/v1/algo/order'),
      'the POST',
    );
    // The venue fires it at once: the order it sent, filled, and the fill are pushed first.
    h.ws.push({ channel: 'Orders', ts: FIRED_STOP_T0 + 10, data: [FIRED_ORDER] });
    h.ws.push({ channel: 'Trades', ts: FIRED_STOP_T0 + 10, data: [FIRED_FILL] });
    await waitFor(
      () => h.events.some((e) => e.kind === 'execution' && e.execution.transactionId === 't-sl'),
      'the pushes',
    );
    release();
    await waitFor(() => algoEvents().length >= 2, 'the place reply and the end it shows');
    expect(algoEvents().map((a) => [a.state, a.orderId])).toEqual([
      ['NEW', undefined],
      ['TRIGGERED', 'o-sl'],
    ]);

    // The next reconnect finds it neither listed open nor in need of a lookup: Keel holds it ended.
    h.state.algoByRef.set('sl-1', { ...placed, algoOrderState: 'TRIGGERED', orderId: 'o-sl' });
    h.ws.dropAll();
    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    await waitFor(() => h.events.filter((e) => e.kind === 'account').length >= 2, 'the reconciliation');
    expect(algoEvents().map((a) => a.state)).toEqual(['NEW', 'TRIGGERED']);
    expect(h.http.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/algo/order')).toEqual([]);
  });
});

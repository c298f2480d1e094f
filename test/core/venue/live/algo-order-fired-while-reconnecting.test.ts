import { afterEach, describe, expect, it } from 'vitest';
import {
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import {
  WIRE_ALGO_ORDER,
  WIRE_EXECUTION,
  WIRE_ORDER,
  WIRE_POSITION,
} from '../../../kit/venue-wire-samples.ts';

/**
 * An algo order (a stop) triggers while the private socket is reconnecting: the order it sent
 * fills at once, so the reconnect's snapshot lists neither the algo order nor its order open. The
 * venue answers GET /api/v1/algo/order (spec line 164, "Query algo order") with TRIGGERED.
 * A correct client ends with the algo order TRIGGERED (or at least not CANCELLED: nobody cancelled it).
 */
describe('timing: algo order fires while the client reconnects', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('looks the algo order up and reports it TRIGGERED, as the venue says, not CANCELLED', async () => {
    h = await liveClientOnScriptedVenue({
      openAlgoOrders: [WIRE_ALGO_ORDER],
      positions: [{ ...WIRE_POSITION, positionQty: '0.004', updateAt: 1_700_000_000_050 }],
    });
    const algoEvents = () => h.events.flatMap((e) => (e.kind === 'algoOrder' ? [e.algoOrder] : []));
    await waitFor(() => algoEvents().length === 1, 'algo order adopted at start');
    expect(algoEvents()[0]).toMatchObject({ clientAlgoOrderId: 'ca-1', state: 'NEW' });

    // The socket drops; meanwhile the stop fires and its market order fills (no push reaches Keel).
    h.ws.dropAll();
    const child = {
      ...WIRE_ORDER,
      orderId: 'o-child',
      clientOrderId: 'child-1',
      side: 'SELL',
      orderType: 'MARKET',
      orderState: 'FILLED',
      executedQty: '0.004',
      algoOrderId: 'a-1',
      createAt: 1_700_000_000_500,
      updateAt: 1_700_000_000_600,
    };
    h.state.ordersByRef.set('child-1', child);
    h.state.openAlgoOrders = [];
    h.state.algoByRef.set('ca-1', { ...WIRE_ALGO_ORDER, algoOrderState: 'TRIGGERED', orderId: 'o-child' });
    h.state.executions = [
      {
        ...WIRE_EXECUTION,
        transactionId: 't-child',
        orderId: 'o-child',
        clientOrderId: 'child-1',
        side: 'SELL',
        timestamp: 1_700_000_000_600,
      },
    ];
    h.state.positions = [];

    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    await waitFor(() => h.events.some((e) => e.kind === 'execution'), 'the fill caught up');
    await waitFor(() => algoEvents().length >= 2, 'algo order corrected');
    // Nobody cancelled it: it fired, and the fill of the order it sent was just reported.
    expect(algoEvents().at(-1)).toMatchObject({
      clientAlgoOrderId: 'ca-1',
      state: 'TRIGGERED',
      orderId: 'o-child',
    });
    const algoLookups = h.http.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/algo/order');
    expect(algoLookups.map((r) => r.query.clientAlgoOrderId)).toEqual(['ca-1']);
  });

  it('keeps an algo order the venue neither lists nor knows open for the lookup policy, then ends it CANCELLED', async () => {
    h = await liveClientOnScriptedVenue({ openAlgoOrders: [WIRE_ALGO_ORDER] });
    const algoEvents = () => h.events.flatMap((e) => (e.kind === 'algoOrder' ? [e.algoOrder] : []));
    await waitFor(() => algoEvents().length === 1, 'algo order adopted at start');
    h.ws.dropAll();
    h.state.openAlgoOrders = [];
    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    await waitFor(() => h.events.filter((e) => e.kind === 'account').length === 2, 'the reconciliation');
    expect(algoEvents().map((a) => a.state)).toEqual(['NEW']);
    await advanceUntil(h.timer, () => algoEvents().length === 2, 'the verdict', 1_000, 60);
    expect(algoEvents().at(-1)).toMatchObject({ clientAlgoOrderId: 'ca-1', state: 'CANCELLED' });
    const algoLookups = h.http.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/algo/order');
    expect(algoLookups.length).toBeGreaterThanOrEqual(3);
  });
});

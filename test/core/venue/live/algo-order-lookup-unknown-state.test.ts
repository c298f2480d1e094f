import { afterEach, describe, expect, it } from 'vitest';
import {
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { WIRE_ALGO_ORDER } from '../../../kit/venue-wire-samples.ts';

/**
 * Neither the spec nor the venue notes list the algo order states (NEW, TRIGGERED, CANCELLED,
 * FAILED are Keel's). An algo order the venue stopped listing open is looked up, and the venue
 * answers a state Keel does not know (an exchange's FINISHED). Mapped to NEW, it stayed open for
 * good (every reconciliation looked it up again and kept it), holding the strategy's open-algo
 * slot; it must end as one the venue does not know.
 */
describe('an algo order lookup answering a state Keel does not know', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('does not keep an algo order the venue no longer lists open: it ends CANCELLED after the lookup policy', async () => {
    h = await liveClientOnScriptedVenue({ openAlgoOrders: [WIRE_ALGO_ORDER] });
    const algoEvents = () => h.events.flatMap((e) => (e.kind === 'algoOrder' ? [e.algoOrder] : []));
    await waitFor(() => algoEvents().length === 1, 'algo order adopted at start');
    h.ws.dropAll();
    h.state.openAlgoOrders = [];
    h.state.algoByRef.set('ca-1', { ...WIRE_ALGO_ORDER, algoOrderState: 'FINISHED' });
    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    await waitFor(() => h.events.filter((e) => e.kind === 'account').length === 2, 'the reconciliation');
    await advanceUntil(h.timer, () => algoEvents().length === 2, 'the verdict', 1_000, 60);
    expect(algoEvents().map((a) => a.state)).toEqual(['NEW', 'CANCELLED']);
  });
});

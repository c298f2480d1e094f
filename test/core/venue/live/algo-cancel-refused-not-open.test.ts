import { afterEach, describe, expect, it } from 'vitest';
import type { UserEvent } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import {
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { WIRE_ALGO_ORDER } from '../../../kit/venue-wire-samples.ts';

let h: ScriptedVenueClient | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const statesOf = (events: readonly UserEvent[]) =>
  events.flatMap((e) =>
    e.kind === 'algoOrder' && e.algoOrder.clientAlgoOrderId === 'ca-1' ? [e.algoOrder.state] : [],
  );

/**
 * An algo order Keel holds open (ca-1, adopted NEW at start) whose cancel the venue refuses as
 * already final or not found: Keel's view is stale (it fired, or was cancelled, unseen: the venue
 * pushes no algo order updates), so it must be looked up, not left open for the strategy to cancel
 * again and again.
 */
describe('a cancel of an open algo order the venue refuses as not open', () => {
  it.each([
    [401058, 'already final'],
    [401018, 'not found'],
  ])('looks the algo order up on %i (%s) and reports what the venue says of it', async (code, message) => {
    h = await liveClientOnScriptedVenue({ openAlgoOrders: [WIRE_ALGO_ORDER] });
    const c = h;
    expect(statesOf(c.events)).toEqual(['NEW']);
    c.state.openAlgoOrders = [];
    c.state.algoByRef.set('ca-1', { ...WIRE_ALGO_ORDER, algoOrderState: 'CANCELLED' });
    c.state.extra = (request) =>
      request.method === 'DELETE' && request.path === '/api/v1/algo/order'
        ? { body: { code, message } }
        : undefined;
    c.live.submit(
      approved({ kind: 'cancelAlgoOrder', ref: 'cx-1', target: 'ca-1', sym: 'BINANCE_PERP_BTC_USDT' }),
    );
    await waitFor(() => c.events.some((e) => e.kind === 'commandRejected'), 'the refusal');
    await advanceUntil(c.timer, () => statesOf(c.events).length === 2, 'the lookup’s answer', 100, 40);
    expect(statesOf(c.events)).toEqual(['NEW', 'CANCELLED']);
  });
});

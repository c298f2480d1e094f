import { afterEach, describe, expect, it } from 'vitest';
import type { LiquidationPositionEvent } from '../../../../core/model/index.ts';
import { type LiveClientOnFakeVenue, liveClientOnFakeVenue } from '../../../kit/live-client-on-fake-venue.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { WIRE_ACCOUNT, WIRE_LIQ_POSITION } from '../../../kit/venue-wire-samples.ts';

let rig: LiveClientOnFakeVenue | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

// The spec: LiquidationPositionByUser is "delivered on the main account's connection so one
// connection covers every sub-portfolio under it".
describe("liquidation orders of a sub-portfolio on the main account's connection", () => {
  it("are not passed on as the account's own; the account's own still are, from either channel", async () => {
    const live = await liveClientOnFakeVenue();
    rig = live;
    expect(WIRE_ACCOUNT.portfolioId).toBe(WIRE_LIQ_POSITION.portfolioId);
    live.ws.push({
      channel: 'LiquidationPositionByUser',
      data: [{ ...WIRE_LIQ_POSITION, portfolioId: 'sub-7', orderId: 'lo-sub', liquidationEventId: 'L-sub' }],
    });
    live.ws.push({
      channel: 'LiquidationPositionByUser',
      data: [{ ...WIRE_LIQ_POSITION, orderId: 'lo-own-1' }],
    });
    live.ws.push({ channel: 'LiquidationPosition', data: [{ ...WIRE_LIQ_POSITION, orderId: 'lo-own-2' }] });
    await waitFor(() => live.privateWs.counters.pushes >= 3, 'the three pushes');
    const orders = live.events
      .filter((e): e is LiquidationPositionEvent => e.kind === 'liquidationPosition')
      .map((e) => [e.byUser, e.record.portfolioId, e.record.orderId]);
    expect(orders).toEqual([
      [true, 'p-1', 'lo-own-1'],
      [false, 'p-1', 'lo-own-2'],
    ]);
  });
});

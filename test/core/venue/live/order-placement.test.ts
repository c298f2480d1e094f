import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../../backtest/paper-venue/index.ts';
import { OrderRegistry } from '../../../../core/kernel/order-registry.ts';
import { aRigBuy, eventually, type LivePaperRig, liveOnPaper } from '../../../kit/live-paper-rig.ts';
import { aPaperVenue, withFirstQuotes } from '../../../kit/paper-venue-builders.ts';

let venue: PaperVenue | undefined;
let rig: LivePaperRig | undefined;

afterEach(async () => {
  await rig?.live.stop();
  await rig?.rest.close();
  rig = undefined;
  await venue?.close();
  venue = undefined;
});

describe('order placement: an order still on its way to the venue', () => {
  it('stays pending while the venue does not know it yet, and is reported OPEN once booked, never REJECTED', async () => {
    // Order entry takes 100 ms of venue time, and venue time only moves when the feed is stepped:
    // the ack (300 ms) times out and the first lookups find nothing.
    const v = await withFirstQuotes(
      await aPaperVenue({
        latency: { orderEntry: { fixedMs: 100, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
      }),
    );
    venue = v;
    const r = await liveOnPaper(v);
    rig = r;
    await eventually(() => r.events.some((e) => e.kind === 'account'), 'first reconciliation');
    r.live.submit(aRigBuy('late-1', '95.0'));
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    v.feed.step(1);
    await v.feed.until(3);
    const states = () =>
      r.events.flatMap((e) => (e.kind === 'order' && e.order.clientOrderId === 'late-1' ? [e.order] : []));
    await eventually(() => states().some((o) => o.orderState === 'OPEN'), 'the order OPEN', 10_000);
    expect(states().map((o) => o.orderState)).not.toContain('REJECTED');
    const registry = new OrderRegistry();
    for (const order of states()) registry.applyVenue(order);
    expect(registry.byRef.get('late-1')?.orderState).toBe('OPEN');
  });
});

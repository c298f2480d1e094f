import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../../backtest/paper-venue/index.ts';
import { D } from '../../../../core/model/index.ts';
import type { ApprovedIntent } from '../../../../core/risk/index.ts';
import { eventually, type LivePaperRig, liveOnPaper, RIG_BTC } from '../../../kit/live-paper-rig.ts';
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

/** A post-only buy far above the market: the venue refuses it, as it would take. */
const crossingPostOnlyBuy = (ref: string): ApprovedIntent =>
  ({
    strategyId: 's1',
    intent: {
      kind: 'placeOrder',
      ref,
      sym: RIG_BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      qty: D(1),
      price: D('150'),
      timeInForce: 'GTX',
      reduceOnly: false,
      positionSide: 'NONE',
    },
  }) as ApprovedIntent;

describe('order placement: the venue answers a place after its reply timed out', () => {
  it("ends the order with the venue's own refusal and code, not Keel's verdict after the lookups", async () => {
    // Order entry takes 100 ms of venue time, and venue time only moves when the feed is stepped:
    // the reply (300 ms) times out, the lookups find nothing, then the venue refuses the order.
    const v = await withFirstQuotes(
      await aPaperVenue({
        latency: { orderEntry: { fixedMs: 100, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
      }),
    );
    venue = v;
    const r = await liveOnPaper(v);
    rig = r;
    await eventually(() => r.events.some((e) => e.kind === 'account'), 'first reconciliation');
    r.live.submit(crossingPostOnlyBuy('late-po'));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const orders = () =>
      r.events.flatMap((e) => (e.kind === 'order' && e.order.clientOrderId === 'late-po' ? [e.order] : []));
    expect(orders().map((o) => o.orderState)).not.toContain('REJECTED');
    v.feed.step(1);
    await v.feed.until(3);
    await eventually(() => orders().some((o) => o.orderState === 'REJECTED'), 'the order REJECTED', 3_000);
    const rejected = orders().find((o) => o.orderState === 'REJECTED');
    expect(rejected?.synthesized).toBeUndefined();
    expect(rejected?.reason).toMatch(/^400001 /);
  });
});

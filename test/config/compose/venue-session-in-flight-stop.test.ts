import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/exit-codes.ts';
import { type LiveSessionRig, liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const REST_AND_TAKE = resolve('test/config/fixtures/rest-and-take-plugin.ts');
// In real time, the venue takes 6 s to book an order: longer than the client's 5 s wait for its ack.
const newRig = liveSessionRigs({
  pacing: { mode: 'realtime', speed: 1 },
  latency: { orderEntry: { fixedMs: 6_000, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
});

/** The result's warnings about the stop (the venue's statements reject a span this short). */
const stopWarnings = (warnings: readonly string[] | undefined) =>
  (warnings ?? []).filter((warning) => !warning.includes('statement could not be fetched'));

/** A session that rests one buy far below the market on its first quote and stops 1.5 s in. */
function restingBuySession(rig: LiveSessionRig, shutdown: string) {
  return rig.run({
    strategies: `  - { id: rest, use: ${JSON.stringify(REST_AND_TAKE)}, params: { sym: ${SESSION_SYM} } }`,
    durationSec: 1.5,
    extra: `shutdown: ${shutdown}\n`,
  });
}

/** The clientOrderIds of the open orders the rig's venue lists. */
async function openRefs(rig: LiveSessionRig): Promise<string[]> {
  const open = await rig.rest('GET', '/api/v1/trading/orders', {});
  return (open.body.data as { clientOrderId: string }[]).map((order) => order.clientOrderId);
}

describe('a session stopped while an order is on its way to the venue', () => {
  it('waits for the order and cancels it (cancelAllOrders true): nothing is left open', async () => {
    const rig = await newRig();
    const outcome = await restingBuySession(rig, '{ cancelAllOrders: true, timeoutMs: 20000 }');
    expect(stopWarnings(outcome.result.meta.warnings)).toEqual([]);
    expect(outcome.exitCode).toBe(EXIT.OK);
    expect([...outcome.result.orders].map((o) => o.orderState)).toEqual(['CANCELLED']);
    // The venue's own latency applies to the cancel too: what it lists once that has passed.
    await new Promise((r) => setTimeout(r, 7_000));
    expect(await openRefs(rig)).toEqual([]);
  }, 60_000);

  it('notes the order once the venue booked it (cancelAllOrders false)', async () => {
    const rig = await newRig();
    const outcome = await restingBuySession(rig, '{ cancelAllOrders: false, timeoutMs: 20000 }');
    const [order] = [...outcome.result.orders];
    expect(order?.orderState).toBe('OPEN');
    expect(outcome.notes).toContain(
      `left open on the venue (shutdown.cancelAllOrders is false): 1 order (${order?.clientOrderId})`,
    );
    expect(outcome.exitCode).toBe(EXIT.OK);
  }, 60_000);

  it('names the order whose fate is still unknown at shutdown.timeoutMs and exits 4', async () => {
    const rig = await newRig();
    const outcome = await restingBuySession(rig, '{ cancelAllOrders: true, timeoutMs: 1000 }');
    const warnings = stopWarnings(outcome.result.meta.warnings);
    expect(warnings, JSON.stringify(warnings)).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^1 command sent before the stop has no answer from the venue: rest-\S+ \(placeOrder\) \(fate unknown: looked up until \S+, shutdown.timeoutMs 1000 ms;/,
    );
    expect(outcome.exitCode).toBe(EXIT.ORDERS_LEFT_OPEN);
  }, 60_000);
});

import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const newRig = liveSessionRigs();

describe('a live session against the venue', () => {
  it('uses fresh clientOrderIds after a restart, so the venue does not refuse them as duplicates', async () => {
    const rig = await newRig();
    const session = {
      strategies: `  - { id: buy, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.01 } }`,
      durationSec: 1.5,
    };
    const first = await rig.run(session);
    const second = await rig.run(session);
    const refsOf = (outcome: typeof first) => [...outcome.result.orders].map((o) => o.clientOrderId);
    expect([...second.result.orders].map((o) => `${o.orderState} ${o.reason ?? ''}`.trim())).toEqual([
      'FILLED',
    ]);
    expect(refsOf(first)).toHaveLength(1);
    expect(refsOf(first)[0]).toMatch(/^buy-[0-9a-z]{8}-1$/);
    expect(refsOf(second)[0]).not.toBe(refsOf(first)[0]);
  }, 30_000);
});

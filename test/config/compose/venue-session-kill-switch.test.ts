import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSessionSummary } from '../../../config/compose/session-summary.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const newRig = liveSessionRigs();

describe('a session whose kill switch trips', () => {
  it('names the trip in its result warnings and its summary, as a backtest of its recording does', async () => {
    const rig = await newRig();
    // The buy's fee alone is a loss above the limit: its fill trips the switch.
    const outcome = await rig.run({
      strategies: `  - { id: s, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.01 } }`,
      durationSec: 2,
      extra: 'risk:\n  killSwitch: { dailyLossLimit: 0.0001 }\n',
    });
    expect([...outcome.result.fills]).toHaveLength(1);
    const trips = (outcome.result.meta.warnings ?? []).filter((w) => w.includes('kill switch'));
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatch(
      /^the kill switch tripped to HALTED at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC \(daily loss [\d.]+ reached the limit 0\.0001 .*\); after it only cancels passed \(and the orders of reduce-only trailing stops placed before it\); its sweep cancelled 0 order\(s\) and algo order\(s\) that do not protect an open position; it kept no protective order$/,
    );
    expect(formatSessionSummary(outcome, true)).toContain(`  ⚠ ${trips[0]}\n`);
  }, 30_000);
});

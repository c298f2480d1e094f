import { describe, expect, it } from 'vitest';
import type { DenialRecord } from '../../../backtest/report/index.ts';
import { EndOfRunCloseOutcomes } from '../../../backtest/runner/end-of-run-close-outcomes.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

function denial(intentKind: string, ref: string): DenialRecord {
  return {
    ts: 1,
    strategyId: 'keel',
    intentKind,
    ref,
    sym: BTC,
    source: 'risk',
    check: 'submitRate',
    reason: 'too fast',
  };
}

describe('EndOfRunCloseOutcomes', () => {
  it("keeps the denial of a sym's last closing command", () => {
    const outcomes = new EndOfRunCloseOutcomes();
    outcomes.denied(denial('cancelOrders', 'bt-end0-cancel'));
    outcomes.denied(denial('closePosition', 'bt-end0-close'));
    outcomes.denied(denial('closePosition', 'bt-end1-close'));
    expect([...outcomes.refusals().values()].map((d) => d.ref)).toEqual(['bt-end1-close']);
  });

  it('forgets it once a later round sent the closing order', () => {
    const outcomes = new EndOfRunCloseOutcomes();
    outcomes.denied(denial('closePosition', 'bt-end0-close'));
    outcomes.sent(BTC);
    expect(outcomes.refusals().size).toBe(0);
  });
});

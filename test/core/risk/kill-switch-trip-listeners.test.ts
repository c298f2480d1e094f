import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';

describe('the kill switch trip listeners of a risk gate', () => {
  it('stops telling a listener once it is removed, and tells the others on', () => {
    const gate = new RiskGate({ killSwitch: { dailyLossLimit: '500' } });
    const told: string[] = [];
    const removeFirst = gate.onKillSwitchTrip(() => told.push('first'));
    gate.onKillSwitchTrip(() => told.push('second'));
    removeFirst();
    removeFirst();
    gate.observeEquity(1, D('10000'));
    gate.observeEquity(2, D('9500'));
    expect(told).toEqual(['second']);
  });
});

import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { RiskGate, type TradingStatus } from '../../../core/risk/index.ts';

const DAY = 86_400_000;

/** A gate with a daily loss limit of 500 that tripped on day 1: its saved state. */
function trippedDayOne() {
  const gate = new RiskGate({ killSwitch: { dailyLossLimit: '500' } });
  const trips: string[] = [];
  gate.onKillSwitchTrip((trip, equity) => trips.push(`${trip.state} at ${equity.toFixed()}`));
  gate.observeEquity(DAY + 1, D('10000'));
  gate.observeEquity(DAY + 2, D('9500'));
  gate.observeEquity(DAY + 3, D('9400'));
  return { gate, trips, saved: gate.killSwitchState() };
}

describe('kill switch across a restart', () => {
  it('tells each trip once, with the equity that tripped it', () => {
    const { trips, saved } = trippedDayOne();
    expect(trips).toEqual(['HALTED at 9500']);
    expect(saved.marks?.startOfDay.toFixed()).toBe('10000');
    expect(saved.trip?.state).toBe('HALTED');
  });

  it('keeps the day’s start-of-day equity: a restarted run does not get a fresh loss budget', () => {
    const gate = new RiskGate({ killSwitch: { dailyLossLimit: '500' } });
    gate.restoreKillSwitch({ marks: { day: 1, startOfDay: D('10000'), highWater: D('10000') } }, DAY + 10);
    expect(gate.observeEquity(DAY + 11, D('9600')).state).toBe('ACTIVE');
    expect(gate.observeEquity(DAY + 12, D('9500')).state).toBe('HALTED');
  });

  it('keeps a trip of the same UTC day, and lets a later day start afresh', () => {
    const { saved } = trippedDayOne();
    const sameDay = new RiskGate({ killSwitch: { dailyLossLimit: '500' } });
    sameDay.restoreKillSwitch(saved, DAY + 100);
    expect(sameDay.status().state).toBe('HALTED');
    const decision = sameDay.evaluate(
      {
        strategyId: 's',
        intent: { kind: 'borrow', ref: 'b', exchange: 'BINANCE', coin: 'USDT', amount: D(1) },
      },
      { now: () => DAY + 101, equity: () => D('9400') } as never,
    );
    expect(decision.kind === 'denied' ? decision.check : decision.kind).toBe('tradingState');
    const nextDay = new RiskGate({ killSwitch: { dailyLossLimit: '500' } });
    nextDay.restoreKillSwitch(saved, 2 * DAY + 100);
    expect(nextDay.status().state).toBe('ACTIVE');
    expect(nextDay.observeEquity(2 * DAY + 101, D('9400')).state).toBe('ACTIVE');
  });

  it('forgets the trip on a portfolio resume, so the next run does not restore it', () => {
    const { gate } = trippedDayOne();
    gate.resume();
    expect(gate.killSwitchState().trip).toBeUndefined();
    const restored: TradingStatus[] = [];
    gate.onKillSwitchTrip((trip) => restored.push(trip));
    gate.observeEquity(DAY + 20, D('9400'));
    gate.observeEquity(DAY + 21, D('8900'));
    expect(restored.map((t) => t.state)).toEqual(['HALTED']);
  });
});

import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { KillSwitch } from '../../../core/risk/index.ts';

const DAY = 86_400_000;

describe('kill switch', () => {
  it('trips on the daily loss from the first equity of the UTC day', () => {
    const ks = new KillSwitch({ dailyLossLimit: D('500'), tripTo: 'HALTED' });
    expect(ks.observe(DAY + 1, D('10000'))).toBeUndefined();
    expect(ks.observe(DAY + 2, D('9600'))).toBeUndefined();
    expect(ks.observe(DAY + 3, D('9500'))).toMatch(/daily loss 500 reached the limit 500/);
  });

  it('starts a new day at the first observation after UTC midnight', () => {
    const ks = new KillSwitch({ dailyLossLimit: D('500'), tripTo: 'HALTED' });
    ks.observe(DAY + 1, D('10000'));
    ks.observe(2 * DAY - 1, D('9600'));
    expect(ks.observe(2 * DAY, D('9550'))).toBeUndefined();
    expect(ks.observe(2 * DAY + 5, D('9050'))).toMatch(/daily loss 500/);
  });

  it('trips on drawdown from the high-water mark, across days', () => {
    const ks = new KillSwitch({ maxDrawdown: 0.1, tripTo: 'HALTED' });
    ks.observe(0, D('10000'));
    ks.observe(DAY, D('12000'));
    expect(ks.observe(2 * DAY, D('10801'))).toBeUndefined();
    expect(ks.observe(3 * DAY, D('10800'))).toMatch(/drawdown 10 % from the high-water mark 12000/);
  });

  it('does not divide by a high-water mark of zero: no drawdown is measured from it', () => {
    const ks = new KillSwitch({ maxDrawdown: 0.1, tripTo: 'HALTED' });
    expect(ks.observe(0, D('0'))).toBeUndefined();
    expect(ks.observe(1, D('-50'))).toBeUndefined();
  });

  it('names the amounts of a trip to 8 decimals, an equity carrying a quotient’s 40-digit tail included', () => {
    const daily = new KillSwitch({ dailyLossLimit: D('30'), tripTo: 'HALTED' });
    daily.observe(DAY, D('100000.000000000000000000000000000000001'));
    expect(daily.observe(DAY + 1, D('99969.91551460000000000000000000000000002'))).toBe(
      'kill switch: daily loss 30.0844854 reached the limit 30 (equity 99969.9155146, start of UTC day 100000)',
    );
    const drawdown = new KillSwitch({ maxDrawdown: 0.1, tripTo: 'HALTED' });
    drawdown.observe(0, D('12000.123456789333333333333333333333333'));
    expect(drawdown.observe(1, D('10000'))).toBe(
      'kill switch: drawdown 16.67 % from the high-water mark 12000.12345679 reached the limit 10 %',
    );
  });

  it('names a limit whose percentage is not exact in binary (0.07 as 7 %, not 7.000000000000001 %)', () => {
    const ks = new KillSwitch({ maxDrawdown: 0.07, tripTo: 'HALTED' });
    expect(ks.observe(0, D('10000'))).toBeUndefined();
    expect(ks.observe(1, D('9300'))).toBe(
      'kill switch: drawdown 7 % from the high-water mark 10000 reached the limit 7 %',
    );
  });

  it('shows a breached drawdown to the limit’s decimals, never below the limit (0.0012 % is not "0 %")', () => {
    const ks = new KillSwitch({ maxDrawdown: 0.00001, tripTo: 'HALTED' });
    ks.observe(0, D('100000'));
    expect(ks.observe(1, D('99998.8'))).toBe(
      'kill switch: drawdown 0.001 % from the high-water mark 100000 reached the limit 0.001 %',
    );
  });

  it('is disarmed with no limits', () => {
    expect(new KillSwitch({ tripTo: 'HALTED' }).armed).toBe(false);
  });
});

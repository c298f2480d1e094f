import { describe, expect, it } from 'vitest';
import { unbilledInterestWarning } from '../../../backtest/runner/unbilled-interest.ts';
import { D } from '../../../core/model/index.ts';

describe('the warning for loans open at the end of a backtest', () => {
  it('names the uncharged interest of the hour under way per coin, and says nothing without any', () => {
    expect(unbilledInterestWarning([])).toBeUndefined();
    const text = unbilledInterestWarning([
      { coin: 'USDT', amount: D('0.1') },
      { coin: 'BTC', amount: D('0.00000002') },
      { coin: 'USDT', amount: D('0.2') },
    ]);
    expect(text).toContain('(0.3 USDT, 0.00000002 BTC)');
    expect(text).toMatch(/^loans were still open at the end: .+ a run that repays before the end pays it$/);
  });
});

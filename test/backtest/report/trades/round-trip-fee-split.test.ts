import { describe, expect, it } from 'vitest';
import { roundTripsFromFills } from '../../../../backtest/report/trades/round-trips-from-fills.ts';
import { ZERO } from '../../../../core/model/index.ts';
import { anExecution } from '../../../kit/execution-builders.ts';

describe('round trips of one entry closed by three exits', () => {
  // BUY 3 @100 (fee 1), then three SELL 1 @101 orders (fee 1.5 each): fills' fees 5.5.
  const fills = [
    anExecution({ side: 'BUY', quantity: '3', price: '100', fee: '1', timestamp: 1, orderId: 'in' }),
    anExecution({ side: 'SELL', quantity: '1', price: '101', fee: '1.5', timestamp: 2, orderId: 'out1' }),
    anExecution({ side: 'SELL', quantity: '1', price: '101', fee: '1.5', timestamp: 3, orderId: 'out2' }),
    anExecution({ side: 'SELL', quantity: '1', price: '101', fee: '1.5', timestamp: 4, orderId: 'out3' }),
  ];
  it("have fees that add up to the fills' fees exactly, each a share of the entry fee that is rounded, not a 40-digit division", () => {
    const { closed } = roundTripsFromFills(fills);
    const fees = closed.reduce((s, t) => s.plus(t.fees), ZERO);
    const pnl = closed.reduce((s, t) => s.plus(t.pnl), ZERO);
    expect(fees.toFixed()).toBe('5.5');
    expect(pnl.toFixed()).toBe('-2.5'); // 3 x (101 - 100) - 5.5
  });
});

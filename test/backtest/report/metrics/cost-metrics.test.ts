import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CostTally } from '../../../../backtest/report/index.ts';
import { D, type Dec } from '../../../../core/model/index.ts';
import { anExecution } from '../../../kit/execution-builders.ts';

/** Exact text and sign, so that a zero's sign counts too. */
const exactly = (value: Dec): string => `${value.isNegative() ? '-' : '+'}${value.toFixed()}`;

const amount = (max: number) =>
  fc
    .tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max: 12 }))
    .map(([digits, scale]) => D(digits).div(D(10).pow(scale)).toFixed());

describe('cost tally', () => {
  afterEach(() => vi.restoreAllMocks());

  it('adds a fill without rebate at contract size 1 with no subtraction and no absolute value', () => {
    const tally = new CostTally((sym) => (sym === 'BINANCE_PERP_BTC_USDT' ? D(1) : undefined));
    tally.add(anExecution({ side: 'BUY', quantity: '2', price: '100', fee: '0.2', timestamp: 0 }));
    const minus = vi.spyOn(D.prototype, 'minus');
    const abs = vi.spyOn(D.prototype, 'abs');
    tally.add(anExecution({ side: 'SELL', quantity: '2', price: '110', fee: '0.22', timestamp: 1 }));
    expect([minus.mock.calls.length, abs.mock.calls.length]).toEqual([0, 0]);
    vi.restoreAllMocks();
    const stats = tally.stats(1000);
    expect([stats.feesPaid.toFixed(), stats.turnover.toFixed()]).toEqual(['0.42', '420']);
  });

  it('sums exactly Σ (fee - rebate) and Σ |price x quantity x contract size|, zeros and negative prices included', () => {
    const fill = fc.record({
      quantity: amount(10_000),
      price: fc.tuple(amount(1_000_000), fc.boolean()).map(([p, neg]) => (neg && p !== '0' ? `-${p}` : p)),
      fee: fc.oneof(fc.constant('0'), amount(1_000)),
      rebate: fc.oneof(fc.constant('0'), amount(100)),
      size: fc.constantFrom(undefined, '1', '0.01', '100'),
    });
    fc.assert(
      fc.property(fc.array(fill, { maxLength: 8 }), (fills) => {
        const executions = fills.map((f, i) =>
          anExecution({
            side: 'BUY',
            quantity: f.quantity,
            price: f.price,
            fee: f.fee,
            rebate: f.rebate,
            sym: `S${i}`,
            timestamp: i,
          }),
        );
        const sizeOf = (sym: string) => {
          const size = fills[Number(sym.slice(1))]?.size;
          return size === undefined ? undefined : D(size);
        };
        const tally = new CostTally(sizeOf);
        let fees = D(0);
        let traded = D(0);
        for (const execution of executions) {
          tally.add(execution);
          fees = fees.plus(execution.fee).minus(execution.rebate);
          traded = traded.plus(
            execution.price
              .mul(execution.quantity)
              .mul(sizeOf(execution.sym) ?? 1)
              .abs(),
          );
        }
        const stats = tally.stats(null);
        expect([exactly(stats.feesPaid), exactly(stats.turnover)]).toEqual([exactly(fees), exactly(traded)]);
      }),
      { numRuns: 300 },
    );
  });
});

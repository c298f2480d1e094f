import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PortfolioView } from '../../../backtest/paper-venue/account-view.ts';
import { firstAccountDifference } from '../../../backtest/paper-venue/replayed-account-check.ts';
import { WIRE_EXECUTION, WIRE_ORDER, WIRE_POSITION } from '../../kit/venue-wire-samples.ts';

const ORDER = {
  ...WIRE_ORDER,
  orderId: 'o-1',
  portfolioId: 'MAIN',
  orderState: 'FILLED',
  executedQty: '0.010',
};
const EXECUTION = { ...WIRE_EXECUTION, transactionId: 't-1', orderId: 'o-1', portfolioId: 'MAIN' };
const POSITION = { ...WIRE_POSITION, portfolioId: 'MAIN' };

function aView(over: Partial<PortfolioView> = {}): PortfolioView {
  return {
    portfolioId: 'MAIN',
    main: true,
    positionMode: 'NET',
    orders: [ORDER],
    executions: [EXECUTION],
    positions: [POSITION],
    loans: [{ exchange: 'BINANCE', coin: 'USDT', principal: '500', interest: '0.01' }],
    assets: [{ coin: 'USDT', balance: '99990.5' }],
    startingBalances: { USDT: '100000' },
    ...over,
  } as PortfolioView;
}

/** The view as the snapshot file holds it: written as JSON and read back. */
const saved = (view: PortfolioView) => JSON.parse(JSON.stringify([view])) as unknown;

describe('the check of a replayed account against the view saved at close', () => {
  it('finds no difference in the same account, read back from the file', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 999 })), {
          maxLength: 20,
        }),
        (orders) => {
          const view = aView({
            orders: orders.map(([qty, price], i) => ({
              ...ORDER,
              orderId: `o-${i}`,
              clientOrderId: `c-${i}`,
              orderQty: `${qty / 1000}`,
              limitPrice: `${price}.5`,
            })) as unknown as PortfolioView['orders'],
          });
          expect(firstAccountDifference(saved(view), [view])).toBeUndefined();
        },
      ),
    );
  });

  it('compares amounts as numbers, and leaves out what marks move', () => {
    const written = aView({
      orders: [{ ...ORDER, orderQty: '0.0100' }] as unknown as PortfolioView['orders'],
      positions: [
        { ...POSITION, unrealizedPNL: '12', markPrice: '61000', liqPrice: '1' },
      ] as PortfolioView['positions'],
    });
    expect(firstAccountDifference(saved(written), [aView()])).toBeUndefined();
  });

  it('names an acknowledged field the replay changed', () => {
    const replayed = aView({
      orders: [{ ...ORDER, orderState: 'CANCELLED' }] as unknown as PortfolioView['orders'],
    });
    expect(firstAccountDifference(saved(aView()), [replayed])).toBe(
      'portfolio MAIN: order o-1 (clientOrderId c-1): orderState FILLED when saved, CANCELLED in the replay',
    );
  });

  it('names a record the saved venue held and the replay has not, and one the replay made', () => {
    expect(firstAccountDifference(saved(aView()), [aView({ executions: [] })])).toBe(
      'portfolio MAIN: execution t-1 of order o-1, held when saved, is not in the replay: BUY 0.004 BINANCE_PERP_BTC_USDT at 60000.5',
    );
    expect(firstAccountDifference(saved(aView({ positions: [] })), [aView()])).toBe(
      'portfolio MAIN: the replay made the BINANCE_PERP_BTC_USDT position, which the saved venue did not hold: 0.004 at 60000.5',
    );
  });

  it('compares what the journal moved a balance by, not the starting balances configured', () => {
    const restartedRicher = aView({
      assets: [
        { coin: 'USDT', balance: '199990.5' },
        { coin: 'USD', balance: '5000' },
      ] as PortfolioView['assets'],
      startingBalances: { USDT: '200000', USD: '5000' },
    });
    expect(firstAccountDifference(saved(aView()), [restartedRicher])).toBeUndefined();
    const chargedMore = aView({ assets: [{ coin: 'USDT', balance: '99990.4' }] as PortfolioView['assets'] });
    expect(firstAccountDifference(saved(aView()), [chargedMore])).toBe(
      'portfolio MAIN: the USDT balance: change -9.5 when saved, -9.6 in the replay',
    );
  });

  it('leaves out what an older view does not list, and portfolios the venue runs without', () => {
    const { assets: _assets, startingBalances: _starting, ...older } = aView({ portfolioId: 'MAIN' });
    const olderView = JSON.parse(JSON.stringify([older, { ...older, portfolioId: 'GONE', orders: [] }]));
    expect(firstAccountDifference(olderView, [aView({ assets: [] })])).toBeUndefined();
    expect(firstAccountDifference(null, [aView()])).toBeUndefined();
  });
});

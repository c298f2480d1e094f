import { describe, expect, it } from 'vitest';
import { PortfolioBook } from '../../../backtest/paper-venue/portfolio-book.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aMarket, aQuote, BTC } from '../../kit/sim-builders.ts';

/** A portfolio keeping `retain` of each history, on a BTC quote 100 / 100.1 with a fee markup. */
function aBook(retain: number): PortfolioBook {
  const book = new PortfolioBook(
    {
      portfolioId: 'p1',
      apiKey: 'k',
      apiSecret: 's',
      startingBalances: { USDT: D(1_000_000) },
      feeMarkup: D('0.0001'),
    },
    { instruments: [anInstrument(BTC)], fillModel: 'touch', seed: 1, retainHistory: retain },
    true,
  );
  book.onMarket(aQuote(1_000, 100, 1_000, 100.1, 1_000));
  return book;
}

describe('paper venue history retention', () => {
  it('keeps at least the last orders, executions and closed positions, at most twice as many, and every open order', () => {
    const book = aBook(50);
    book.run(aLimit('resting', 'BUY', '1', '90'));
    for (let i = 1; i <= 500; i++) book.run(aMarket(`m${i}`, i % 2 === 1 ? 'BUY' : 'SELL', '1'));

    expect(book.executions.length).toBeGreaterThanOrEqual(50);
    expect(book.executions.length).toBeLessThan(100);
    expect(book.executions.at(-1)?.clientOrderId).toBe('m500');
    expect(book.executions.map((e) => e.clientOrderId)).not.toContain('m1');
    expect(book.markupCharged.size).toBe(book.executions.length);
    expect(book.positionHistory.length).toBeGreaterThanOrEqual(50);
    expect(book.positionHistory.length).toBeLessThan(100);
    // 500 final orders, and the open one.
    expect(book.orders.size).toBeLessThan(101);
    expect(book.orderIdByRef.size).toBe(book.orders.size);
    expect(book.lastExecutions.size).toBeLessThanOrEqual(book.orders.size);
    expect(book.findOrder(undefined, 'resting')?.orderState).toBe('OPEN');
    expect(book.findOrder(undefined, 'm500')?.orderState).toBe('FILLED');
    expect(book.findOrder(undefined, 'm451')?.orderState).toBe('FILLED');
    expect(book.findOrder(undefined, 'm1')).toBeUndefined();
  });
});

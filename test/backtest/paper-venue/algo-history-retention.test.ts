import { describe, expect, it } from 'vitest';
import { PortfolioBook } from '../../../backtest/paper-venue/portfolio-book.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { anAlgo, aQuote, BTC } from '../../kit/sim-builders.ts';

/** A portfolio keeping 50 of each history, on a BTC quote 100 / 100.1. */
function aBook(): PortfolioBook {
  const book = new PortfolioBook(
    { portfolioId: 'p1', apiKey: 'k', apiSecret: 's', startingBalances: { USDT: D(1_000_000) } },
    { instruments: [anInstrument(BTC)], fillModel: 'touch', seed: 1, retainHistory: 50 },
    true,
  );
  book.onMarket(aQuote(1_000, 100, 1_000, 100.1, 1_000));
  return book;
}

describe('paper venue history retention of algo orders', () => {
  it('keeps every open algo order and at most twice the retained count of final ones', () => {
    const book = aBook();
    // A strategy that places a stop and cancels it on every trade, 500 times.
    for (let i = 1; i <= 500; i++) {
      book.run(anAlgo(`a${i}`));
      book.run({ kind: 'cancelAlgoOrder', ref: `c${i}`, target: `a${i}`, sym: BTC });
    }
    const open = [...book.algos.values()].filter((a) => a.state === 'NEW').length;
    expect({ open, kept: book.algos.size }).toEqual({ open: 0, kept: expect.any(Number) });
    // As orders, executions and closed positions (history-retention.test.ts): fewer than 2 x 50.
    expect(book.algos.size).toBeLessThan(100);
  });

  it('finds the open and the recent algo orders by reference, and no longer the forgotten ones', () => {
    const book = aBook();
    book.run(anAlgo('kept-open'));
    for (let i = 1; i <= 500; i++) {
      book.run(anAlgo(`a${i}`));
      book.run({ kind: 'cancelAlgoOrder', ref: `c${i}`, target: `a${i}`, sym: BTC });
    }
    expect(book.algos.size).toBeLessThan(101);
    expect(book.algoIdByRef.size).toBe(book.algos.size);
    expect([...book.openAlgoIds].map((id) => book.algos.get(id)?.clientAlgoOrderId)).toEqual(['kept-open']);
    const openOne = book.findAlgo(undefined, 'kept-open');
    expect(openOne?.state).toBe('NEW');
    expect(book.findAlgo(openOne?.algoOrderId)).toBe(openOne);
    expect(book.findAlgo(undefined, 'a500')?.state).toBe('CANCELLED');
    expect(book.findAlgo(undefined, 'a451')?.state).toBe('CANCELLED');
    expect(book.findAlgo(undefined, 'a1')).toBeUndefined();
  });

  it('keeps the last loan orders, whose ids count on past the forgotten ones', () => {
    const book = aBook();
    for (let i = 1; i <= 500; i++)
      book.addLoanOrder((loanOrderId) => ({ loanOrderId, type: 'BORROW', coin: 'USDT', amount: '1' }));
    expect(book.loanOrders.length).toBeGreaterThanOrEqual(50);
    expect(book.loanOrders.length).toBeLessThan(100);
    expect(book.loanOrders.at(-1)?.loanOrderId).toBe('p1-L-500');
    expect(new Set(book.loanOrders.map((o) => o.loanOrderId)).size).toBe(book.loanOrders.length);
  });
});

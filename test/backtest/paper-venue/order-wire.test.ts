import { describe, expect, it } from 'vitest';
import { accountViewOf } from '../../../backtest/paper-venue/account-view.ts';
import { paperOrderToWire } from '../../../backtest/paper-venue/order-wire.ts';
import { PortfolioBook } from '../../../backtest/paper-venue/portfolio-book.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aBook, aMarket, BTC } from '../../kit/sim-builders.ts';

/**
 * A portfolio that bought 3 BTC with one market order sweeping 1 @ 100 and 2 @ 100.1, an average
 * of 100.0666... (a quotient without end), then sold them all.
 */
function sweptAndClosed(): PortfolioBook {
  const book = new PortfolioBook(
    { portfolioId: 'p1', apiKey: 'k', apiSecret: 's', startingBalances: { USDT: D(1_000_000) } },
    { instruments: [anInstrument(BTC)], fillModel: 'touch', seed: 1 },
    true,
  );
  book.onMarket(
    aBook(
      1_000,
      [[99.9, 10]],
      [
        [100, 1],
        [100.1, 10],
      ],
    ),
  );
  book.run(aMarket('sweep', 'BUY', '3'));
  return book;
}

const WIRE_DECIMAL = /^\d+(\.\d{1,8})?$/;

describe('paper venue: average prices the wire writes', () => {
  it("writes an order's executedAvgPrice of 1 @ 100 + 2 @ 100.1 to 8 decimals, not the sim's 40-digit quotient", () => {
    const book = sweptAndClosed();
    const order = book.findOrder(undefined, 'sweep');
    if (order === undefined) throw new Error('no order');
    expect(order.executedAvgPrice.toFixed().length).toBeGreaterThan(30);
    expect(paperOrderToWire(book, order).executedAvgPrice).toBe('100.06666667');
  });

  it("writes the position's avgPrice and a closed position's openAvgPrice the same way", () => {
    const book = sweptAndClosed();
    const [position] = [...book.positions.values()];
    expect(position?.avgPrice.toFixed().length).toBeGreaterThan(30);
    book.run(aMarket('close', 'SELL', '3'));
    expect(book.positionHistory.at(-1)?.openAvgPrice).toMatch(WIRE_DECIMAL);
    expect(book.positionHistory.at(-1)?.openAvgPrice).toBe('100.06666667');
  });

  it('keeps them exact in the account view the data dir saves, which the replay check compares', async () => {
    const book = sweptAndClosed();
    const [view] = await accountViewOf(new Map([['p1', book]]));
    const exact = book.findOrder(undefined, 'sweep')?.executedAvgPrice.toFixed();
    expect(view?.orders[0]?.executedAvgPrice).toBe(exact);
    expect(view?.positions[0]?.avgPrice).toBe(exact);
  });
});

import { describe, expect, it } from 'vitest';
import { PortfolioBook } from '../../../backtest/paper-venue/portfolio-book.ts';
import { type BarEvent, D, type Intent, type UserEvent } from '../../../core/model/index.ts';
import { aDailyBar } from '../../kit/daily-bars.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aSim } from '../../kit/sim-builders.ts';

// A DAY order's expiry inside its sym's daily bar waits for that bar on the paper venue as in a
// backtest, whichever sym's bar of the same close reaches the venue first.
const AAPL = 'US_EQUITY_AAPL';
const MSFT = 'US_EQUITY_MSFT';
const EQUITY = { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' } as const;
const INSTRUMENTS = [anInstrument(AAPL, EQUITY), anInstrument(MSFT, EQUITY)];

interface Driver {
  place(intent: Intent): void;
  bar(bar: BarEvent): void;
  readonly events: UserEvent[];
}

function backtestDriver(): Driver {
  const t = aSim({ fillModel: 'bar', instruments: INSTRUMENTS, startingBalances: { USD: D('100000') } });
  return { place: (intent) => t.send(intent), bar: (bar) => t.sim.onMarket(bar), events: t.events };
}

function paperDriver(): Driver {
  const book = new PortfolioBook(
    { portfolioId: 'p1', apiKey: 'k', apiSecret: 's', startingBalances: { USD: D('100000') } },
    { instruments: INSTRUMENTS, fillModel: 'bar', seed: 7 },
    true,
  );
  const events: UserEvent[] = [];
  book.listen((event) => events.push(event));
  return { place: (intent) => book.run(intent), bar: (bar) => book.onMarket(bar), events };
}

/** Tuesday's bars, a DAY limit on MSFT at 189.5, then Wednesday's bars (MSFT low 189), `first` first. */
function updatesOf(driver: Driver, first: string): string[] {
  for (const sym of [AAPL, MSFT])
    driver.bar(aDailyBar(sym, '2026-03-03T05:00:00Z', '2026-03-04T05:00:00Z', [190.5, 193, 188, 192]));
  driver.place(aLimit('day', 'BUY', '10', '189.5', { sym: MSFT, timeInForce: 'DAY' }));
  const wednesday = first === AAPL ? [AAPL, MSFT] : [MSFT, AAPL];
  for (const sym of wednesday)
    driver.bar(aDailyBar(sym, '2026-03-04T05:00:00Z', '2026-03-05T05:00:00Z', [190.5, 193, 189, 192]));
  return driver.events.flatMap((e) =>
    e.kind === 'order' ? [`${e.order.clientOrderId} ${e.order.orderState} ${e.order.action}`] : [],
  );
}

describe('a DAY order inside its daily bar, another sym in the session, backtest against paper venue', () => {
  it.each([AAPL, MSFT])('fills on its own bar on both, %s bar first', (first) => {
    const expected = ['day NEW PLACE', 'day OPEN PLACE', 'day FILLED FILL'];
    expect(updatesOf(backtestDriver(), first)).toEqual(expected);
    expect(updatesOf(paperDriver(), first)).toEqual(expected);
  });
});

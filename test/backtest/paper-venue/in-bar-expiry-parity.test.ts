import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PortfolioBook } from '../../../backtest/paper-venue/portfolio-book.ts';
import { type BarEvent, D, type Intent, type UserEvent } from '../../../core/model/index.ts';
import { aDailyBar } from '../../kit/daily-bars.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aSim } from '../../kit/sim-builders.ts';

const AAPL = 'US_EQUITY_AAPL';
const at = (iso: string): number => Date.parse(iso);
const aapl = anInstrument(AAPL, {
  tickSize: D('0.01'),
  lotSize: D('1'),
  minSize: D('1'),
  settleAsset: 'USD',
});

/** Tuesday's daily bar (New York zone), received at Wednesday 00:00 New York. */
const TUESDAY = aDailyBar(AAPL, '2026-03-03T05:00:00Z', '2026-03-04T05:00:00Z', [190, 192, 188, 191]);
/** Where Wednesday's bar opens: the backtest runner holds the venue's timers back to it. */
const WEDNESDAY_OPEN = at('2026-03-04T05:00:00Z');
/** Wednesday 17:00 New York: a strategy timer (a lockstep tick) inside Wednesday's bar, after the DAY close. */
const AFTER_CLOSE = at('2026-03-04T22:00:00Z');

/** One way of driving the venue: as the backtest runner drives its sim, or as the paper venue drives a portfolio's. */
interface Driver {
  place(intent: Intent): void;
  moveTo(ts: number): void;
  bar(bar: BarEvent): void;
  readonly events: UserEvent[];
}

function backtestDriver(): Driver {
  const t = aSim({ fillModel: 'bar', instruments: [aapl], startingBalances: { USD: D('100000') } });
  return {
    place: (intent) => t.send(intent),
    // strategy-delivery.ts: the venue's timers fire only up to the open of the bar it has yet to match.
    moveTo: (ts) => t.sim.advanceTo(ts, Math.min(ts, WEDNESDAY_OPEN)),
    bar: (bar) => t.sim.onMarket(bar),
    events: t.events,
  };
}

function paperDriver(): Driver {
  const book = new PortfolioBook(
    { portfolioId: 'p1', apiKey: 'k', apiSecret: 's', startingBalances: { USD: D('100000') } },
    { instruments: [aapl], fillModel: 'bar', seed: 7 },
    true,
  );
  const events: UserEvent[] = [];
  book.listen((event) => events.push(event));
  return {
    place: (intent) => book.run(intent),
    // A delayed command's arrival or a lockstep tick (command-journal.ts).
    moveTo: (ts) => book.advanceTo(ts),
    bar: (bar) => book.onMarket(bar),
    events,
  };
}

const orderUpdates = (events: readonly UserEvent[]): string[] =>
  events
    .filter((e) => e.kind === 'order' || e.kind === 'commandRejected')
    .map((e) =>
      e.kind === 'order'
        ? `${e.order.clientOrderId} ${new Date(e.order.updateAt).toISOString()} ${e.order.orderState} ${e.order.action}`
        : `${e.ref} rejected ${e.code}`,
    );

/** A DAY limit placed at Wednesday 00:00 New York (it ends 16:00 New York, 21:00Z), then `command` at 17:00 New York. */
function commandAfterClose(driver: Driver, command: Intent, low: number): string[] {
  driver.bar(TUESDAY);
  driver.place(aLimit('day', 'BUY', '10', '187.5', { sym: AAPL, timeInForce: 'DAY' }));
  driver.moveTo(AFTER_CLOSE);
  driver.place(command);
  driver.moveTo(AFTER_CLOSE + 1);
  driver.bar(aDailyBar(AAPL, '2026-03-04T05:00:00Z', '2026-03-05T05:00:00Z', [190.5, 193, low, 192]));
  return orderUpdates(driver.events);
}

const modify: Intent = { kind: 'modifyOrder', ref: 'amend', target: 'day', sym: AAPL, price: D('151') };
const cancel: Intent = { kind: 'cancelOrder', ref: 'cancel', target: 'day', sym: AAPL };

describe('a DAY order whose expiry falls inside a daily bar, backtest against paper venue', () => {
  it('refuses a modify arriving after the expiry as for a final order and stamps the expiry at its own time, on both', () => {
    const expected = [
      'day 2026-03-04T05:00:00.000Z NEW PLACE',
      'day 2026-03-04T05:00:00.000Z OPEN PLACE',
      'amend rejected 401058',
      'day 2026-03-04T21:00:00.000Z CANCELLED EXPIRE',
    ];
    expect(commandAfterClose(backtestDriver(), modify, 189)).toEqual(expected);
    expect(commandAfterClose(paperDriver(), modify, 189)).toEqual(expected);
  });

  it('gives the same updates on both whenever inside the bar the modify arrives: amended before the expiry, refused from it', () => {
    const expiry = at('2026-03-04T21:00:00Z');
    fc.assert(
      fc.property(
        fc.integer({ min: WEDNESDAY_OPEN + 1, max: at('2026-03-05T05:00:00Z') - 2 }),
        (modifyAt) => {
          const updatesOf = (driver: Driver): string[] => {
            driver.bar(TUESDAY);
            driver.place(aLimit('day', 'BUY', '10', '187.5', { sym: AAPL, timeInForce: 'DAY' }));
            driver.moveTo(modifyAt);
            driver.place(modify);
            driver.moveTo(modifyAt + 1);
            driver.bar(
              aDailyBar(AAPL, '2026-03-04T05:00:00Z', '2026-03-05T05:00:00Z', [190.5, 193, 189, 192]),
            );
            return orderUpdates(driver.events);
          };
          const backtest = updatesOf(backtestDriver());
          expect(backtest).toEqual(updatesOf(paperDriver()));
          expect(backtest.slice(2)).toEqual([
            modifyAt < expiry
              ? `day ${new Date(modifyAt).toISOString()} OPEN AMEND_COMPLETED`
              : 'amend rejected 401058',
            'day 2026-03-04T21:00:00.000Z CANCELLED EXPIRE',
          ]);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('refuses a cancel arriving after the expiry, the order still meeting the bar it was live in, on both', () => {
    const backtest = commandAfterClose(backtestDriver(), cancel, 186);
    expect(backtest).toEqual(commandAfterClose(paperDriver(), cancel, 186));
    expect(backtest.slice(2)).toEqual(['cancel rejected 401058', 'day 2026-03-05T05:00:00.000Z FILLED FILL']);
  });

  it('fills a DAY order the daily bar crossed the same way when a strategy timer moved time into the bar', () => {
    const fillsOf = (driver: Driver): string[] => {
      driver.bar(TUESDAY);
      driver.place(aLimit('dip', 'BUY', '10', '187.5', { sym: AAPL, timeInForce: 'DAY' }));
      driver.moveTo(AFTER_CLOSE);
      // Wednesday's low 186 crosses the 187.5 limit.
      driver.bar(aDailyBar(AAPL, '2026-03-04T05:00:00Z', '2026-03-05T05:00:00Z', [190.5, 191, 186, 189]));
      return driver.events.flatMap((e) =>
        e.kind === 'execution'
          ? [`${e.execution.clientOrderId} ${e.execution.quantity}@${e.execution.price}`]
          : [],
      );
    };
    expect(fillsOf(backtestDriver())).toEqual(['dip 10@187.5']);
    expect(fillsOf(paperDriver())).toEqual(['dip 10@187.5']);
  });

  it('still expires, before the next bar is matched, an order whose expiry came before that bar opened', () => {
    // A gap between bars (a weekend): the paper venue does not know when the next bar opens, holds
    // the expiry from the end of the last bar, and fires it before matching the bar that opens later.
    const paper = paperDriver();
    paper.bar(TUESDAY);
    paper.place(aLimit('day', 'BUY', '10', '187.5', { sym: AAPL, timeInForce: 'DAY' }));
    paper.moveTo(AFTER_CLOSE);
    paper.bar(aDailyBar(AAPL, '2026-03-05T05:00:00Z', '2026-03-06T05:00:00Z', [190.5, 191, 186, 189]));
    expect(orderUpdates(paper.events).slice(2)).toEqual(['day 2026-03-04T21:00:00.000Z CANCELLED EXPIRE']);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoanOptions } from '../../../backtest/sim/index.ts';
import type { Position, UserEvent } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aMark, aMarket, aQuote, aSim, BTC, type SimUnderTest } from '../../kit/sim-builders.ts';

const ETH = 'BINANCE_PERP_ETH_USDT';
const HOUR = 3_600_000;

/**
 * Every account report at which an open leg's latest position report is not of the report's time
 * and the mark then: one line each, empty when each report follows a report of every open leg.
 */
function legsNotReportedWith(
  events: readonly UserEvent[],
  markAt: (sym: string, ts: number) => number,
): string[] {
  const legs = new Map<string, Position>();
  const out: string[] = [];
  for (const event of events) {
    if (event.kind === 'position')
      legs.set(`${event.position.sym}|${event.position.positionSide}`, event.position);
    if (event.kind !== 'account') continue;
    for (const [key, leg] of legs) {
      if (leg.positionQty.isZero()) continue;
      const mark = markAt(leg.sym, event.ts);
      if (leg.updateAt !== event.ts || !leg.markPrice.eq(mark))
        out.push(
          `account at ${event.ts}: ${key} last reported at ${leg.updateAt} at ${leg.markPrice.toFixed()}, mark ${mark}`,
        );
    }
  }
  return out;
}

/** Each sym's marks in time order, as fed. */
function markBook() {
  const marks: { sym: string; ts: number; price: number }[] = [];
  return {
    feed(t: SimUnderTest, ts: number, price: number, sym = BTC): void {
      marks.push({ sym, ts, price });
      t.sim.onMarket(aMark(ts, price, undefined, sym));
    },
    at: (sym: string, ts: number): number =>
      marks.filter((m) => m.sym === sym && m.ts <= ts).at(-1)?.price ?? Number.NaN,
  };
}

describe('sim venue: an account report follows a report of every open position at its mark', () => {
  it('sends the position at the mark that put the account in MARGIN_CALL right before that report', () => {
    // Long 10 @ 100 on 200 USDT at leverage 10: MARGIN_CALL (risk ratio 0.8) from 80.5, liquidation below 80.45.
    const t = aSim({ startingBalances: { USDT: D('200') } });
    const marks = markBook();
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    marks.feed(t, 0, 100);
    t.send(aMarket('m', 'BUY', '10'));
    marks.feed(t, 1, 100);
    marks.feed(t, 2, 81);
    const before = t.events.length;
    marks.feed(t, 3, 80.5);
    const sent = t.events.slice(before);
    expect(sent.map((e) => e.kind)).toEqual(['position', 'account']);
    expect(sent[1]?.kind === 'account' && sent[1].account.accountStatus).toBe('MARGIN_CALL');
    const position = sent[0]?.kind === 'position' ? sent[0].position : undefined;
    expect([position?.markPrice.toFixed(), position?.unrealizedPNL.toFixed(), position?.updateAt]).toEqual([
      '80.5',
      '-195',
      3,
    ]);
    expect(legsNotReportedWith(t.events, marks.at)).toEqual([]);
  });

  it('sends the positions before an hourly interest charge’s report, at the marks of that hour', () => {
    const loans: LoanOptions = {
      assets: { 'BINANCE:USDT': { annualRate: D('0.0876'), userQuota: D('5000'), pool: D('3000') } },
      maxBorrowLtv: D('0.5'),
      maintenanceMarginRate: D('0.05'),
    };
    const t = aSim({ loans });
    const marks = markBook();
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    marks.feed(t, 0, 100);
    t.send(aMarket('m', 'BUY', '10'), {
      kind: 'borrow',
      ref: 'b',
      exchange: 'BINANCE',
      coin: 'USDT',
      amount: D('1000'),
    });
    marks.feed(t, 1, 100);
    marks.feed(t, HOUR / 2, 104);
    marks.feed(t, 1.5 * HOUR, 97);
    expect(t.sim.statement().filter((f) => f.type === 'DEDUCT_INTEREST')).toHaveLength(1);
    expect(legsNotReportedWith(t.events, marks.at)).toEqual([]);
  });

  it('property: on two perpetuals, whatever the marks and fills, every report follows its legs at the marks', () => {
    const step = fc.record({
      sym: fc.constantFrom(BTC, ETH),
      mark: fc.integer({ min: 90, max: 110 }),
      order: fc.constantFrom('none', 'BUY', 'SELL'),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 15 }), (steps) => {
        const t = aSim({ instruments: [anInstrument(BTC), anInstrument(ETH)] });
        const marks = markBook();
        for (const sym of [BTC, ETH]) {
          t.sim.onMarket(aQuote(0, 99.9, 1000, 100, 1000, sym));
          marks.feed(t, 0, 100, sym);
        }
        steps.forEach(({ sym, mark, order }, i) => {
          const ts = 10 * (i + 1);
          if (order !== 'none') t.send(aMarket(`o${i}`, order, '1', { sym }));
          marks.feed(t, ts, mark, sym);
        });
        expect(legsNotReportedWith(t.events, marks.at)).toEqual([]);
      }),
    );
  });
});

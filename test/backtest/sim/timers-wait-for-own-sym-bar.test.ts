import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aDailyBar } from '../../kit/daily-bars.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aSim } from '../../kit/sim-builders.ts';

// On the bar fill model a sym's own timers inside the span of its bar not yet matched wait for
// that bar, whichever sym's bar of the same close reaches the venue first.
const AAPL = 'US_EQUITY_AAPL';
const MSFT = 'US_EQUITY_MSFT';
const at = (iso: string): number => Date.parse(iso);
const EQUITY = { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' } as const;

/** Thursday's bars of both syms, an AAPL order sent, then Friday's bars in the given order. */
function fridayWith(send: (t: ReturnType<typeof aSim>) => void, first: string): string[] {
  const t = aSim({
    fillModel: 'bar',
    instruments: [anInstrument(AAPL, EQUITY), anInstrument(MSFT, EQUITY)],
    startingBalances: { USD: D('100000') },
  });
  for (const sym of [AAPL, MSFT])
    t.sim.onMarket(aDailyBar(sym, '2026-03-05T05:00:00Z', '2026-03-06T05:00:00Z', [190.5, 191, 188, 189]));
  send(t);
  t.sim.advanceTo(at('2026-03-06T05:00:00Z'));
  const friday = [AAPL, MSFT].sort((a, b) => (a === first ? -1 : b === first ? 1 : 0));
  for (const sym of friday)
    t.sim.onMarket(aDailyBar(sym, '2026-03-06T05:00:00Z', '2026-03-07T05:00:00Z', [190.5, 191, 186, 189]));
  return t.of('order').map((e) => `${e.order.clientOrderId} ${e.order.orderState}`);
}

describe("a sym's timers wait for its own bar, whichever sym's bar comes first", () => {
  it.each([AAPL, MSFT])('a DAY limit ending at 16:00 meets its daily bar and fills (%s first)', (first) => {
    const orders = fridayWith(
      (t) => t.send(aLimit('day', 'BUY', '10', '187.5', { sym: AAPL, timeInForce: 'DAY' })),
      first,
    );
    expect(orders.at(-1)).toBe('day FILLED');
  });

  it.each([AAPL, MSFT])('a limit released by TIME inside the bar sits the bar out (%s first)', (first) => {
    const orders = fridayWith(
      (t) =>
        t.send(
          aLimit('tim', 'BUY', '10', '187.5', {
            sym: AAPL,
            condition: { code: 'TIME', timeToSend: '2026-03-06 15:00:00' },
          }),
        ),
      first,
    );
    expect(orders.at(-1)).toBe('tim OPEN');
  });
});

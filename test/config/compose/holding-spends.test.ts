import { describe, expect, it } from 'vitest';
import { roundTripsFromFills } from '../../../backtest/report/index.ts';
import { HoldingSpends } from '../../../config/compose/holding-spends.ts';
import { D, type Execution, ONE } from '../../../core/model/index.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aPositionUpdate } from '../../kit/kernel-events.ts';

const ETH = 'OKX_SPOT_ETH_USDT';
const PERP = 'BINANCE_PERP_BTC_USDT';

/** A fill of ETH at 100. */
const fill = (side: 'BUY' | 'SELL', quantity: string, timestamp: number, sym = ETH): Execution =>
  anExecution({ side, quantity, price: '100', timestamp, sym });

/** A session's User Data, in arrival order: fills, and position reports `[report, ts, qty, updateAt?]`. */
type Arrival = Execution | readonly ['report', number, string, number?, string?];

/**
 * Feeds arrivals to a tracker of the ETH holding, trading from the start unless a baseline report comes first.
 * @returns the spends as lines `qty@price t=ts after=n`, and the fills fed
 */
function spendsOf(arrivals: readonly Arrival[], baseline?: string): { lines: string[]; fills: Execution[] } {
  const spends = new HoldingSpends(new Set([ETH]));
  if (baseline !== undefined) spends.position(aPositionUpdate(0, baseline, { sym: ETH }).position, 0, 0);
  spends.startTrading();
  const fills: Execution[] = [];
  for (const arrival of arrivals) {
    if (Array.isArray(arrival)) {
      const [, ts, qty, updateAt, sym] = arrival as readonly ['report', number, string, number?, string?];
      const event = aPositionUpdate(ts, qty, { sym: sym ?? ETH, updateAt: updateAt ?? ts });
      spends.position(event.position, ts, fills.length);
    } else {
      fills.push(arrival as Execution);
      spends.fill(arrival as Execution, fills.length);
    }
  }
  const lines = spends
    .finish()
    .map((s) => `${s.positionSide} ${s.qty.toFixed()}@${s.price.toFixed()} t=${s.ts} after=${s.afterFills}`);
  return { lines, fills };
}

describe('holding spends: coin that left a spot holding without a fill, from position reports', () => {
  it('finds none when every report is what the fills add up to', () => {
    const { lines } = spendsOf([
      fill('SELL', '5', 1),
      ['report', 1, '-5'],
      fill('BUY', '5', 9),
      ['report', 9, '0'],
    ]);
    expect(lines).toEqual([]);
  });

  it('places interest taken out of a short between the sale and the buy-back', () => {
    const { lines } = spendsOf([
      fill('SELL', '5', 1),
      ['report', 1, '-5'],
      ['report', 3600, '-5.0005'],
      ['report', 7200, '-5.001'],
      fill('BUY', '5.001', 9000),
      ['report', 9000, '0'],
    ]);
    // Both charges settle at the buy-back, the newer report superseding the older: one spend of
    // 0.001 after the sale and before the buy-back.
    expect(lines).toEqual(['NONE 0.001@100 t=7200 after=1']);
  });

  it('settles a report still waiting at the end of the session', () => {
    const { lines } = spendsOf([fill('BUY', '2', 1), ['report', 1, '2'], ['report', 3600, '1.9995']]);
    expect(lines).toEqual(['NONE 0.0005@100 t=3600 after=1']);
  });

  it('counts a fill stamped before a report but arriving after it as in the report (a reconciliation catching up)', () => {
    // The snapshot's report came first, then the missed sale it counted, then a newer fill.
    const { lines } = spendsOf([['report', 50, '-5', 50], fill('SELL', '5', 40), fill('BUY', '1', 60)]);
    expect(lines).toEqual([]);
  });

  it('places a spend after the fills its report counted, arriving late, and before the newer ones', () => {
    const { lines } = spendsOf([['report', 50, '-5.0005', 50], fill('SELL', '5', 40), fill('BUY', '1', 60)]);
    expect(lines).toEqual(['NONE 0.0005@100 t=50 after=1']);
  });

  it('takes a holding reported before the session traded as where it starts, not as a spend', () => {
    const { lines } = spendsOf([fill('BUY', '1', 5), ['report', 5, '-2']], '-3');
    expect(lines).toEqual([]);
  });

  it('leaves alone a holding carried into the session: its interest comes out of lots the trade list does not have', () => {
    // A short of 3 from before the session grows by interest: no lot of the session's grows.
    expect(spendsOf([['report', 3_600_000, '-3.001']], '-3').lines).toEqual([]);
    // A long of 5 carried in pays interest: before, its trade list gained a phantom open SHORT lot.
    const spends = new HoldingSpends(new Set([ETH]));
    spends.position(aPositionUpdate(0, '5', { sym: ETH, positionSide: 'LONG' }).position, 0, 0);
    spends.startTrading();
    spends.position(
      aPositionUpdate(3_600_000, '4.999', { sym: ETH, positionSide: 'LONG' }).position,
      3_600_000,
      0,
    );
    const found = spends.finish();
    expect(found).toEqual([]);
    expect(roundTripsFromFills([], { contractSizeOf: () => ONE, spends: found }).open).toEqual([]);
  });

  it('leaves alone a report above what the fills explain (a fill never received)', () => {
    const { lines } = spendsOf([['report', 5, '1'], fill('SELL', '1', 9), ['report', 9, '0']]);
    expect(lines).toEqual([]);
  });

  it('ignores instruments whose holdings pay no interest in a coin (perpetuals)', () => {
    const { lines } = spendsOf([fill('BUY', '1', 1, PERP), ['report', 5, '0.5', 5, PERP]]);
    expect(lines).toEqual([]);
  });
});

describe('holding spends in the trade list (roundTripsFromFills)', () => {
  it('books the interest among the fills: a buy-back of principal and interest closes the short whole', () => {
    const { lines, fills } = spendsOf([
      fill('SELL', '5', 1),
      ['report', 1, '-5'],
      ['report', 3600, '-5.0015'],
      fill('BUY', '5.0015', 9000),
      ['report', 9000, '0'],
    ]);
    expect(lines).toEqual(['NONE 0.0015@100 t=3600 after=1']);
    const spends = [
      { sym: ETH, positionSide: 'NONE' as const, qty: D('0.0015'), price: D(100), ts: 3600, afterFills: 1 },
    ];
    const { closed, open } = roundTripsFromFills(fills, { contractSizeOf: () => ONE, spends });
    expect(
      closed.map(
        (t) => `${t.direction} ${t.qty.toFixed()} ${t.entryPrice.toFixed()}->${t.exitPrice.toFixed()}`,
      ),
    ).toEqual(['SHORT 5.0015 100->100']);
    expect(open).toEqual([]);
    // Without the spend the buy-back would close 5 and leave a phantom long of 0.0015 open.
    expect(
      roundTripsFromFills(fills, { contractSizeOf: () => ONE }).open.map(
        (t) => `${t.direction} ${t.qty.toFixed()}`,
      ),
    ).toEqual(['LONG 0.0015']);
  });
});

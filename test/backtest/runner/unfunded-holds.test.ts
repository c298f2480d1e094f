import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpenTrade, RoundTripTrade } from '../../../backtest/report/index.ts';
import { fundingTimesHeld, unfundedHoldWarnings } from '../../../backtest/runner/index.ts';
import { ASSUMED_FUNDING_INTERVAL_MS } from '../../../backtest/sim/index.ts';
import { D } from '../../../core/model/index.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'BINANCE_PERP_ETH_USDT';
const H = 3_600_000;
const DAY0 = Date.UTC(2025, 0, 6);
const noFunding = () => ({ marks: false, funding: false });

const closed = (sym: string, entryTs: number, exitTs: number) =>
  ({ sym, entryTs, exitTs }) as unknown as RoundTripTrade;
const open = (sym: string, entryTs: number) => ({ sym, entryTs, qty: D(1) }) as unknown as OpenTrade;

describe("unfundedHoldWarnings of fundingTimesHeld (a paper session's trades)", () => {
  it('warns per perpetual without funding data held at a funding time: entered at or before it, exited after', () => {
    const warnings = unfundedHoldWarnings(
      [anInstrument(BTC), anInstrument(ETH), anEthSpot()],
      noFunding,
      fundingTimesHeld(
        [
          closed(BTC, DAY0 + 8 * H, DAY0 + 8 * H + 1),
          closed(BTC, DAY0 + 15 * H, DAY0 + 17 * H),
          // Exits at the funding time: gone before it is settled.
          closed(ETH, DAY0 + 7 * H, DAY0 + 8 * H),
          closed('OKX_SPOT_ETH_USDT', DAY0, DAY0 + 24 * H),
        ],
        [open(ETH, DAY0 + 23 * H)],
        DAY0 + 24 * H + 1,
      ),
    );
    expect(warnings).toEqual([
      `${BTC} was held across 2 funding times (the first 2025-01-06T08:00:00.000Z, the last 2025-01-06T16:00:00.000Z) of the usual 8-hour funding schedule (00:00, 08:00, 16:00 UTC), but the recordings gave no funding rate of it: no funding was charged, so the result leaves out what the position would have paid or received (a recording by keel record keeps the MARK_PRICE funding rates)`,
      `${ETH} was held across 1 funding time (2025-01-07T00:00:00.000Z) of the usual 8-hour funding schedule (00:00, 08:00, 16:00 UTC), but the recordings gave no funding rate of it: no funding was charged, so the result leaves out what the position would have paid or received (a recording by keel record keeps the MARK_PRICE funding rates)`,
    ]);
  });

  it('says nothing of a perpetual whose data had funding, whatever it held', () => {
    expect(
      unfundedHoldWarnings(
        [anInstrument(BTC)],
        () => ({ marks: true, funding: true }),
        fundingTimesHeld([closed(BTC, DAY0, DAY0 + 48 * H)], [open(BTC, DAY0)], DAY0 + 72 * H),
      ),
    ).toEqual([]);
  });

  it('counts exactly the distinct funding times some hold [entry, exit) covers', () => {
    const hold = fc
      .tuple(fc.integer({ min: 0, max: 72 * H }), fc.integer({ min: 0, max: 30 * H }))
      .map(([from, length]) => [DAY0 + from, DAY0 + from + length] as const);
    fc.assert(
      fc.property(fc.array(hold, { maxLength: 6 }), (holds) => {
        const times = new Set<number>();
        for (let t = DAY0; t <= DAY0 + 120 * H; t += ASSUMED_FUNDING_INTERVAL_MS)
          if (holds.some(([entry, exit]) => entry <= t && t < exit)) times.add(t);
        const warnings = unfundedHoldWarnings(
          [anInstrument(BTC)],
          noFunding,
          fundingTimesHeld(
            holds.map(([entry, exit]) => closed(BTC, entry, exit)),
            [],
            DAY0 + 200 * H,
          ),
        );
        if (times.size === 0) return warnings.length === 0;
        const count = times.size === 1 ? '1 funding time (' : `${times.size} funding times (`;
        return warnings.length === 1 && (warnings[0] as string).includes(count);
      }),
    );
  });
});

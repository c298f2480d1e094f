import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { decodeSessionRecord } from '../../../config/session-decoder.ts';
import { D, ZERO } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { marketMaker } from '../../../strategies/market-maker.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

// A market maker averages into positions of 0.01-0.05 BTC, so its average entry price often does
// not end (a cost over 3 entries). Realized and unrealized PnL are taken from the positions' costs
// (a part close's share rounded to 12 places), so no 40-digit rounding reaches the balances: the
// run closes exactly (README: equity final - start = Σ trades' gross PnL - fees), with no noise
// in any equity string (it was 96961.69252109999999999999999999999999999 for 96961.6925211).
describe('exact accounting of a long market-making run', () => {
  const session = syntheticSessionFile({ seed: 21, minutes: 120 });
  it('closes: equity final = start + Σ gross PnL - Σ fees, exactly', async () => {
    const result = await runBacktest({
      recordings: [session.path],
      decode: decodeSessionRecord,
      instruments: [SYNTHETIC_BTC_PERP],
      strategies: [
        {
          id: 'mm',
          strategy: marketMaker,
          params: {
            sym: SYNTHETIC_BTC_PERP.sym,
            qty: 0.01,
            halfSpreadTicks: 50,
            requoteTicks: 10,
            maxPosition: 0.05,
          },
        },
      ],
      gate: new RiskGate(),
      startingCash: D(100_000),
      fillModel: 'queue',
      closeAtEnd: true,
    });
    try {
      let gross = ZERO;
      let fees = ZERO;
      for (const t of result.trades) gross = gross.plus(t.grossPnl);
      for (const f of result.fills) fees = fees.plus(f.fee);
      expect(result.fills.length).toBeGreaterThan(1000);
      const expected = D(100_000).plus(gross).minus(fees);
      const final = result.equityCurve[result.equityCurve.length - 1]!.equity;
      expect(final.toFixed()).toBe(expected.toFixed());
    } finally {
      result.dispose?.();
    }
  }, 120_000);
});

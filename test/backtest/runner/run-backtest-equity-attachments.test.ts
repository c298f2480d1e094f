import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { barsRecordingIn, decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const AAPL = 'US_EQUITY_AAPL';
const aTempDir = tempDirsRemovedAfterAll('keel-equity-bracket-');

/** Buys 10 AAPL at market with a take-profit and a stop-loss attached, on the first bar. */
const bracketBuyer = defineStrategy({
  name: 'bracket-buyer',
  params: z.object({}),
  state: () => ({ sent: false }),
  onStart: (ctx) => ctx.watchBars(AAPL, '1m'),
  onBar: (ctx) => {
    if (ctx.state.sent) return undefined;
    ctx.state.sent = true;
    return ctx.order.market({
      sym: AAPL,
      side: 'BUY',
      qty: '10',
      tp: { triggerPrice: '200' },
      sl: { triggerPrice: '180' },
    });
  },
});

describe('a backtest of a US-equity order with tp/sl attached', () => {
  it('shows the denial paper and live would give, and places nothing', async () => {
    const rows = Array.from({ length: 5 }, () => [190, 191, 189, 190]);
    const recording = await barsRecordingIn(aTempDir(), rows, Date.UTC(2024, 5, 3, 14), AAPL);
    const result = await runBacktest({
      recordings: [recording],
      decode: decodeMarketRecord,
      instruments: [anInstrument(AAPL)],
      strategies: [{ id: 's1', strategy: bracketBuyer, params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      commission: { rate: D('0.001') },
      closeAtEnd: false,
    });
    const denials = [...(result.denials ?? [])];
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({
      strategyId: 's1',
      sym: AAPL,
      source: 'risk',
      check: 'equityAttachments',
    });
    expect(denials[0]?.reason).toContain('conditional order (e.g. OCO, or SL)');
    expect([...result.fills]).toEqual([]);
    result.dispose?.();
  });
});

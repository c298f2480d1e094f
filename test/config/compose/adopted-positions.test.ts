import { describe, expect, it } from 'vitest';
import { adoptedPositionsOf } from '../../../config/compose/adopted-positions.ts';
import { instrumentSpecsOf } from '../../../config/compose/instrument-specs.ts';
import { sessionResult } from '../../../config/compose/session-result.ts';
import { D } from '../../../core/model/index.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aPositionUpdate } from '../../kit/kernel-events.ts';
import { aSessionRecord } from '../../kit/session-records.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const SPOT = 'OKX_SPOT_ETH_USDT';
const instruments = instrumentSpecsOf([
  { sym: BTC, overrides: {} },
  { sym: SPOT, overrides: {} },
]);

describe('the positions a session adopts at its start', () => {
  it('are the open derivative positions at the venue’s entry price, short by sign in NET mode; spot holdings and flat ones are left out', () => {
    const positions = [
      aPositionUpdate(1, '-0.5', { avgPrice: D(95_000) }).position,
      aPositionUpdate(1, '0').position,
      aPositionUpdate(1, '2', { sym: SPOT }).position,
      aPositionUpdate(1, '3', { positionSide: 'SHORT' }).position,
    ];
    const adopted = adoptedPositionsOf(positions, instruments, 7_000);
    expect(
      adopted.map((p) => [p.positionSide, p.direction, p.qty.toFixed(), p.price.toFixed(), p.ts]),
    ).toEqual([
      ['NONE', 'SHORT', '0.5', '95000', 7_000],
      ['SHORT', 'SHORT', '3', '100', 7_000],
    ]);
  });
});

describe('a restarted session’s trades', () => {
  it('close the adopted long its strategy sold reduce-only, churned in 0.001 pieces, and never show a short', () => {
    const adopted = adoptedPositionsOf([aPositionUpdate(1_000, '0.006').position], instruments, 1_000);
    const fills = [
      ...Array.from({ length: 6 }, (_, i) =>
        anExecution({ sym: BTC, side: 'SELL', quantity: '0.001', price: '101', timestamp: 2_000 + i }),
      ),
    ];
    const result = sessionResult(aSessionRecord({ instruments, fills, adoptedPositions: adopted }));
    expect(
      [...result.trades].map(
        (t) => `${t.direction} ${t.qty.toFixed()} ${t.entryOrderId} ${t.entryPrice.toFixed()}`,
      ),
    ).toEqual(Array.from({ length: 6 }, () => 'LONG 0.001 adopted 100'));
    expect(result.openTrades).toEqual([]);
    expect(result.metrics.tradeCount).toBe(6);
    expect(result.metrics.winRate).toBe(1);
    expect(result.meta.assumptions.some((a) => a.includes(`${BTC} LONG 0.006 @ 100`))).toBe(true);
  });
});

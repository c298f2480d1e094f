import { describe, expect, it } from 'vitest';
import { nextAlgoOrderRecord } from '../../../backtest/report/index.ts';
import { EquitySampler } from '../../../backtest/runner/index.ts';
import { instrumentSpecsOf } from '../../../config/compose/instrument-specs.ts';
import { sessionResult } from '../../../config/compose/session-result.ts';
import { D } from '../../../core/model/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aTrade } from '../../kit/kernel-events.ts';
import { aSessionRecord } from '../../kit/session-records.ts';

describe("a session result's assumptions", () => {
  it('state the session, then whatever the run adds (a paper venue serving defaulted specs)', () => {
    const instruments = instrumentSpecsOf([{ sym: 'US_EQUITY_SPY', overrides: {} }]);
    const note = 'US_EQUITY_SPY has no built-in spec: Keel’s defaults.';
    const { assumptions } = sessionResult(aSessionRecord({ instruments, assumptions: [note] })).meta;
    expect(assumptions[0]).toContain('A paper session against Keel paper venue');
    expect(assumptions.at(-1)).toBe(note);
    expect(sessionResult(aSessionRecord()).meta.assumptions).toHaveLength(2);
  });
});

describe("a session result's metrics", () => {
  const BTC = 'BINANCE_PERP_BTC_USDT';
  const ETH = 'OKX_SPOT_ETH_USDT';

  it('take buy & hold of the sym the session traded, not of the first sym the feed held', () => {
    const sampler = new EquitySampler(60_000, () => D(100_000));
    sampler.start(0);
    sampler.observe(aTrade(1_000, 100, 1, BTC));
    sampler.observe(aTrade(1_000, 50, 1, ETH));
    sampler.observe(aTrade(120_000, 90, 1, BTC));
    sampler.observe(aTrade(120_000, 60, 1, ETH));
    sampler.sample(120_000);
    const fills = [anExecution({ sym: ETH, side: 'BUY', quantity: '1', price: '50', timestamp: 2_000 })];
    const instruments = instrumentSpecsOf([
      { sym: BTC, overrides: {} },
      { sym: ETH, overrides: {} },
    ]);
    const { metrics } = sessionResult(aSessionRecord({ sampler, fills, instruments }));
    expect(metrics.buyAndHoldReturn).toBeCloseTo(0.2, 12);
    expect(metrics.buyAndHoldBenchmark).toEqual({ syms: [ETH], basis: 'traded' });
  });

  it('measure drawdowns, peak and mean equity over every sample, as its backtest does, not over the merged curve', () => {
    // Four buckets at most: a dip inside a bucket that merged is no longer in the curve.
    const path = [100, 101, 97, 102, 99, 103, 95, 104, 100, 105, 98, 106];
    let equity = path[0] as number;
    const sampler = new EquitySampler(1_000, () => D(equity), { maxBuckets: 4 });
    sampler.start(0);
    path.forEach((value, i) => {
      equity = value;
      sampler.observe(aTrade(i * 1_000 + 500, 100, 1, BTC));
    });
    sampler.sample(path.length * 1_000);
    const { metrics } = sessionResult(aSessionRecord({ sampler }));
    const figures = sampler.drawdownFigures();
    expect(metrics.maxDrawdown).toBe(figures.maxDrawdown);
    expect(metrics.avgDrawdown).toBe(figures.avgDrawdown);
    expect(metrics.maxDrawdownDurationMs).toBe(figures.maxDrawdownDurationMs);
    expect(metrics.avgDrawdownDurationMs).toBe(figures.avgDrawdownDurationMs);
    expect(metrics.equityPeak.toString()).toBe(sampler.equityPeak()?.toString());
  });

  it('annualize a US equity session on 252 trading days, as its backtest does', () => {
    const SPY = 'US_EQUITY_SPY';
    let equity = 100_000;
    const sampler = new EquitySampler(60_000, () => D(equity));
    const t0 = Date.UTC(2024, 0, 8, 15);
    sampler.start(t0);
    for (let day = 0; day < 4; day++) {
      equity *= day % 2 === 0 ? 1.01 : 0.995;
      sampler.observe(aTrade(t0 + day * 86_400_000 + 60_000, 400 + day, 1, SPY));
    }
    sampler.sample(t0 + 3 * 86_400_000 + 120_000);
    const instruments = instrumentSpecsOf([{ sym: SPY, overrides: {} }]);
    const { metrics } = sessionResult(aSessionRecord({ sampler, instruments }));
    expect(metrics.annualization).toMatchObject({
      period: 'day',
      tradingDaysPerYear: 252,
      periodsPerYear: 252,
    });
  });
});

describe("a session result's records", () => {
  const BTC = 'BINANCE_PERP_BTC_USDT';

  it("carry the session's algo orders and denials, and each trade's entry and exit strategies", () => {
    const fills = [
      {
        ...anExecution({ side: 'BUY', quantity: '1', price: '100', timestamp: 1_000, sym: BTC }),
        strategyId: 'a',
      },
      {
        ...anExecution({ side: 'SELL', quantity: '1', price: '110', timestamp: 2_000, sym: BTC }),
        strategyId: 'b',
      },
    ];
    const algoOrders = [nextAlgoOrderRecord(undefined, anAlgoOrder(), 'a')].filter((a) => a !== undefined);
    const denials = [
      {
        ts: 1_500,
        strategyId: 'b',
        intentKind: 'placeOrder',
        ref: 'b-1',
        sym: BTC,
        source: 'risk' as const,
        check: 'maxNotional',
        reason: 'too big',
      },
    ];
    const result = sessionResult(aSessionRecord({ fills, algoOrders, denials }));
    expect([...(result.algoOrders ?? [])]).toEqual(algoOrders);
    expect([...(result.denials ?? [])]).toEqual(denials);
    expect([...result.trades].map((t) => [t.entryStrategyId, t.exitStrategyId])).toEqual([['a', 'b']]);
    expect(sessionResult(aSessionRecord()).algoOrders).toBeUndefined();
  });
});

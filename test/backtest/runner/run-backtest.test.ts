import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { resultToJson } from '../../../backtest/report/index.ts';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, ZERO } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { smaCross } from '../../../strategies/sma-cross.ts';
import { barsRecordingIn, decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-runner-');

const decode = decodeMarketRecord;

function barsRecording(rows: readonly (readonly number[])[], sym = BTC): Promise<string> {
  return barsRecordingIn(aTempDir(), rows, T0, sym);
}

/** Buys `qty` at market after the close of bar `buyAt`, sells after bar `sellAt` (0-based). */
const scripted = defineStrategy({
  name: 'scripted',
  params: z.object({ buyAt: z.number(), sellAt: z.number(), qty: z.string() }),
  state: () => ({ bars: 0 }),
  onStart: (ctx) => ctx.watchBars(BTC, '1m'),
  onBar: (ctx) => {
    const index = ctx.state.bars++;
    if (index === ctx.params.buyAt) return ctx.order.market({ sym: BTC, side: 'BUY', qty: ctx.params.qty });
    if (index === ctx.params.sellAt) return ctx.order.market({ sym: BTC, side: 'SELL', qty: ctx.params.qty });
    return undefined;
  },
});

const SIX_BARS = [
  [100, 101, 99, 100],
  [100, 102, 99, 101],
  [101, 103, 100, 102],
  [102, 106, 101, 105],
  [105, 108, 104, 107],
  [107, 110, 106, 109],
];

function baseOptions(recording: string, overrides: Partial<BacktestRunOptions> = {}): BacktestRunOptions {
  return {
    recordings: [recording],
    decode,
    instruments: [anInstrument(BTC)],
    strategies: [{ id: 's1', strategy: scripted, params: { buyAt: 1, sellAt: 3, qty: '10' } }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    commission: { rate: D('0.001') },
    closeAtEnd: false,
    ...overrides,
  };
}

describe('backtest runner', () => {
  let sixBars = '';
  beforeAll(async () => {
    sixBars = await barsRecording(SIX_BARS);
  });

  it('fills bar-model market orders at the next open, charges the commission and books the trade', async () => {
    const result = await runBacktest(baseOptions(sixBars));
    expect(result.meta.fillModel.name).toBe('bar');
    expect(result.meta.fillModel.description).toContain("whole fills: a bar's volume is no size limit");
    expect(
      [...result.fills].map((f) => [f.side, f.quantity.toFixed(), f.price.toFixed(), f.fee.toFixed()]),
    ).toEqual([
      ['BUY', '10', '101', '1.01'], // bar 2 opens at 101; 10 x 101 x 0.001
      ['SELL', '10', '105', '1.05'], // bar 4 opens at 105
    ]);
    expect(result.trades).toHaveLength(1);
    expect([...result.trades][0]!.pnl.toFixed()).toBe('37.94'); // 40 - 2.06
    expect(result.metrics.equityFinal.toFixed()).toBe('10037.94');
    expect(result.metrics.feesPaid.toFixed()).toBe('2.06');
    expect(result.metrics.tradeCount).toBe(1);
    expect(result.orders).toHaveLength(2);
    expect(result.meta.runConfig).toMatchObject({ startingCash: '10000', closeAtEnd: false });
    expect(result.meta.feeModel.description).toContain('10 bps');
  });

  it('shows the strategies every bar, then closes what is open at the last close', async () => {
    let barsSeen = 0;
    const holder = defineStrategy({
      name: 'holder',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx) => {
        barsSeen += 1;
        return barsSeen === 1 ? ctx.order.market({ sym: BTC, side: 'BUY', qty: '2' }) : undefined;
      },
    });
    const result = await runBacktest(
      baseOptions(sixBars, { strategies: [{ id: 'h', strategy: holder }], closeAtEnd: true }),
    );
    expect(barsSeen).toBe(6);
    expect(result.openTrades).toEqual([]);
    // Bought at bar 1's open (100), sold at bar 5's close (109), as backtesting.py's finalize_trades.
    expect([...result.trades].map((t) => [t.entryPrice.toFixed(), t.exitPrice.toFixed()])).toEqual([
      ['100', '109'],
    ]);
    // A real fill of the venue: 2 x 109 x 0.001 = 0.218 fee; PnL 2 x 9 - 0.2 - 0.218 = 17.582.
    expect([...result.fills].map((f) => [f.side, f.price.toFixed(), f.fee.toFixed()])).toEqual([
      ['BUY', '100', '0.2'],
      ['SELL', '109', '0.218'],
    ]);
    expect([...result.trades][0]!.pnl.toFixed()).toBe('17.582');
    expect(result.metrics.equityFinal.toFixed()).toBe('10017.582');
    expect(result.meta.assumptions[0]).toContain('Strategies see every event');
    expect(result.meta.assumptions[0]).toContain('on bars the last close');
    // Strategies see market data after the latency model's market-data leg, not at its receive time.
    expect(result.meta.assumptions.join('\n')).toContain(
      "strategies see it after the latency model's market-data delay",
    );
  });

  it('leaves positions open when asked, counting them in equity but not in the trades', async () => {
    const result = await runBacktest(
      baseOptions(sixBars, {
        strategies: [{ id: 's1', strategy: scripted, params: { buyAt: 1, sellAt: 99, qty: '1' } }],
      }),
    );
    expect(result.trades).toHaveLength(0);
    expect(result.openTrades).toHaveLength(1);
    // 10000 - fee 0.101 + (109 - 101) x 1 marked at the last close
    expect(result.metrics.equityFinal.toFixed()).toBe('10007.899');
    // Bought when bar 2 opened (t0 + 2 min): the strategy saw bar 1 close 5 ms after the venue
    // (the default market-data latency) and its order arrived 10-15 ms later (the default
    // order-entry latency), so 15-20 ms after the open. Held to the end (bar 5 closes at t0 + 6 min)
    // of a run starting when the first bar closed (t0 + 1 min): 4 of 5 minutes.
    const entryTs = result.openTrades[0]?.entryTs ?? 0;
    expect(entryTs - (T0 + 2 * 60_000)).toBeGreaterThanOrEqual(15);
    expect(entryTs - (T0 + 2 * 60_000)).toBeLessThan(20);
    expect(result.metrics.exposureTime).toBeCloseTo(0.8, 3);
  });

  describe('an SMA crossover on 600 one-minute bars', () => {
    let recording = '';
    beforeAll(async () => {
      const rows = Array.from({ length: 600 }, (_, i) => {
        const mid = Math.round((40_000 + 1_500 * Math.sin(i / 25) + 400 * Math.sin(i / 7)) * 10) / 10;
        return [mid, mid + 20, mid - 20, Math.round((mid + 5 * Math.sin(i)) * 10) / 10];
      });
      recording = await barsRecording(rows);
    });
    const options = (): BacktestRunOptions =>
      baseOptions(recording, {
        strategies: [
          { id: 'sma', strategy: smaCross, params: { sym: BTC, fast: 5, slow: 20, fraction: 0.5 } },
        ],
        closeAtEnd: true,
        commission: { rate: D('0.0005') },
        seed: 7,
      });

    it('gives byte-identical result files for the same inputs', async () => {
      const a = await runBacktest(options());
      const b = await runBacktest(options());
      expect(a.trades.length).toBeGreaterThan(5);
      expect(resultToJson(b)).toBe(resultToJson(a));
    });

    it('replays only market events: recorded User Data is dropped, the simulated venue makes its own', async () => {
      const withPrivate = (record: RecordedMessage) => {
        const market = decode(record);
        if (market === null || market instanceof Error) return market;
        // As if the recording also held the live account's fills: they must not reach the backtest.
        const foreign = {
          kind: 'account' as const,
          ts: market.ts,
          recvTs: market.recvTs,
          account: {
            portfolioId: 'LIVE',
            equity: D(1),
            availableMargin: D(1),
            maintainMargin: D(0),
            riskRatio: D(0),
            accountStatus: 'NORMAL' as const,
            positionMode: 'NET' as const,
          },
        };
        return [foreign, market];
      };
      const plain = await runBacktest(options());
      const mixed = await runBacktest({ ...options(), decode: withPrivate });
      expect(resultToJson(mixed)).toBe(resultToJson(plain));
    });

    it('ends with starting cash + the net PnL of its trades once everything is closed', async () => {
      const result = await runBacktest(options());
      expect(result.openTrades).toEqual([]);
      const net = [...result.trades].reduce((sum, t) => sum.plus(t.pnl), ZERO);
      expect(result.metrics.equityFinal.minus(D(10_000).plus(net)).abs().lt('1e-20')).toBe(true);
      // One point a bar, and the end: after the last bar, when the closing fill was booked.
      const lastFill = Math.max(...[...result.fills].map((f) => f.timestamp));
      expect(result.equityCurve).toHaveLength(601);
      expect(result.equityCurve.at(-1)?.ts).toBe(lastFill);
      expect(result.equityCurve.at(-2)?.ts).toBeLessThan(lastFill);
      expect(result.prices[0]!.points).toHaveLength(601);
    });
  });

  it('takes buy & hold from the first and last close however few buckets the equity curve keeps', async () => {
    // 40 one-minute bars closing 100, 101, ..., 139; 4 buckets merge them to 16 min wide, whose
    // first close used to be 118 (0.178); buy & hold is 139 / 100 - 1 = 0.39.
    const rows = Array.from({ length: 40 }, (_, i) => [100 + i - 0.5, 100 + i + 1, 100 + i - 1, 100 + i]);
    const result = await runBacktest(baseOptions(await barsRecording(rows), { equityBuckets: 4 }));
    result.dispose?.();
    expect(result.metrics.buyAndHoldReturn).toBeCloseTo(0.39, 12);
  });

  it('annualizes over 252 trading days when every instrument is a US equity, 365 otherwise, unless told', async () => {
    const AAPL = 'US_EQUITY_AAPL';
    const aapl = await barsRecording(SIX_BARS, AAPL);
    const idle = { id: 's1', strategy: smaCross, params: { sym: AAPL, fast: 2, slow: 3 } };
    const daysOf = async (overrides: Partial<BacktestRunOptions>): Promise<number> => {
      const result = await runBacktest(baseOptions(aapl, { strategies: [idle], ...overrides }));
      result.dispose?.();
      return result.metrics.annualization.tradingDaysPerYear;
    };
    expect(await daysOf({ instruments: [anInstrument(AAPL)] })).toBe(252);
    expect(await daysOf({ instruments: [anInstrument(AAPL), anInstrument(BTC)] })).toBe(365);
    expect(
      await daysOf({
        instruments: [anInstrument(AAPL)],
        annualization: { tradingDaysPerYear: 260, period: 'auto', riskFreeRate: 0 },
      }),
    ).toBe(260);
  });

  it("closes a position whose data ends before the run at that data's last close", async () => {
    const ETH = 'OKX_PERP_ETH_USDT';
    const eth = await barsRecording([...SIX_BARS, ...SIX_BARS], ETH);
    const result = await runBacktest(
      baseOptions(sixBars, {
        recordings: [sixBars, eth],
        instruments: [anInstrument(BTC), anInstrument(ETH)],
        strategies: [{ id: 's1', strategy: scripted, params: { buyAt: 1, sellAt: 99, qty: '10' } }],
        closeAtEnd: true,
      }),
    );
    // BTC's bars end at t0 + 6 min, ETH's at t0 + 12 min: BTC is closed after the run at 109.
    expect(result.openTrades).toEqual([]);
    expect([...result.trades].map((t) => [t.sym, t.entryPrice.toFixed(), t.exitPrice.toFixed()])).toEqual([
      [BTC, '101', '109'],
    ]);
    expect(result.meta.assumptions.some((a) => a.includes('stayed open'))).toBe(false);
    result.dispose?.();
  });

  it("charts the prices of the run's instruments only, not a recording's other syms", async () => {
    const ETH = 'OKX_PERP_ETH_USDT';
    const eth = await barsRecording(SIX_BARS, ETH);
    const result = await runBacktest(baseOptions(sixBars, { recordings: [sixBars, eth] }));
    expect(result.prices.map((series) => series.sym)).toEqual([BTC]);
    result.dispose?.();
  });

  it('warns when the end-of-run close leaves a position open (a tripped kill switch refuses it)', async () => {
    // The buy's fee alone is a 0.01 % drawdown: the kill switch halts trading, closes included.
    const gate = new RiskGate({ killSwitch: { maxDrawdown: 0.00005 } });
    const result = await runBacktest(
      baseOptions(sixBars, {
        gate,
        strategies: [{ id: 's1', strategy: scripted, params: { buyAt: 1, sellAt: 99, qty: '10' } }],
        closeAtEnd: true,
      }),
    );
    expect(result.openTrades.map((trade) => trade.sym)).toEqual([BTC]);
    expect(result.meta.warnings).toContain(
      `the end-of-run close left ${BTC} open: its closing order was never sent, denied by risk (tradingState): closePosition bt-end1-close-${BTC}-NONE refused: trading is HALTED (kill switch: drawdown 0.01 % from the high-water mark 10000 reached the limit 0.005 %); only cancels pass; valued at the last price, left out of the trade statistics`,
    );
    expect(result.meta.warnings?.some((w) => w.includes('did not fill'))).toBe(false);
    expect(result.meta.assumptions.filter((a) => a.includes('stayed open'))).toEqual([
      `${BTC} stayed open at the end: its closing order was never sent, denied by risk (tradingState): closePosition bt-end1-close-${BTC}-NONE refused: trading is HALTED (kill switch: drawdown 0.01 % from the high-water mark 10000 reached the limit 0.005 %); only cancels pass; it is valued at its last price and left out of the trade statistics.`,
    ]);
    expect(result.meta.warnings?.filter((w) => w.startsWith('the kill switch'))).toEqual([
      'the kill switch tripped to HALTED at 2024-01-01 00:03:00.000 UTC (drawdown 0.01 % from the high-water mark 10000 reached the limit 0.005 %); after it only cancels passed (and the orders of reduce-only trailing stops placed before it); its sweep cancelled 0 order(s) and algo order(s) that do not protect an open position; it kept no protective order',
    ]);
    result.dispose?.();
  });
});

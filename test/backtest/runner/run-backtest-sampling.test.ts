import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { drawdownStats } from '../../../backtest/report/index.ts';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy, type StrategyContext } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { barsRecordingIn, decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const A = 'BINANCE_PERP_BTC_USDT';
const B = 'BINANCE_PERP_ETH_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-sampling-');

const PairParams = z.object({ qty: z.string() });

/** Buys `qty` of A, or sells `qty` of B, at market on the first price of the sym. */
function enter(ctx: StrategyContext<z.infer<typeof PairParams>, { done: Set<string> }>, sym: string) {
  if (ctx.state.done.has(sym)) return undefined;
  ctx.state.done.add(sym);
  return ctx.order.market({ sym, side: sym === A ? 'BUY' : 'SELL', qty: ctx.params.qty });
}

/** A hedged book: long `qty` of A and short `qty` of B, entered on the first price of each. */
const pair = defineStrategy({
  name: 'pair',
  params: PairParams,
  state: () => ({ done: new Set<string>() }),
  onStart: (ctx) => {
    for (const sym of [A, B]) ctx.watchBars(sym, '1m');
  },
  onBar: (ctx, bar) => enter(ctx, bar.sym),
  onQuote: (ctx, quote) => enter(ctx, quote.sym),
});

function pairOptions(recordings: string[], overrides: Partial<BacktestRunOptions> = {}): BacktestRunOptions {
  return {
    recordings,
    decode: decodeMarketRecord,
    instruments: [anInstrument(A), anInstrument(B)],
    strategies: [{ id: 'pair', strategy: pair, params: { qty: '10' } }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    commission: { rate: D(0) },
    closeAtEnd: false,
    ...overrides,
  };
}

/** 1m bars of A and of B closing at the same times, both alternating 100 and 110. */
async function pairBarRecordings(): Promise<string[]> {
  const closes = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 100 : 110));
  const rows = closes.map((close, i) => {
    const open = closes[i - 1] ?? 100;
    return [open, Math.max(open, close), Math.min(open, close), close];
  });
  return [await barsRecordingIn(aTempDir(), rows, T0, A), await barsRecordingIn(aTempDir(), rows, T0, B)];
}

function bbo(recvTs: number, sym: string, bid: number): RecordedMessage {
  return {
    recvTs,
    source: 'market-data',
    msg: {
      arg: { channel: 'BBO', sym },
      data: { bid: String(bid), bidqty: '50', ask: String(bid + 0.1), askqty: '50', ts: recvTs },
    },
  };
}

/**
 * Quotes of A and B received at the same times every 100 ms: flat at 100 for 2 s (the pair enters
 * there), then both alternating between 110 and 100 on every update.
 */
async function pairQuoteRecording(): Promise<string> {
  const records: RecordedMessage[] = [];
  for (let i = 0; i < 300; i++) {
    const bid = i < 20 ? 100 : i % 2 === 0 ? 110 : 100;
    records.push(bbo(T0 + i * 100, A, bid), bbo(T0 + i * 100, B, bid));
  }
  const path = join(aTempDir(), 'pair-quotes.jsonl');
  await writeRecording(path, records);
  return path;
}

describe('backtest equity sampling', () => {
  it("measures drawdowns once both syms' bars of a close time are in: a hedged pair whose equity never moves at a close has none", async () => {
    const result = await runBacktest(pairOptions(await pairBarRecordings()));
    expect(result.fills).toHaveLength(2);
    for (const sample of result.equityCurve) expect(sample.equity.toFixed()).toBe('10000');
    expect(result.metrics.maxDrawdown).toBe(0);
    expect(result.metrics.avgDrawdown).toBe(0);
    expect(result.metrics.maxDrawdownDurationMs).toBe(0);
    expect(result.metrics.avgDrawdownDurationMs).toBe(0);
  });

  it("measures drawdowns once both syms' quotes of a time are in: only the spread paid on entry shows", async () => {
    const result = await runBacktest(pairOptions([await pairQuoteRecording()], { equitySampleMs: 1_000 }));
    expect(result.fills).toHaveLength(2);
    // After the entry (the first 2 s) the hedged equity is the same at every time.
    const after = result.equityCurve.filter((s) => s.ts >= T0 + 2_000).map((s) => s.equity.toFixed());
    expect(after.length).toBeGreaterThan(20);
    expect(new Set(after).size).toBe(1);
    const curve = drawdownStats(result.equityCurve);
    expect(curve.maxDrawdown).toBeGreaterThan(0);
    expect(curve.maxDrawdown).toBeLessThan(0.001);
    expect(result.metrics.maxDrawdown).toBeCloseTo(curve.maxDrawdown, 12);
    expect(result.metrics.maxDrawdownDurationMs).toBe(curve.maxDrawdownDurationMs);
  });

  it('gives the same drawdown figures as the equity curve it reports while no bucket merged', async () => {
    const result = await runBacktest(pairOptions([await pairQuoteRecording()], { equitySampleMs: 1_000 }));
    const curve = drawdownStats(result.equityCurve);
    expect(result.metrics.maxDrawdown).toBeCloseTo(curve.maxDrawdown, 12);
    expect(result.metrics.avgDrawdown).toBeCloseTo(curve.avgDrawdown, 12);
    expect(result.metrics.maxDrawdownDurationMs).toBe(curve.maxDrawdownDurationMs);
    expect(result.metrics.avgDrawdownDurationMs).toBe(curve.avgDrawdownDurationMs);
  });

  it('ends the run after the end-of-run close fills, so no trade exits after the end', async () => {
    const result = await runBacktest(pairOptions(await pairBarRecordings(), { closeAtEnd: true }));
    const fills = [...result.fills];
    expect(fills).toHaveLength(4);
    const lastFill = Math.max(...fills.map((f) => f.timestamp));
    const lastEvent = T0 + 20 * 60_000;
    expect(lastFill).toBeGreaterThan(lastEvent);
    expect(result.metrics.end).toBe(lastFill);
    expect(result.equityCurve.at(-1)?.ts).toBe(lastFill);
    for (const trade of result.trades) expect(trade.exitTs).toBeLessThanOrEqual(result.metrics.end);
    // Every round trip lies inside the run: held from its entry to the end, whole.
    const entry = Math.min(...[...result.trades].map((t) => t.entryTs));
    expect(result.metrics.exposureTime).toBeCloseTo(
      (lastFill - entry) / (result.metrics.end - result.metrics.start),
      12,
    );
  });
});

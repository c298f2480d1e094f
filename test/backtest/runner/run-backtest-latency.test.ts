import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resultToJson } from '../../../backtest/report/index.ts';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import type { LatencyOptions } from '../../../backtest/sim/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { quoteRecordAt, TEST_HEADER, tempDir, writeRecording } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = TEST_HEADER.startTime;
const leg = (fixedMs: number, jitterMs = 0) => ({ fixedMs, jitterMs });

/** Buys 0.1 at market on the first quote it sees, sells it at market when the buy's fill arrives; notes when it saw what. */
const seen: string[] = [];
const flipper = defineStrategy<Record<string, never>, { bought: boolean; sold: boolean }>({
  name: 'flipper',
  params: z.object({}).strict(),
  state: () => ({ bought: false, sold: false }),
  onQuote: (ctx, quote) => {
    seen.push(`quote ask ${quote.ask} seen at T0+${ctx.now() - T0}`);
    if (ctx.state.bought) return undefined;
    ctx.state.bought = true;
    return ctx.order.market({ sym: SYM, side: 'BUY', qty: D('0.1') });
  },
  onFill: (ctx, fill) => {
    seen.push(`fill ${fill.side} @ ${fill.price.toFixed()} seen at T0+${ctx.now() - T0}`);
    if (ctx.state.sold) return undefined;
    ctx.state.sold = true;
    return ctx.order.market({ sym: SYM, side: 'SELL', qty: D('0.1') });
  },
});

describe('backtest runner: market-data and User Data latency reach the strategies', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());
  const path = join(temp.dir, 'latency.jsonl');
  beforeAll(async () => {
    // The ask moves every 3 ms: 100.1 at T0, then 101 at T0+3, 102 at T0+6, ... (bids 0.1 below).
    await writeRecording(
      path,
      Array.from({ length: 20 }, (_, i) =>
        quoteRecordAt(3 * i, i === 0 ? '100' : String(99.9 + i), i === 0 ? '100.1' : String(100 + i)),
      ),
    );
  });

  const run = async (latency: LatencyOptions, seed = 1) => {
    seen.length = 0;
    const options: BacktestRunOptions = {
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 'f', strategy: flipper, params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
      fillModel: 'touch',
      latency,
      seed,
    };
    const result = await runBacktest(options);
    const fills = [...result.fills].map((f) => `T0+${f.timestamp - T0} ${f.side} @ ${f.price.toFixed()}`);
    const json = resultToJson(result);
    result.dispose?.();
    return { fills, seen: [...seen], json };
  };

  it("with no latency the strategy acts on the venue's market of the same instant", async () => {
    const { fills, seen: saw } = await run({ orderEntry: leg(0), marketData: leg(0), userData: leg(0) });
    expect(fills).toEqual(['T0+0 BUY @ 100.1', 'T0+0 SELL @ 100']);
    expect(saw.slice(0, 3)).toEqual([
      'quote ask 100.1 seen at T0+0',
      'fill BUY @ 100.1 seen at T0+0',
      'fill SELL @ 100 seen at T0+0',
    ]);
  });

  it('sees each quote a market-data delay late, so its order meets the market of then', async () => {
    // The T0 quote reaches the strategy at T0+5; its order arrives then, when the venue's ask is
    // 101 (quoted at T0+3; the T0+6 quote is still to come).
    const { fills, seen: saw } = await run({ orderEntry: leg(0), marketData: leg(5), userData: leg(0) });
    expect(saw[0]).toBe('quote ask 100.1 seen at T0+5');
    // Filled at T0+5 @ 101 (the ask quoted at T0+3), the fill seen at once, the sell fills at the bid 100.9.
    expect(fills).toEqual(['T0+5 BUY @ 101', 'T0+5 SELL @ 100.9']);
  });

  it('sees its fills a User Data delay late, so what it sends on a fill meets the later market', async () => {
    // Buy at T0 @ 100.1; the fill is seen at T0+7, and the sell arrives then, when the bid is
    // 101.9 (quoted at T0+6).
    const { fills, seen: saw } = await run({ orderEntry: leg(0), marketData: leg(0), userData: leg(7) });
    expect(saw).toContain('fill BUY @ 100.1 seen at T0+7');
    expect(fills).toEqual(['T0+0 BUY @ 100.1', 'T0+7 SELL @ 101.9']);
  });

  it('adds the order-entry delay on top: seen at T0+5, arrives at T0+15', async () => {
    // An order arriving at T0+15 goes before the quote of T0+15 (the venue runs arrivals first):
    // it meets the ask quoted at T0+12, 104.
    const { fills } = await run({ orderEntry: leg(10), marketData: leg(5), userData: leg(0) });
    expect(fills[0]).toBe('T0+15 BUY @ 104');
  });

  it('draws jittered delays from the seed: the same seed gives the same bytes, another seed may differ', async () => {
    const jittery = { orderEntry: leg(2, 5), marketData: leg(1, 7), userData: leg(1, 9) };
    const a = await run(jittery, 3);
    const b = await run(jittery, 3);
    expect(a.json).toBe(b.json);
    const others = await Promise.all([4, 5, 6, 7].map((seed) => run(jittery, seed)));
    expect(others.some((o) => o.fills.join() !== a.fills.join())).toBe(true);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import {
  SYNTHETIC_BTC_PERP,
  SYNTHETIC_MARKETS,
  writeSyntheticSession,
} from '../../../backtest/synthetic/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { deniedIntents, maxAbsPosition, onTick, scriptedBacktest } from '../../kit/scripted-backtests.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const SYM = SYNTHETIC_BTC_PERP.sym;

describe('maxGrossExposure counts open orders', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 3, file: 'session.jsonl.gz' });

  it('bounds the exposure resting orders take on when they fill', async () => {
    // maxGrossExposure 10 000: five marketable BUY 0.1 limits (~9 500 each) in one hook. Each
    // alone fits; the second and later must count the first as filled.
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx, mid) =>
          [0, 1, 2, 3, 4].map(() =>
            ctx.order.limit({ sym: SYM, side: 'BUY', qty: 0.1, price: onTick(mid * 1.001) }),
          ),
      ],
      { limits: { maxGrossExposure: '10000' } },
    );
    expect(deniedIntents(result)).toEqual(Array(4).fill('placeOrder maxGrossExposure'));
    expect(maxAbsPosition(result.fills).toFixed()).toBe('0.1');
  });

  it('nets a resting order against the position it would reduce', async () => {
    // Long 0.1 (~9 500) with a plain SELL 0.1 resting above: filled, it takes exposure to 0, so a
    // BUY 0.001 (~95) still fits in 10 000 (the SELL does not count as adding 9 500).
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx) => ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.1 }),
        () => undefined,
        (ctx, mid) => ctx.order.limit({ sym: SYM, side: 'SELL', qty: 0.1, price: onTick(mid * 1.05) }),
        () => undefined,
        (ctx) => ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.001 }),
      ],
      { limits: { maxGrossExposure: '10000' } },
    );
    expect(deniedIntents(result)).toEqual([]);
    expect([...result.fills].map((f) => `${f.side} ${f.quantity.toFixed()}`)).toEqual([
      'BUY 0.1',
      'BUY 0.001',
    ]);
  });
});

describe('maxGrossExposure after the price moved', () => {
  let dir = '';
  let path = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-gross-'));
    path = join(dir, 'vol.jsonl');
    // The synthetic BTC perpetual at 2000 % annual vol: seed 3 rises from 95 000 to ~115 900.
    const market = {
      ...(SYNTHETIC_MARKETS.find((m) => m.sym === SYM) as (typeof SYNTHETIC_MARKETS)[number]),
      garch: { annualVol: 20, alpha: 0.03, beta: 0.968 },
    };
    await writeSyntheticSession(path, {
      seed: 3,
      startTime: Date.UTC(2024, 0, 1),
      durationMs: 30 * 60_000,
      markets: [market],
    });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('values the held position at the price now, not at its fill price', async () => {
    // maxGrossExposure 10 000. BUY 0.1 at ~95 000 (9 500: passes). Once the mid is at or above
    // 104 500 the position alone is worth >= 10 450: a BUY 0.001 more must be denied. Valued at
    // the fill price, the exposure read 9 500 + 104.5 <= 10 000.
    let midAtSecond = 0;
    const strategy = defineStrategy({
      name: 'gross',
      params: z.object({}),
      state: () => ({ n: 0 }),
      onQuote: (ctx, q) => {
        const mid = (q.bid + q.ask) / 2;
        ctx.state.n += 1;
        if (ctx.state.n === 2) return ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.1 });
        if (ctx.state.n > 2 && midAtSecond === 0 && mid >= 104_500) {
          midAtSecond = mid;
          return ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.001 });
        }
        return undefined;
      },
    });
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [SYNTHETIC_BTC_PERP],
      strategies: [{ id: 's', strategy, params: {} }],
      gate: new RiskGate({ limits: { maxGrossExposure: '10000' } }),
      startingCash: D(10_000_000),
      closeAtEnd: false,
      fillModel: 'touch',
      seed: 1,
    });
    expect(midAtSecond).toBeGreaterThanOrEqual(104_500);
    expect(deniedIntents(result)).toEqual(['placeOrder maxGrossExposure']);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BacktestResult } from '../../../backtest/report/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { instrumentSpecsOf } from '../../../config/compose/instrument-specs.ts';
import { loadValidConfig } from '../../../config/loader/index.ts';
import { defineStrategy, type StrategyContext } from '../../../core/kernel/index.ts';
import { D, type Intent } from '../../../core/model/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { embeddedPaperVenues, runLockstepPaperSession } from '../../kit/embedded-paper-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-sliced-session-');
const startVenue = embeddedPaperVenues();
const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);

/**
 * Long 2.5 at the first closed bar, reversed to short 2.5 at the third, flat at the fifth: each
 * change sent from one onBar call, in market orders of at most `piece`.
 */
function reverser(piece: string) {
  const max = D(piece);
  const orders = (ctx: StrategyContext<unknown, { bars: number }>, side: 'BUY' | 'SELL', qty: string) => {
    const out: Intent[] = [];
    for (let left = D(qty); left.gt(0); left = left.sub(max))
      out.push(ctx.order.market({ sym: SYM, side, qty: left.gt(max) ? max : left }));
    return out;
  };
  return defineStrategy<unknown, { bars: number }>({
    name: 'sliced-reverser',
    params: z.object({}),
    state: () => ({ bars: 0 }),
    onStart: (ctx) => ctx.watchBars(SYM, '1m'),
    onBar: (ctx, bar) => {
      if (!bar.closed) return undefined;
      const n = ctx.state.bars++;
      if (n === 0) return orders(ctx, 'BUY', '2.5');
      if (n === 2) return orders(ctx, 'SELL', '5');
      if (n === 4) return orders(ctx, 'BUY', '2.5');
      return undefined;
    },
  });
}

/** A result's trades and trade statistics, in a form two runs can be compared by. */
function tradesOf(result: BacktestResult) {
  const trades = [...result.trades].map(
    (t) => `${t.direction} ${t.qty.toFixed()} ${t.entryPrice.toFixed()} -> ${t.exitPrice.toFixed()}`,
  );
  const stats = { count: result.metrics.tradeCount, winRate: result.metrics.winRate };
  result.dispose?.();
  return { trades, stats };
}

/** A lockstep paper session of the reverser over the recording. */
async function paperTrades(dir: string, recording: string, piece: string) {
  const file = join(dir, `paper-${piece}.yaml`);
  writeFileSync(
    file,
    `mode: paper
instruments: [${SYM}]
strategies:
  - { id: s, use: market-maker }
paper:
  lockstep: true
  speed: 600
  source: { kind: recording, path: ${JSON.stringify(recording)} }
  startingCash: { USDT: 100000 }
logging: { level: warn }
report: { json: ${JSON.stringify(join(dir, `result-${piece}.json`))}, html: ${JSON.stringify(join(dir, `report-${piece}.html`))} }
`,
  );
  const { config } = loadValidConfig(file);
  const instruments = instrumentSpecsOf(config.instruments);
  const embedded = await startVenue(readFileSync(file, 'utf8'));
  const outcome = await runLockstepPaperSession(
    config,
    embedded,
    [{ id: 's', strategy: reverser(piece) }],
    600,
  );
  return { ...tradesOf(outcome.result), instruments };
}

describe('a paper session of a strategy slicing its orders', () => {
  it('counts the orders of one hook call as one entry or exit, and reports the trades its backtest does', async () => {
    const dir = newDir();
    const closes = [100, 104, 108, 106, 103, 101, 100, 100];
    const recording = await barsRecordingIn(
      dir,
      closes.map((c) => [c, c + 1, c - 1, c]),
      T0,
      SYM,
    );
    const sliced = await paperTrades(dir, recording, '1');
    const whole = await paperTrades(dir, recording, '100');
    const { instruments, ...slicedTrades } = sliced;
    expect(whole.trades.map((t) => t.split(' ').slice(0, 2).join(' '))).toEqual(['LONG 2.5', 'SHORT 2.5']);
    // Before, each piece of a session's order was an order of its own: 3 long and 5 short trades.
    expect(slicedTrades).toEqual({ trades: whole.trades, stats: whole.stats });
    const backtest = tradesOf(
      await runBacktest({
        ...barRunOptions(recording, instruments, [{ id: 's', strategy: reverser('1'), params: {} }]),
        startingCash: D(100_000),
      }),
    );
    expect(backtest).toEqual(slicedTrades);
  }, 90_000);
});

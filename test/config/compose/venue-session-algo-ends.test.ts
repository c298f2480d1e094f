import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadValidConfig } from '../../../config/loader/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { embeddedPaperVenues, runLockstepPaperSession } from '../../kit/embedded-paper-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-algo-ends-');
const startVenue = embeddedPaperVenues();
const SYM = 'BINANCE_PERP_BTC_USDT';

describe("a paper session's own algo orders", () => {
  it('leave openAlgoOrders() when one fires (before the bar that fired it) and when a cancel of all ends them', async () => {
    const dir = newDir();
    const t0 = Date.UTC(2024, 0, 1);
    // Flat at 100, a fall to 45 at bar 5 that fires the stop at 50, then flat at 45.
    const recording = await barsRecordingIn(
      dir,
      [
        ...Array.from({ length: 5 }, () => [100, 101, 99, 100]),
        [100, 100, 40, 45],
        ...Array.from({ length: 8 }, () => [45, 46, 44, 45]),
      ],
      t0,
      SYM,
    );
    const file = join(dir, 'algos-paper.yaml');
    // 1m bars acknowledged 600 times faster than real time (100 ms each): the cancel's replies
    // and reads (over REST, which lockstep does not wait for) are in well before the end.
    writeFileSync(
      file,
      `mode: paper
instruments: [${SYM}]
strategies:
  - { id: algos, use: market-maker }
paper:
  lockstep: true
  speed: 600
  source: { kind: recording, path: ${JSON.stringify(recording)} }
  startingCash: { USDT: 100000 }
logging: { level: warn }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
    );
    const { config } = loadValidConfig(file);
    const embedded = await startVenue(readFileSync(file, 'utf8'));
    /** Each bar's open time (minutes from the first) with the strategy's open algo orders then. */
    const seen: string[] = [];
    let atStop = '';
    const listed = (algos: readonly { conditionType: string; triggerPrice: { toFixed(): string } }[]) =>
      algos
        .map((a) => `${a.conditionType} ${a.triggerPrice.toFixed()}`)
        .sort()
        .join(', ');
    // A sell stop at 50 and a buy stop at 150 on the first bar; a cancel of all of them at bar 7.
    const strategy = defineStrategy<Record<string, never>, { bars: number }>({
      name: 'algos',
      params: z.object({}),
      state: () => ({ bars: 0 }),
      onStart: (ctx) => ctx.watchBars(SYM, '1m'),
      onBar: (ctx, bar) => {
        if (!bar.closed) return undefined;
        seen.push(`${(bar.openTime - t0) / 60_000}: ${listed(ctx.openAlgoOrders(SYM))}`);
        ctx.state.bars++;
        if (ctx.state.bars === 1)
          return [
            ctx.order.algo({ sym: SYM, side: 'SELL', qty: '0.1', triggerPrice: 50, condition: 'LTE' }),
            ctx.order.algo({ sym: SYM, side: 'BUY', qty: '0.1', triggerPrice: 150, condition: 'GTE' }),
          ];
        if (ctx.state.bars === 8) return ctx.order.cancelAllAlgos({ sym: SYM });
        return undefined;
      },
      onStop: (ctx) => {
        atStop = listed(ctx.openAlgoOrders());
        return undefined;
      },
    });
    const outcome = await runLockstepPaperSession(config, embedded, [{ id: 'algos', strategy }], 600);
    expect(seen[4]).toBe('4: GTE 150, LTE 50');
    // The order the stop sent at bar 5 arrived before bar 5 did, naming it: it is TRIGGERED, as
    // in a backtest, not listed until a reconciliation.
    expect(seen[5]).toBe('5: GTE 150');
    // The cancel of all at bar 7 named nothing; the algo order it ended was read back.
    expect(seen.slice(-2)).toEqual(['12: ', '13: ']);
    expect(atStop).toBe('');
    expect(
      [...(outcome.result.algoOrders ?? [])].map((a) => `${a.conditionType} ${a.state} ${a.strategyId}`),
    ).toEqual(['LTE TRIGGERED algos', 'GTE CANCELLED algos']);
    outcome.result.dispose?.();
  }, 60_000);
});

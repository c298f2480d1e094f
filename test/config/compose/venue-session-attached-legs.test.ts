import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AlgoOrderRecord } from '../../../backtest/report/index.ts';
import { runConfiguredBacktest } from '../../../config/compose/backtest-run.ts';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { strategySlots } from '../../../config/compose/strategy-plugins.ts';
import { formatConfigProblem, loadConfig, loadValidConfig } from '../../../config/loader/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { embeddedPaperVenues, runLockstepPaperSession } from '../../kit/embedded-paper-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-attached-legs-');
const startVenue = embeddedPaperVenues();
const SYM = 'BINANCE_PERP_BTC_USDT';

/**
 * 1m bars: flat at 100, a close at 102 above the 5-bar trend (the bracket buys with tp +0.2 % and
 * sl -0.2 % attached), a quiet bar (the entry fills at its open, 102: the legs are placed), a
 * fall to 90 (the stop-loss fires, the take-profit is cancelled with it), then flat at 90.
 */
const BARS = [
  ...Array.from({ length: 6 }, () => [100, 101, 99, 100]),
  [100, 102.5, 100, 102],
  [102, 102.1, 101.9, 102],
  [102, 102, 89, 90],
  ...Array.from({ length: 4 }, () => [90, 90.5, 89.5, 90]),
];

async function backtestOf(file: string, recording: string) {
  writeFileSync(
    file,
    `mode: backtest
instruments: [${SYM}]
strategies:
  - id: brk
    use: bracket
    params: { sym: ${SYM}, interval: 1m, qty: 0.1, trendBars: 5, takeProfit: 0.002, stopLoss: 0.002, exits: attached }
backtest:
  recordings: [${JSON.stringify(recording)}]
  startingCash: { USDT: 100000 }
  latency: { fixedMs: 0, jitterMs: 0 }
  closeAtEnd: false
  eventCache: false
`,
  );
  const loaded = loadConfig(file);
  if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
  const slots = await strategySlots(loaded);
  if (!slots.ok) throw new Error(slots.problems.map(formatConfigProblem).join('\n'));
  return runConfiguredBacktest(loaded, { slots: slots.slots });
}

describe('a paper session whose orders carry take-profit / stop-loss legs', () => {
  it('lists the legs as algo orders, as the venue reported them, like a backtest of the same data', async () => {
    const dir = newDir();
    const recording = await barsRecordingIn(dir, BARS, Date.UTC(2024, 0, 1), SYM);
    const json = join(dir, 'result.json');
    const file = join(dir, 'bracket-paper.yaml');
    writeFileSync(
      file,
      `mode: paper
instruments: [${SYM}]
strategies:
  - id: brk
    use: bracket
    params: { sym: ${SYM}, interval: 1m, qty: 0.1, trendBars: 5, takeProfit: 0.002, stopLoss: 0.002, exits: attached }
paper:
  lockstep: true
  speed: 100000
  source: { kind: recording, path: ${JSON.stringify(recording)} }
  startingCash: { USDT: 100000 }
logging: { level: warn }
report: { json: ${JSON.stringify(json)}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
    );
    const loaded = loadConfig(file);
    if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
    const outcome = await runConfiguredSession(loaded, { handleSignals: false });
    if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
    const orders = [...outcome.result.orders];
    const entry = orders.find((o) => o.tp !== undefined);
    expect(entry?.orderState).toBe('FILLED');
    const legs = [...(outcome.result.algoOrders ?? [])];
    expect(
      legs.map((a) => [
        a.algoOrderType,
        a.side,
        a.qty.toFixed(),
        a.triggerPrice.toFixed(),
        a.state,
        a.strategyId,
      ]),
    ).toEqual([
      ['TP_SL', 'SELL', '0.1', '102.2', 'CANCELLED', 'brk'],
      ['TP_SL', 'SELL', '0.1', '101.8', 'TRIGGERED', 'brk'],
    ]);
    expect(legs.every((a) => a.attachedOrderId === entry?.orderId)).toBe(true);
    // The stop-loss names the order it sent, which names it back.
    const sent = orders.find((o) => o.orderId === legs[1]?.orderId);
    expect(sent?.algoOrderId).toBe(legs[1]?.algoOrderId);
    // The result file and its CSV list them too.
    const written = JSON.parse(readFileSync(json, 'utf8')) as { algoOrders: { state: string }[] };
    expect(written.algoOrders.map((a) => a.state)).toEqual(['CANCELLED', 'TRIGGERED']);
    expect(readFileSync(join(dir, 'result.algo-orders.csv'), 'utf8').trim().split('\n')).toHaveLength(3);
    // A backtest of the same bars (with the same zero latency) lists the same legs, ending the
    // same way, step for step: in lockstep the session reads them from the venue's history before
    // it acknowledges the event that filled their entry, and again once one fired.
    const backtest = await backtestOf(file.replace('bracket-paper', 'bracket-backtest'), recording);
    const ends = (algos: Iterable<AlgoOrderRecord>) =>
      [...algos].map(
        (a) =>
          `${a.clientAlgoOrderId.replace(/-[0-9a-z]{8}-/, '-')} ${a.state} ${a.triggerPrice.toFixed()} ${a.qty.toFixed()} ${a.updateAt}`,
      );
    const backtestLegs = [...(backtest.algoOrders ?? [])];
    expect(ends(legs)).toEqual(ends(backtestLegs));
    const steps = (algos: Iterable<AlgoOrderRecord>) =>
      [...algos].map((a) => a.steps.map((s) => `${s.ts} ${s.state}`));
    expect(steps(legs)).toEqual(steps(backtestLegs));
    backtest.dispose?.();
    outcome.result.dispose?.();
  }, 60_000);

  it("lists the legs in the strategy's openAlgoOrders() once its entry filled, before the next event, and lets it cancel one", async () => {
    const dir = newDir();
    const t0 = Date.UTC(2024, 0, 1);
    // Flat at 100, then a fall to 45 at bar 5 that fires the stop-loss at 50.
    const recording = await barsRecordingIn(
      dir,
      [
        ...Array.from({ length: 5 }, () => [100, 101, 99, 100]),
        [100, 100, 40, 45],
        [45, 46, 44, 45],
        [45, 46, 44, 45],
      ],
      t0,
      SYM,
    );
    const file = join(dir, 'legs-paper.yaml');
    writeFileSync(
      file,
      `mode: paper
instruments: [${SYM}]
strategies:
  - { id: legs, use: market-maker }
paper:
  lockstep: true
  speed: 100000
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
    let atStop: string[] = [];
    const listed = (algos: readonly { conditionType: string; triggerPrice: { toFixed(): string } }[]) =>
      algos.map((a) => `${a.conditionType} ${a.triggerPrice.toFixed()}`).join(', ');
    // A BUY with tp 150 / sl 50 on the first bar, then the take-profit cancelled as soon as it is listed.
    const strategy = defineStrategy<Record<string, never>, { entered: boolean; cancelled: boolean }>({
      name: 'legs',
      params: z.object({}),
      state: () => ({ entered: false, cancelled: false }),
      onStart: (ctx) => ctx.watchBars(SYM, '1m'),
      onBar: (ctx, bar) => {
        if (!bar.closed) return undefined;
        const algos = ctx.openAlgoOrders(SYM);
        seen.push(`${(bar.openTime - t0) / 60_000}: ${listed(algos)}`);
        if (!ctx.state.entered) {
          ctx.state.entered = true;
          return ctx.order.market({
            sym: SYM,
            side: 'BUY',
            qty: '0.1',
            tp: { triggerPrice: 150 },
            sl: { triggerPrice: 50 },
          });
        }
        const tp = algos.find((a) => a.conditionType === 'GTE');
        if (tp === undefined || ctx.state.cancelled) return undefined;
        ctx.state.cancelled = true;
        return ctx.order.cancelAlgo(tp.clientAlgoOrderId);
      },
      onStop: (ctx) => {
        atStop = [listed(ctx.openAlgoOrders())];
        return undefined;
      },
    });
    const outcome = await runLockstepPaperSession(config, embedded, [{ id: 'legs', strategy }], 100_000);
    // The entry fills at bar 1 (the venue's next event); its legs are read before that event
    // reaches the strategy, so it sees them at bar 1 on every run, as in a backtest.
    expect(seen.slice(0, 2)).toEqual(['0: ', '1: GTE 150, LTE 50']);
    // The cancel's reply took the take-profit off (its reply arrives with bar 2 or after it)...
    expect(seen.slice(3, 5)).toEqual(['3: LTE 50', '4: LTE 50']);
    // ...and the stop-loss is no longer listed once the order it sent at bar 5 arrived, before bar 5.
    expect(seen.slice(5)).toEqual(['5: ', '6: ', '7: ']);
    expect(atStop).toEqual(['']);
    expect(
      [...(outcome.result.algoOrders ?? [])].map((a) => `${a.conditionType} ${a.state} ${a.strategyId}`),
    ).toEqual(['GTE CANCELLED legs', 'LTE TRIGGERED legs']);
    outcome.result.dispose?.();
  }, 60_000);
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AlgoOrderRecord } from '../../../backtest/report/index.ts';
import { runConfiguredBacktest } from '../../../config/compose/backtest-run.ts';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { strategySlots } from '../../../config/compose/strategy-plugins.ts';
import { formatConfigProblem, loadConfig } from '../../../config/loader/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-attached-legs-');
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
    // A backtest of the same bars lists the same legs, ending the same way. The session learned
    // of them from the venue's history after they ended (lockstep runs on meanwhile): it lists
    // only the states the venue reported, none it did not.
    const backtest = await backtestOf(file.replace('bracket-paper', 'bracket-backtest'), recording);
    const ends = (algos: Iterable<AlgoOrderRecord>) =>
      [...algos].map(
        (a) =>
          `${a.clientAlgoOrderId.replace(/-[0-9a-z]{8}-/, '-')} ${a.state} ${a.triggerPrice.toFixed()} ${a.qty.toFixed()} ${a.updateAt}`,
      );
    const backtestLegs = [...(backtest.algoOrders ?? [])];
    expect(ends(legs)).toEqual(ends(backtestLegs));
    legs.forEach((leg, i) => {
      const known = new Set(backtestLegs[i]?.steps.map((s) => `${s.ts} ${s.state}`));
      for (const step of leg.steps) expect(known).toContain(`${step.ts} ${step.state}`);
    });
    backtest.dispose?.();
    outcome.result.dispose?.();
  }, 60_000);
});

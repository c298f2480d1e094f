import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConfiguredBacktest } from '../../../config/compose/backtest-run.ts';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { strategySlots } from '../../../config/compose/strategy-plugins.ts';
import { formatConfigProblem, loadConfig } from '../../../config/loader/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const PLUGIN = resolve('test/config/fixtures/loan-short-buy-back-plugin.ts');
const ETH = 'OKX_SPOT_ETH_USDT';
const T0 = Date.UTC(2025, 0, 6);
const newDir = tempDirsRemovedAfterEach('keel-session-holding-spends-');

/**
 * Borrow 5 ETH at bar 1 and sell them at bar 2; buy back 5.002 at bar 190 (principal and four
 * hours of interest: the repay comes into the fourth hour, which it pays); repay 5 at bar 192.
 */
const SETUP = `instruments:
  - sym: ${ETH}
    overrides: { tickSize: 0.01, lotSize: 0.0001, makerFee: 0, takerFee: 0 }
strategies:
  - id: s
    use: ${JSON.stringify(PLUGIN)}
    params: { sym: ${ETH}, exchange: OKX, coin: ETH, amount: "5", buyBackBar: 190, buyBack: "5.002" }
`;
// 87.6 % a year on 5 ETH: 0.0005 ETH an hour.
const LOANS = "  loans: { assets: { 'OKX:ETH': { annualRate: 0.876, userQuota: 100 } } }\n";

type Trade = {
  direction: string;
  qty: { toFixed(): string };
  entryPrice: { toFixed(): string };
  exitPrice: { toFixed(): string };
};
const tradeLines = (trades: Iterable<Trade>) =>
  [...trades].map(
    (t) => `${t.direction} ${t.qty.toFixed()} ${t.entryPrice.toFixed()}->${t.exitPrice.toFixed()}`,
  );

function loaded(file: string, text: string) {
  writeFileSync(file, text);
  const config = loadConfig(file);
  if (!config.ok) throw new Error(config.problems.map(formatConfigProblem).join('\n'));
  return config;
}

describe('a paper session that pays loan interest in the coin it sold short', () => {
  it('takes the interest out of the trade list as its backtest does: one short of 5.0015 closed whole, no open lot (hand-computed)', async () => {
    const dir = newDir();
    const recording = await flatBarsRecordingIn(dir, 200, T0, ETH);
    const paper = loaded(
      join(dir, 'paper.yaml'),
      `mode: paper
${SETUP}paper:
  lockstep: true
  speed: 100000
  source: { kind: recording, path: ${JSON.stringify(recording)} }
  fillModel: bar
  startingCash: { USDT: 1000 }
${LOANS}logging: { level: error }
metrics: { enabled: false }
report: { json: ${JSON.stringify(join(dir, 'paper.json'))}, html: ${JSON.stringify(join(dir, 'paper.html'))} }
`,
    );
    const outcome = await runConfiguredSession(paper, { handleSignals: false, durationSec: 60 });
    if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
    const session = outcome.result;
    const backtestConfig = loaded(
      join(dir, 'backtest.yaml'),
      `mode: backtest
${SETUP}backtest:
  recordings: [${JSON.stringify(recording)}]
  startingCash: { USDT: 1000 }
  fillModel: bar
  latency: { fixedMs: 0, jitterMs: 0 }
  closeAtEnd: false
  eventCache: false
${LOANS}report: { json: ${JSON.stringify(join(dir, 'backtest.json'))}, html: ${JSON.stringify(join(dir, 'backtest.html'))} }
`,
    );
    const slots = await strategySlots(backtestConfig);
    if (!slots.ok) throw new Error(slots.problems.map(formatConfigProblem).join('\n'));
    const backtest = await runConfiguredBacktest(backtestConfig, { slots: slots.slots });
    try {
      expect([...session.fills].map((f) => `${f.side} ${f.quantity.toFixed()}@${f.price.toFixed()}`)).toEqual(
        ['SELL 5@100', 'BUY 5.002@100'],
      );
      const interest = (session.cashFlows ?? []).filter((f) => f.kind === 'DEDUCT_INTEREST');
      expect(interest.map((f) => `${f.asset} ${f.amount.toFixed()}`)).toEqual([
        'ETH -0.0005',
        'ETH -0.0005',
        'ETH -0.0005',
        'ETH -0.0005',
      ]);
      // Sold 5, the interest took 0.0015 more out of the holding (the short grew at its price),
      // the buy-back of 5.002 closed it whole and the repay's fourth hour took the 0.0005 it bought
      // beyond: nothing is left open.
      expect(tradeLines(session.trades)).toEqual(['SHORT 5.0015 100->100']);
      expect(session.openTrades ?? []).toEqual([]);
      expect(tradeLines(session.trades)).toEqual(tradeLines(backtest.trades));
      expect(backtest.openTrades ?? []).toEqual([]);
      const json = JSON.parse(readFileSync(join(dir, 'paper.json'), 'utf8')) as { openTrades?: unknown[] };
      expect(json.openTrades ?? []).toEqual([]);
    } finally {
      session.dispose?.();
      backtest.dispose?.();
    }
  }, 90_000);
});

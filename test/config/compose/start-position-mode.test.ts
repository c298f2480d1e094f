import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConfiguredBacktest } from '../../../config/compose/backtest-run.ts';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { strategySlots } from '../../../config/compose/strategy-plugins.ts';
import { formatConfigProblem, loadConfig } from '../../../config/loader/index.ts';
import { quoteRecordAt, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const HEDGE_LEGS = JSON.stringify(resolve('test/config/fixtures/hedge-legs-plugin.ts'));
const SYM = 'BINANCE_PERP_BTC_USDT';
const newDir = tempDirsRemovedAfterEach('keel-position-mode-');

function loaded(dir: string, yaml: string) {
  const file = join(dir, 'run.yaml');
  writeFileSync(file, yaml);
  const config = loadConfig(file);
  if (!config.ok) throw new Error(config.problems.map(formatConfigProblem).join('\n'));
  return config;
}

async function backtestFills(positionModeLine: string): Promise<string[]> {
  const dir = newDir();
  const recording = join(dir, 'quotes.jsonl');
  await writeRecording(
    recording,
    Array.from({ length: 10 }, (_, i) => quoteRecordAt(100 * i, '100', '100.1')),
  );
  const config = loaded(
    dir,
    `mode: backtest
instruments: [${SYM}]
strategies:
  - { id: h, use: ${HEDGE_LEGS}, params: { sym: ${SYM}, qty: "0.5" } }
backtest:
  recordings: [${JSON.stringify(recording)}]
  startingCash: { USDT: 10000 }
  fillModel: touch
  closeAtEnd: false
  eventCache: false
${positionModeLine}`,
  );
  const slots = await strategySlots(config);
  if (!slots.ok) throw new Error(slots.problems.map(formatConfigProblem).join('\n'));
  const result = await runConfiguredBacktest(config, { slots: slots.slots });
  const fills = [...result.fills].map((f) => `${f.side} ${f.positionSide} ${f.quantity.toFixed()}`);
  result.dispose?.();
  return fills;
}

describe('the position mode a run starts in', () => {
  it('backtest.positionMode BOTH lets a strategy open both legs from its first quote', async () => {
    expect(await backtestFills('  positionMode: BOTH\n')).toEqual(['BUY LONG 0.5', 'SELL SHORT 0.5']);
  });

  it('a backtest starts in NET mode by default, where orders for a leg are refused', async () => {
    expect(await backtestFills('')).toEqual([]);
  });

  it('paper.positionMode BOTH starts the paper venue in hedge mode', async () => {
    const dir = newDir();
    const config = loaded(
      dir,
      `mode: paper
instruments: [${SYM}]
strategies:
  - { id: h, use: ${HEDGE_LEGS}, params: { sym: ${SYM}, qty: "0.01" } }
paper:
  lockstep: true
  durationSec: 2
  source: { kind: synthetic, seed: 1 }
  positionMode: BOTH
logging: { level: warn }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
    );
    const outcome = await runConfiguredSession(config, { handleSignals: false });
    if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
    const fills = [...outcome.result.fills].map((f) => `${f.side} ${f.positionSide} ${f.quantity.toFixed()}`);
    outcome.result.dispose?.();
    expect(fills).toEqual(['BUY LONG 0.01', 'SELL SHORT 0.01']);
  }, 30_000);
});

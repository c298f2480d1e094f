import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRecordBatches } from '../../backtest/recording/index.ts';
import type { BacktestResult } from '../../backtest/report/index.ts';
import { runConfiguredBacktest } from '../../config/compose/backtest-run.ts';
import { loadValidConfig } from '../../config/loader/index.ts';
import type { StrategySlot } from '../../core/kernel/index.ts';
import { quoteRecordAt } from './recording-files.ts';

/**
 * Five BTC quotes a second apart from the list feed's start: the first two at 95 000.1 / .3, the
 * last three at 94 980 / 94 985 (a BUY resting at 94 990 on the first fills on the third).
 */
export const QUOTES_A_SECOND_APART = [
  quoteRecordAt(0, '95000.1', '95000.3'),
  quoteRecordAt(1_000, '95000.1', '95000.3'),
  quoteRecordAt(2_000, '94980', '94985'),
  quoteRecordAt(3_000, '94980', '94985'),
  quoteRecordAt(4_000, '94980', '94985'),
];

/**
 * The receive times of the BBO frames a session recorded, in file order.
 * @param recording - the session's recording
 * @returns the times, epoch ms
 */
export async function recordedBboTimes(recording: string): Promise<number[]> {
  const recorded: number[] = [];
  for await (const batch of readRecordBatches(recording))
    for (const record of batch)
      if (
        record.source === 'market-data' &&
        (record.msg as { arg?: { channel?: string } }).arg?.channel === 'BBO'
      )
        recorded.push(record.recvTs);
  return recorded;
}

/**
 * The backtest of a paper session's recording as `config/examples/replay-paper-session.yaml`
 * makes it for a lockstep session of the list feed (touch fills, no latency, positions left open).
 * @param dir - where its config goes
 * @param sym - the one instrument
 * @param recording - the session's recording
 * @param slot - the strategy, as the session ran it
 * @returns the result
 */
export function backtestOfSessionRecording(
  dir: string,
  sym: string,
  recording: string,
  slot: StrategySlot,
): Promise<BacktestResult> {
  const file = join(dir, 'backtest.yaml');
  writeFileSync(
    file,
    `mode: backtest
instruments: [${sym}]
strategies:
  - { id: ${slot.id}, use: market-maker }
backtest:
  recordings: [${JSON.stringify(recording)}]
  startingCash: { USDT: 100000 }
  fillModel: touch
  latency: { fixedMs: 0, jitterMs: 0 }
  closeAtEnd: false
  eventCache: false
`,
  );
  return runConfiguredBacktest(loadValidConfig(file), { slots: [slot] });
}

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRecordBatches } from '../../backtest/recording/index.ts';
import type { BacktestResult } from '../../backtest/report/index.ts';
import { runConfiguredBacktest } from '../../config/compose/backtest-run.ts';
import { loadValidConfig } from '../../config/loader/index.ts';
import type { StrategySlot } from '../../core/kernel/index.ts';

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

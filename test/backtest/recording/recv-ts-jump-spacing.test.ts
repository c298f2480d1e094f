import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOhlcvCsv } from '../../../backtest/csv/index.ts';
import { type RecordingWarning, readEvents } from '../../../backtest/recording/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

// A receive-time jump past 30 days is warned when it goes back, or forward far beyond the
// recording's usual step: daily bars across a halted month are not; a stray record is.
const aTempDir = tempDirsRemovedAfterAll('keel-recv-jump-');
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);

/** Daily bars: 60 days, a 40-day halt, then 30 days more. */
async function dailyBarsWithHalt(dir: string): Promise<string> {
  const days = [...Array.from({ length: 60 }, (_, i) => i), ...Array.from({ length: 30 }, (_, i) => 100 + i)];
  const csv = [
    'timestamp,open,high,low,close,volume',
    ...days.map((d) => `${T0 + d * DAY},100,101,99,100,10`),
  ];
  writeFileSync(join(dir, 'daily.csv'), `${csv.join('\n')}\n`);
  const output = join(dir, 'daily.jsonl');
  await importOhlcvCsv({ input: join(dir, 'daily.csv'), output, sym: 'US_EQUITY_SPY' });
  return output;
}

async function jumpsIn(path: string): Promise<RecordingWarning[]> {
  const jumps: RecordingWarning[] = [];
  for await (const _ of readEvents(path, decodeMarketRecord, { onTimeJump: (w) => jumps.push(w) })) {
    // read through
  }
  return jumps;
}

/** Appends a copy of the recording's last record with its recvTs moved by `byMs`. */
function appendStray(path: string, byMs: number): void {
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1) ?? '{}') as { recvTs: number };
  appendFileSync(path, `${JSON.stringify({ ...last, recvTs: last.recvTs + byMs })}\n`);
}

describe('receive-time jump warnings', () => {
  it('do not fire on daily bars across a halted month', async () => {
    expect(await jumpsIn(await dailyBarsWithHalt(aTempDir()))).toEqual([]);
  });

  it('fire on a record stamped decades ahead of daily bars', async () => {
    const path = await dailyBarsWithHalt(aTempDir());
    appendStray(path, 40 * 365 * DAY);
    expect((await jumpsIn(path)).map((w) => w.kind)).toEqual(['time-jump']);
  });

  it('fire on a jump back of more than 30 days', async () => {
    const path = await dailyBarsWithHalt(aTempDir());
    appendStray(path, -31 * DAY);
    expect((await jumpsIn(path)).map((w) => w.kind)).toEqual(['time-jump']);
  });
});

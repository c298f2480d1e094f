import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../../backtest/paper-venue/index.ts';
import { readRecords } from '../../../../backtest/recording/index.ts';
import { recordCommand } from '../../../../config/cli/commands/record-command.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';
import { aPaperVenue, closedAfterEachTest } from '../../../kit/paper-venue-builders.ts';
import { recordConfig } from '../../../kit/record-config.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const opened = closedAfterEachTest();
const aDir = tempDirsRemovedAfterEach('keel-record-signals-');

/** Starts `keel record` of a live config against `venue` into `out`, for up to 20 s. */
function recording(venue: PaperVenue, out: string) {
  const dir = aDir();
  const file = join(dir, 'rec.yaml');
  const parsed = recordConfig(venue, file);
  const io = { stdout: '', stderr: '' };
  const code = recordCommand(
    { config: parsed.config, file, dir, source: parsed.source } as never,
    { out: join(dir, out), durationSec: 20 },
    {
      stdout: { write: (text: string) => (io.stdout += text) },
      stderr: { write: (text: string) => (io.stderr += text) },
    } as never,
  );
  return { code, io, path: join(dir, out) };
}

/** The market-data frames a recording holds (its header aside), read to its end. */
async function framesIn(path: string): Promise<number> {
  let frames = 0;
  for await (const _ of readRecords(path)) frames++;
  return frames;
}

describe('keel record stopped by a signal', () => {
  // A closed terminal killed it outright: the recording's last second lost, a gzip cut off.
  it('on SIGHUP closes the recording whole, as on SIGTERM, and exits 129', async () => {
    opened.venue = await aPaperVenue();
    const venue = opened.venue;
    const run = recording(venue, 'hangup.jsonl');
    // Under way once frames reach the file (written at least every second).
    for (let i = 0; i < 100; i++) {
      venue.feed.step(1);
      await sleep(100);
      if (existsSync(run.path) && readFileSync(run.path, 'utf8').split('\n').length > 2) break;
    }
    process.emit('SIGHUP');
    expect(await run.code, run.io.stderr).toBe(EXIT.HANGUP);
    const frames = await framesIn(run.path);
    expect(frames).toBeGreaterThan(0);
    expect(run.io.stdout).toBe(`✔ ${frames} market-data frames recorded to ${run.path}\n`);
  }, 30_000);

  // Its handlers came only once connected: a signal while it started killed it.
  it('on a SIGTERM while it starts, stops once that step is done, with its recording closed, and exits 143', async () => {
    opened.venue = await aPaperVenue();
    const run = recording(opened.venue, 'start-up.jsonl.gz');
    process.emit('SIGTERM');
    expect(await run.code, run.io.stderr).toBe(EXIT.TERMINATED);
    const frames = await framesIn(run.path);
    expect(run.io.stdout).toBe(`✔ ${frames} market-data frames recorded to ${run.path}\n`);
  }, 30_000);
});

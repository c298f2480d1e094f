import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listFeed, type PaperVenue } from '../../../../backtest/paper-venue/index.ts';
import { RecordingWriter, readRecords } from '../../../../backtest/recording/index.ts';
import { recordCommand } from '../../../../config/cli/commands/record-command.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';
import { MarketDataClient } from '../../../../core/venue/index.ts';
import { aPaperVenue, closedAfterEachTest, T0 } from '../../../kit/paper-venue-builders.ts';
import { bboPush } from '../../../kit/paper-venue-client.ts';
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

  afterEach(() => {
    vi.restoreAllMocks();
  });

  // The first signal's close took down the connection before it wrote the buffered frames: a
  // second Ctrl-C then fell to the launcher's handler, which ended the process with them unwritten.
  it('on a second SIGINT while it closes, writes the frames it buffered before it ends with 130', async () => {
    // Quotes enough for the recording to go on while it closes.
    const quotes = Array.from({ length: 500 }, (_, i) =>
      bboPush('BINANCE_PERP_BTC_USDT', '100.0', '100.1', T0 + i * 1000),
    );
    opened.venue = await aPaperVenue({ feed: listFeed(quotes) });
    const venue = opened.venue;
    // The recording's path, once the run started (after the launcher's listener).
    let path = '';
    const linesIn = () => readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
    // What the process held on disk when it would have ended, and with which code.
    const exits: { code: number; lines: number }[] = [];
    // bin/keel.js's listener (bin/unheld-signals.js), there before the command's: a signal no
    // other listener holds ends the process.
    const launcher = () => {
      if (process.listenerCount('SIGINT') === 1) exits.push({ code: 130, lines: linesIn() });
    };
    process.on('SIGINT', launcher);
    vi.spyOn(process, 'exit').mockImplementation(((code: number) => {
      exits.push({ code, lines: linesIn() });
    }) as never);
    // Frames appended since the writer last wrote its buffer.
    let buffered = 0;
    const appendRaw = RecordingWriter.prototype.appendRaw;
    vi.spyOn(RecordingWriter.prototype, 'appendRaw').mockImplementation(function (
      this: RecordingWriter,
      ...args: Parameters<RecordingWriter['appendRaw']>
    ) {
      buffered++;
      appendRaw.apply(this, args);
    });
    const flush = RecordingWriter.prototype.flush;
    vi.spyOn(RecordingWriter.prototype, 'flush').mockImplementation(function (this: RecordingWriter) {
      buffered = 0;
      flush.call(this);
    });
    // The second Ctrl-C comes while the first one's close is under way, with frames buffered.
    const close = MarketDataClient.prototype.close;
    let closing = false;
    vi.spyOn(MarketDataClient.prototype, 'close').mockImplementation(async function (this: MarketDataClient) {
      if (closing) return close.call(this);
      closing = true;
      for (let i = 0; i < 100 && buffered === 0; i++) {
        venue.feed.step(1);
        await sleep(20);
      }
      expect(buffered).toBeGreaterThan(0);
      process.emit('SIGINT');
      return close.call(this);
    });
    try {
      const run = recording(venue, 'second.jsonl');
      path = run.path;
      for (let i = 0; i < 100; i++) {
        venue.feed.step(1);
        await sleep(100);
        if (existsSync(path) && linesIn() > 2) break;
      }
      process.emit('SIGINT');
      expect(await run.code, run.io.stderr).toBe(EXIT.INTERRUPTED);
    } finally {
      process.off('SIGINT', launcher);
    }
    expect(exits).toEqual([{ code: 130, lines: linesIn() }]);
  }, 30_000);
});

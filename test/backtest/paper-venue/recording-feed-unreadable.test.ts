import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewFeed, recordingFeed } from '../../../backtest/paper-venue/index.ts';
import { type RecordingWarning, UnreadableRecordingError } from '../../../backtest/recording/index.ts';
import { bboRecord, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-feed-unreadable-');

/** A recording of `records` followed by `lines`. */
async function recordingWith(records: number, lines: readonly string[]): Promise<string> {
  const path = join(tempDir(), 'feed.jsonl');
  await writeRecording(
    path,
    Array.from({ length: records }, (_, i) => bboRecord(i)),
  );
  writeFileSync(path, `${readFileSync(path, 'utf8')}${lines.map((line) => `${line}\n`).join('')}`);
  return path;
}

// A paper session (keel run, keel record) or `keel venue` replaying a file that is not a Keel
// recording served no market data and said only that it had skipped lines.
describe("a paper venue's recording feed", () => {
  it('fails, as a backtest of it does, when none of its lines is market data Keel can read', async () => {
    const path = await recordingWith(0, ['a,b,c', '1,2,3']);
    const told: RecordingWarning[] = [];
    const preview = previewFeed(
      recordingFeed(path, (warning) => told.push(warning)),
      5,
    );
    await expect(preview).rejects.toBeInstanceOf(UnreadableRecordingError);
    await expect(preview).rejects.toThrow(
      `${path} holds no market data Keel can read: 2 lines after its header are malformed`,
    );
    expect(told.map((warning) => warning.line)).toEqual([2, 3]);
  });

  it('fails again when the venue reads it again (each read is judged on its own)', async () => {
    const path = await recordingWith(0, ['a,b,c']);
    const feed = recordingFeed(path, () => undefined);
    await expect(previewFeed(feed, 5)).rejects.toBeInstanceOf(UnreadableRecordingError);
    await expect(previewFeed(feed, 5)).rejects.toBeInstanceOf(UnreadableRecordingError);
  });

  it('replays what it can read when only some lines are malformed, and nothing, quietly, when it has none', async () => {
    expect(
      await previewFeed(
        recordingFeed(await recordingWith(2, ['a,b,c']), () => undefined),
        5,
      ),
    ).toHaveLength(2);
    expect(
      await previewFeed(
        recordingFeed(await recordingWith(0, []), () => undefined),
        5,
      ),
    ).toEqual([]);
  });
});

import { appendFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordingWriter, readLastRecvTs } from '../../../backtest/recording/index.ts';
import { fileReadPositions } from '../../kit/file-read-positions.ts';
import { bboRecord, TEST_HEADER, tempDir } from '../../kit/recording-files.ts';

const dirs: (() => void)[] = [];
afterEach(() => {
  for (const remove of dirs.splice(0)) remove();
});

// A torn last member must not make every run inflate the whole recording to find its end.
describe('the end time of a Keel gzip recording whose last member is torn', () => {
  it('is found in the tail (the last whole member), not by inflating the whole recording on every run', async () => {
    const { dir, remove } = tempDir();
    dirs.push(remove);
    const path = join(dir, 'session.jsonl.gz');
    // Many members (Keel's writer flushes one member per flush), over a megabyte compressed.
    const writer = await RecordingWriter.open(path, TEST_HEADER, { flushChars: 4_096 });
    writer.close();
    for (let m = 0; m < 800; m++) {
      let text = '';
      for (let i = m * 150; i < (m + 1) * 150; i++) text += `${JSON.stringify(bboRecord(i))}\n`;
      appendFileSync(path, gzipSync(text));
    }
    // A crash cut the member being written.
    const cut = gzipSync(`${JSON.stringify({ recvTs: 99_999_999, source: 'market-data', msg: {} })}\n`);
    appendFileSync(path, cut.subarray(0, 12));
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(1 << 20);
    const reads = await fileReadPositions(path, () => readLastRecvTs(path));
    expect(reads.value).toBe(1_000 + 119_999);
    // Nothing before the last megabyte is read: a read through the file starts at its first byte.
    expect(Math.min(...reads.positions)).toBeGreaterThanOrEqual(size - (1 << 20));
  });
});

import { appendFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordingWriter, readLastRecvTs } from '../../../backtest/recording/index.ts';
import { bboRecord, TEST_HEADER, tempDir } from '../../kit/recording-files.ts';

// Count the whole-file read-throughs readLastRecvTs does (it streams through openChunks).
const calls = vi.hoisted(() => ({ openChunks: 0 }));
vi.mock('../../../backtest/recording/recording-reader.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../backtest/recording/recording-reader.ts')>();
  return {
    ...original,
    openChunks: (...args: Parameters<typeof original.openChunks>) => {
      calls.openChunks++;
      return original.openChunks(...args);
    },
  };
});

const dirs: (() => void)[] = [];
afterEach(() => {
  for (const remove of dirs.splice(0)) remove();
});

describe('the end time of a Keel gzip recording whose last member is torn (commitrev)', () => {
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
    expect(statSync(path).size).toBeGreaterThan(1 << 20);
    calls.openChunks = 0;
    expect(await readLastRecvTs(path)).toBe(1_000 + 119_999);
    // Fails today: every member of the tail is tried as the start of the rest of the tail, which
    // always ends in the torn member, so none inflates and the whole file is inflated instead.
    expect(calls.openChunks).toBe(0);
  });
});

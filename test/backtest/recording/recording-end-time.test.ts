import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordingWriter, readLastRecvTs } from '../../../backtest/recording/index.ts';
import { bboRecord, TEST_HEADER, tempDir } from '../../kit/recording-files.ts';

const dirs: (() => void)[] = [];
afterEach(() => {
  for (const remove of dirs.splice(0)) remove();
});

async function written(file: string, count: number, flushChars?: number): Promise<string> {
  const { dir, remove } = tempDir();
  dirs.push(remove);
  const path = join(dir, file);
  const writer = await RecordingWriter.open(
    path,
    TEST_HEADER,
    flushChars === undefined ? {} : { flushChars },
  );
  for (let i = 0; i < count; i++) {
    const r = bboRecord(i);
    writer.append(r.recvTs, r.source, r.msg);
  }
  writer.close();
  return path;
}

describe("a recording's last receive time, read from its tail", () => {
  it('reads the last line of a plain recording (bboRecord(i) is received at 1000 + i)', async () => {
    expect(await readLastRecvTs(await written('s.jsonl', 50))).toBe(1_049);
  });

  it('reads the last gzip member of a gzipped recording, however many members came before', async () => {
    // 5000 lines flushed every 4 k characters: many gzip members.
    expect(await readLastRecvTs(await written('s.jsonl.gz', 5_000, 4_096))).toBe(5_999);
    expect(await readLastRecvTs(await written('one.jsonl.gz', 20))).toBe(1_019);
  });

  it('skips a torn last line, and finds nothing in a header-only recording', async () => {
    const path = await written('torn.jsonl', 3);
    appendFileSync(path, '{"recvTs":9999,"source":"market-da');
    expect(await readLastRecvTs(path)).toBe(1_002);
    expect(await readLastRecvTs(await written('empty.jsonl.gz', 0))).toBeUndefined();
  });

  it('gives up (undefined) on a gzip file whose last member is torn', async () => {
    const { dir, remove } = tempDir();
    dirs.push(remove);
    const path = join(dir, 'torn.jsonl.gz');
    const member = gzipSync(
      `${JSON.stringify({ ...TEST_HEADER, format: 'keel-session', formatVersion: 1 })}\n`,
    );
    // A member cut in half: no start from which the tail inflates.
    writeFileSync(path, member.subarray(0, member.length - 6));
    expect(await readLastRecvTs(path)).toBeUndefined();
  });
});

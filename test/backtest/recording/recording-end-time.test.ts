import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

describe("a recording's last receive time, read from its tail or, failing that, through the file", () => {
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

  it('finds nothing (undefined) in a gzip file whose only member, the header, is torn', async () => {
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

  it('reads a gzip file through when its tail holds no whole member: one member of a file gzipped whole, a torn last member', async () => {
    const { dir, remove } = tempDir();
    dirs.push(remove);
    const plain = await written('big.jsonl', 30_000);
    // As `gzip -c` writes it: one member for the whole file, over a megabyte compressed with random padding.
    const lines = readFileSync(plain, 'utf8').replace(/\n$/, '');
    const padded = lines
      .split('\n')
      .map((line, i) =>
        i === 0
          ? line
          : line.replace('}', `,"pad":"${createHash('sha256').update(String(i)).digest('hex')}"}`),
      )
      .join('\n');
    const whole = join(dir, 'whole.jsonl.gz');
    writeFileSync(whole, gzipSync(`${padded}\n`));
    expect(statSync(whole).size).toBeGreaterThan(1 << 20);
    expect(await readLastRecvTs(whole)).toBe(30_999);
    // Good members, then a member cut by a crash before any of its text: the last whole record counts.
    const torn = await written('torn-after.jsonl.gz', 40, 256);
    const cut = gzipSync(`${JSON.stringify({ recvTs: 99_999, source: 'market-data', msg: {} })}\n`);
    appendFileSync(torn, cut.subarray(0, 12));
    expect(await readLastRecvTs(torn)).toBe(1_039);
  });

  it('reads a plain file through when its last line is longer than the tail', async () => {
    const path = await written('long-line.jsonl', 3);
    appendFileSync(
      path,
      `${JSON.stringify({ recvTs: 5_000, source: 'market-data', msg: { pad: 'x'.repeat(1 << 21) } })}\n`,
    );
    expect(await readLastRecvTs(path)).toBe(5_000);
  });
});

import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  type RecordedMessage,
  type RecordingWarning,
  readRecordBatches,
} from '../../../backtest/recording/index.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-sec-longline-');
const HEADER = `${JSON.stringify({ format: 'keel-session', formatVersion: 1, venue: 'x', symbols: ['BINANCE_PERP_BTC_USDT'], startTime: 1736173800000, synthetic: false })}\n`;
/** The reader's documented cap on a line: 16 MiB. */
const MAX_LINE_BYTES = 16 << 20;

/** A record line whose msg pads `padBytes` bytes. */
function padded(recvTs: number, padBytes: number): string {
  return `{"recvTs":${recvTs},"source":"market-data","msg":{"pad":"${'a'.repeat(padBytes)}"}}\n`;
}

/** A short record line. */
function small(recvTs: number): string {
  return padded(recvTs, 3);
}

/** A plain recording of the header and `lines`, written piece by piece. */
function recording(dir: string, name: string, lines: readonly string[]): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  writeSync(fd, HEADER);
  for (const line of lines) writeSync(fd, line);
  closeSync(fd);
  return path;
}

async function readAll(path: string, onMalformed: 'skip' | 'stop' = 'skip') {
  const records: RecordedMessage[] = [];
  const warnings: RecordingWarning[] = [];
  for await (const batch of readRecordBatches(path, { onMalformed, onWarning: (w) => warnings.push(w) })) {
    records.push(...batch);
  }
  return { records, warnings };
}

describe('a recording with one huge line (a downloaded file, or a file that is not JSONL at all)', () => {
  it('reads a line just under the cap whole, with the lines around it', async () => {
    const pad = MAX_LINE_BYTES - 200;
    const path = recording(tempDir(), 'big.jsonl', [small(1), padded(2, pad), small(3)]);
    const { records, warnings } = await readAll(path);
    expect(warnings).toEqual([]);
    expect(records.map((r) => r.recvTs)).toEqual([1, 2, 3]);
    expect((records[1]?.msg as { pad?: string } | undefined)?.pad?.length).toBe(pad);
  }, 30_000);

  it('skips a line past the cap as one counted malformed line, naming it, and reads on', async () => {
    const path = recording(tempDir(), 'over.jsonl', [small(1), padded(2, MAX_LINE_BYTES + 10), small(3)]);
    const { records, warnings } = await readAll(path);
    expect(records.map((r) => r.recvTs)).toEqual([1, 3]);
    expect(warnings.map((w) => [w.kind, w.line])).toEqual([['not-a-record', 3]]);
    expect(warnings[0]?.message).toMatch(/over\.jsonl:3: .*longer than 16 MiB/);
  }, 30_000);

  it('on policy stop, stops at the line past the cap with its place', async () => {
    const path = recording(tempDir(), 'stop.jsonl', [small(1), padded(2, MAX_LINE_BYTES + 10), small(3)]);
    await expect(readAll(path, 'stop')).rejects.toThrow(/stop\.jsonl:3: is longer than 16 MiB/);
  }, 30_000);

  it('a gzip bomb of zero bytes after the header is one skipped line, not a buffer the size of the bomb', async () => {
    const path = join(tempDir(), 'bomb.jsonl.gz');
    writeFileSync(
      path,
      Buffer.concat([gzipSync(HEADER + small(1)), gzipSync(Buffer.alloc(3 * MAX_LINE_BYTES))]),
    );
    const { records, warnings } = await readAll(path);
    expect(records.map((r) => r.recvTs)).toEqual([1]);
    expect(warnings.map((w) => [w.kind, w.line, w.reason])).toEqual([
      ['not-a-record', 3, `is longer than 16 MiB (${3 * MAX_LINE_BYTES} bytes), so it was not read`],
    ]);
  }, 30_000);

  it('a header line past the cap stops the read at line 1', async () => {
    const path = join(tempDir(), 'noheader.jsonl');
    writeFileSync(path, Buffer.alloc(MAX_LINE_BYTES + 1, 'x'));
    await expect(readAll(path)).rejects.toThrow(/noheader\.jsonl:1: is longer than 16 MiB/);
  }, 30_000);
});

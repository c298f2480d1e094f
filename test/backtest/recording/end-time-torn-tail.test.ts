import { randomBytes } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { readLastRecvTs } from '../../../backtest/recording/index.ts';
import { openChunks } from '../../../backtest/recording/recording-reader.ts';
import { fileReadPositions } from '../../kit/file-read-positions.ts';
import { tempDir } from '../../kit/recording-files.ts';

const dirs: (() => void)[] = [];
afterEach(() => {
  for (const remove of dirs.splice(0)) remove();
});

/** The last record's recvTs as a read through the whole file finds it (the answer to keep). */
async function readThrough(path: string): Promise<number | undefined> {
  let decoder = new StringDecoder('utf8');
  let carry = '';
  let last: number | undefined;
  const lastIn = (text: string): number | undefined => {
    for (const line of text.split('\n').reverse()) {
      const trimmed = line.trim();
      if (!trimmed.startsWith('{')) continue;
      try {
        const recvTs = (JSON.parse(trimmed) as { recvTs?: unknown }).recvTs;
        if (typeof recvTs === 'number' && Number.isFinite(recvTs)) return recvTs;
      } catch {
        // not a record
      }
    }
    return undefined;
  };
  for await (const chunk of openChunks(path, 1 << 20)) {
    if (!Buffer.isBuffer(chunk)) {
      decoder = new StringDecoder('utf8');
      carry = '';
      continue;
    }
    const text = carry + decoder.write(chunk);
    const end = text.lastIndexOf('\n');
    if (end === -1) {
      carry = text;
      continue;
    }
    last = lastIn(text.slice(0, end)) ?? last;
    carry = text.slice(end + 1);
  }
  return lastIn(carry + decoder.end()) ?? last;
}

/** A line of a recording: a record with hard-to-compress text (so a few hundred make the tail), or not one. */
function line(i: number, record: boolean): string {
  const noise = randomBytes(60).toString('hex');
  return record
    ? `${JSON.stringify({ recvTs: 1_000 + i, source: 'market-data', msg: { noise, é: 'ü' } })}\n`
    : `not a record ${noise}\n`;
}

describe('the end time of a gzip recording whose last member is torn', () => {
  it('is what a read through the whole file finds, members cut at line ends or anywhere, damage or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 200, max: 2_500 }),
        fc.array(fc.integer({ min: 1, max: 20_000 }), { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
        fc.integer({ min: 0, max: 5 }),
        async (lines, cuts, atLineEnds, tear, damageAt, trailingNonRecords) => {
          let text = '';
          for (let i = 0; i < lines; i++) text += line(i, i % 97 !== 5);
          for (let i = 0; i < trailingNonRecords; i++) text += line(lines + i, false);
          // Members: pieces of the text, cut at line ends (Keel's writer) or anywhere (another tool).
          const members: Buffer[] = [];
          let at = 0;
          for (const cut of cuts) {
            if (at >= text.length) break;
            let end = Math.min(text.length, at + cut * 4);
            if (atLineEnds) end = text.indexOf('\n', end - 1) + 1 || text.length;
            members.push(gzipSync(text.slice(at, end)));
            at = end;
          }
          if (at < text.length) members.push(gzipSync(text.slice(at)));
          const last = members.length - 1;
          const lastMember = members[last] as Buffer;
          members[last] = lastMember.subarray(0, Math.floor(lastMember.length * tear));
          if (damageAt !== null && members.length > 2) {
            const hit = members[Math.floor(damageAt * (members.length - 1))] as Buffer;
            const spoiled = Buffer.from(hit);
            spoiled.fill(0x55, Math.min(20, spoiled.length - 1), Math.min(40, spoiled.length));
            members[Math.floor(damageAt * (members.length - 1))] = spoiled;
          }
          const { dir, remove } = tempDir();
          dirs.push(remove);
          const path = join(dir, 's.jsonl.gz');
          writeFileSync(path, Buffer.concat(members));
          expect(await readLastRecvTs(path)).toBe(await readThrough(path));
        },
      ),
      { numRuns: 40, seed: 24 },
    );
  }, 120_000);
});

describe('the end time of a gzip recording of another tool whose last member is torn', () => {
  it('takes no line a member begins for a record when the member before may have begun it', async () => {
    let big = '';
    for (let i = 0; i < 1_000; i++) big += line(i, true);
    const torn = gzipSync(line(5_000, true));
    const bytes = Buffer.concat([
      // Over 64 KiB compressed, ending in the start of a line the next member ends.
      gzipSync(`${big}{"partial":`),
      gzipSync(`${JSON.stringify({ recvTs: 99_999, source: 'market-data', msg: {} })}\nnot a record\n`),
      torn.subarray(0, torn.length >> 1),
    ]);
    const { dir, remove } = tempDir();
    dirs.push(remove);
    const path = join(dir, 's.jsonl.gz');
    writeFileSync(path, bytes);
    // The line is `{"partial":{"recvTs":99999,...}`: not JSON, no record.
    expect(await readThrough(path)).toBe(1_000 + 999);
    expect(await readLastRecvTs(path)).toBe(1_000 + 999);
  });
});

describe('the end time of a file gzipped whole by another tool, for a run ending at `to`', () => {
  it('stops reading at the first record at or past `to`, the span cut there the same', async () => {
    const { dir, remove } = tempDir();
    dirs.push(remove);
    const path = join(dir, 'whole.jsonl.gz');
    // 40 MB of text: past the 16 MB a gzip member's text is held for its check before it is read.
    const lines: string[] = [];
    for (let i = 0; i < 200_000; i++) lines.push(line(i, true));
    writeFileSync(path, gzipSync(lines.join(''), { level: 1 }));
    const size = statSync(path).size;
    const whole = await fileReadPositions(path, () => readLastRecvTs(path));
    const last = whole.value;
    expect(last).toBe(1_000 + 199_999);
    // Reads before the last megabyte's tail read: the read through the file.
    const through = (positions: readonly number[]) => positions.filter((at) => at < size - (1 << 20));
    expect(Math.max(...through(whole.positions))).toBeGreaterThan(size / 2);
    const to = 1_000 + 2_000;
    const until = await fileReadPositions(path, () => readLastRecvTs(path, { until: to }));
    expect(Math.min(until.value ?? Number.NaN, to)).toBe(Math.min(last as number, to));
    expect(through(until.positions)).toContain(0);
    expect(Math.max(...through(until.positions))).toBeLessThan(size * 0.6);
    // A `to` past the end reads it all and gives the last record.
    expect(await readLastRecvTs(path, { until: (last as number) + 1 })).toBe(last);
  }, 60_000);
});

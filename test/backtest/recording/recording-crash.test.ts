import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type RecordedMessage,
  RecordingFormatError,
  RecordingWriter,
} from '../../../backtest/recording/index.ts';
import { bboRecord, readAll, TEST_HEADER, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterEach();

const RECORDS = Array.from({ length: 40 }, (_, i) => bboRecord(i));

/**
 * Reopens a recording for appending, appends one record and closes it.
 * @param path - the recording
 * @param record - what to append
 * @returns the writer's warnings' messages
 */
async function appendOne(path: string, record: RecordedMessage): Promise<string[]> {
  const warnings: string[] = [];
  const writer = await RecordingWriter.open(path, TEST_HEADER, {
    append: true,
    onWarning: (w) => warnings.push(w.message),
  });
  writer.append(record.recvTs, record.source, record.msg);
  writer.close();
  return warnings;
}

describe('a recording cut by a crash', () => {
  it('reads back every complete line before the cut, at any byte', async () => {
    const d = dir();
    const full = join(d, 'full.jsonl');
    await writeRecording(full, RECORDS);
    const bytes = readFileSync(full);
    const headerEnd = bytes.indexOf(10) + 1;
    const lineEnds: number[] = [];
    for (let i = headerEnd; i < bytes.length; i++) if (bytes[i] === 10) lineEnds.push(i);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: headerEnd, max: bytes.length }), async (cut) => {
        const path = join(d, `cut-${run++}.jsonl`);
        writeFileSync(path, bytes.subarray(0, cut));
        const { records, warnings } = await readAll(path, { onMalformed: 'stop' });
        // A line is complete when all its bytes are there; its newline may be the byte cut off.
        const complete = lineEnds.filter((end) => end <= cut).length;
        expect(records).toEqual(RECORDS.slice(0, complete));
        const midLine = cut !== headerEnd && !lineEnds.includes(cut) && !lineEnds.includes(cut - 1);
        expect(warnings.length).toBe(midLine ? 1 : 0);
        if (midLine) expect(warnings[0]).toMatch(/cut-\d+\.jsonl:\d+: skipped a truncated last line/);
      }),
      { numRuns: 120 },
    );
  });

  it('reads a prefix of the lines of a gzip recording cut at any byte', async () => {
    const d = dir();
    const full = join(d, 'full.jsonl.gz');
    await writeRecording(full, RECORDS, 600);
    const bytes = readFileSync(full);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: bytes.length }), async (cut) => {
        const path = join(d, `cut-${run++}.jsonl.gz`);
        writeFileSync(path, bytes.subarray(0, cut));
        const result = await readAll(path).catch((error: unknown) => error);
        if (result instanceof RecordingFormatError) {
          // Cut inside the first gzip member: not even the header survived.
          expect(result.message).toMatch(/header/);
          return;
        }
        const { records } = result as Awaited<ReturnType<typeof readAll>>;
        expect(records).toEqual(RECORDS.slice(0, records.length));
      }),
      { numRuns: 80 },
    );
  });

  it('warns when a gzip recording ends inside a compressed member', async () => {
    const path = join(dir(), 'torn.jsonl.gz');
    await writeRecording(path, RECORDS, 600);
    truncateSync(path, readFileSync(path).length - 60);
    const { records, warnings } = await readAll(path);
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThan(RECORDS.length);
    expect(warnings.join('\n')).toMatch(/torn\.jsonl\.gz:\d+: compressed data ends damaged/);
  });

  it('refuses a file whose header line is incomplete', async () => {
    const path = join(dir(), 'h.jsonl');
    writeFileSync(path, '{"format":"keel-ses');
    await expect(readAll(path)).rejects.toThrow(/h\.jsonl:1: has no complete header line/);
  });

  it('appends after a torn plain line by cutting it off first', async () => {
    const path = join(dir(), 'a.jsonl');
    await writeRecording(path, RECORDS.slice(0, 3));
    truncateSync(path, readFileSync(path).length - 10);
    const warnings = await appendOne(path, RECORDS[3]!);
    expect(warnings[0]).toMatch(/cut \d+ bytes of a torn last line/);
    const back = await readAll(path);
    expect(back.records).toEqual([RECORDS[0], RECORDS[1], RECORDS[3]]);
    expect(back.warnings).toEqual([]);
  });

  it('appends after a damaged gzip tail by rewriting the readable lines', async () => {
    const path = join(dir(), 'a.jsonl.gz');
    await writeRecording(path, RECORDS.slice(0, 10), 300);
    truncateSync(path, readFileSync(path).length - 5);
    const warnings = await appendOne(path, RECORDS[10]!);
    expect(warnings[0]).toMatch(/rewrote the readable lines/);
    const back = await readAll(path);
    expect(back.warnings).toEqual([]);
    expect(back.records.at(-1)).toEqual(RECORDS[10]);
    expect(back.records.slice(0, -1)).toEqual(RECORDS.slice(0, back.records.length - 1));
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordingDamage, readRecordBatches } from '../../../backtest/recording/index.ts';
import { bboRecord, readAll, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterEach();

const RECORDS = Array.from({ length: 12 }, (_, i) => bboRecord(i));

/**
 * Writes the records as a gzip recording with one member per line (the header's, then one per
 * record) and returns its bytes and where each member starts (the file's length last).
 */
async function oneMemberPerLine(d: string): Promise<{ bytes: Buffer; starts: number[] }> {
  const plain = join(d, 'plain.jsonl');
  const gz = join(d, 'members.jsonl.gz');
  await writeRecording(plain, RECORDS);
  await writeRecording(gz, RECORDS, 1);
  const lines = readFileSync(plain, 'utf8').split(/(?<=\n)/);
  const members = lines.map((line) => gzipSync(Buffer.from(line, 'utf8')));
  const bytes = readFileSync(gz);
  // The writer writes one gzip member per flush: the layout the damage below is aimed at.
  expect(bytes.equals(Buffer.concat(members))).toBe(true);
  const starts = [0];
  for (const m of members) starts.push((starts.at(-1) as number) + m.length);
  return { bytes, starts };
}

describe('a gzip recording with a damaged member', () => {
  it('keeps every line of the intact members and names the damaged bytes', async () => {
    const d = dir();
    const { bytes, starts } = await oneMemberPerLine(d);
    const memberCount = starts.length - 1;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: memberCount - 1 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        async (member, where, xor, cutOff) => {
          const last = member === memberCount - 1;
          // A last member cut short is a crash's torn tail, which the crash tests cover.
          const cut = cutOff && !last;
          const from = starts[member] as number;
          const to = starts[member + 1] as number;
          // Bytes 4-9 of a member header (time, flags of the compressor, OS) are in no check: damage starts after them.
          const at = from + 10 + Math.floor(where * (to - from - 10));
          const damaged = Buffer.from(bytes);
          let file: Buffer;
          if (cut) {
            // Bytes lost from the middle of the member: the next member follows what is left of it.
            file = Buffer.concat([damaged.subarray(0, at), damaged.subarray(Math.min(to, at + 1 + xor))]);
          } else {
            damaged[at] = (damaged[at] as number) ^ xor;
            file = damaged;
          }
          const path = join(d, `damaged-${run++}.jsonl.gz`);
          writeFileSync(path, file);
          const { records, warnings } = await readAll(path, { onMalformed: 'stop' });
          // Member 0 holds the header; member k holds record k - 1.
          expect(records).toEqual(RECORDS.filter((_, i) => i !== member - 1));
          expect(warnings).toHaveLength(1);
          if (last) {
            expect(warnings[0]).toMatch(
              new RegExp(
                `damaged-\\d+\\.jsonl\\.gz:${member + 1}: compressed data ends damaged at byte ${from} `,
              ),
            );
          } else {
            const end = cut ? to - (Math.min(to, at + 1 + xor) - at) : to;
            expect(warnings[0]).toMatch(
              new RegExp(
                `damaged-\\d+\\.jsonl\\.gz:${member + 1}: skipped damaged compressed data: bytes ${from}-${end} of the compressed file are damaged \\(.+\\); kept the lines before and after it`,
              ),
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('counts the lines after a damaged member apart from it, and says so in the run warning', async () => {
    const d = dir();
    const { bytes, starts } = await oneMemberPerLine(d);
    const damaged = Buffer.from(bytes);
    for (const member of [3, 7]) {
      const at = (starts[member] as number) + 12;
      damaged[at] = (damaged[at] as number) ^ 0x55;
    }
    const path = join(d, 'two.jsonl.gz');
    writeFileSync(path, damaged);
    const tally = new RecordingDamage();
    const { records } = await readAll(path, { onMalformed: 'skip' });
    for await (const _ of readRecordBatches(path, {
      onMalformed: 'skip',
      onWarning: tally.note,
    })) {
      // Only the tally matters.
    }
    expect(records).toEqual(RECORDS.filter((_, i) => i !== 2 && i !== 6));
    expect(tally.skippedIn(path)).toEqual([
      {
        kind: 'damaged-gzip-member',
        count: 2,
        first: { line: 4, reason: expect.stringMatching(/^bytes \d+-\d+ /) },
      },
    ]);
    expect(tally.warnings()).toEqual([
      expect.stringMatching(
        /two\.jsonl\.gz: skipped 2 stretches of damaged compressed data, the first at .*two\.jsonl\.gz:4: bytes \d+-\d+ .*; the run replayed every intact line before and after$/,
      ),
    ]);
  });
});

import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  keepRecord,
  mergeByRecvTs,
  mergeRecordings,
  type RecordedMessage,
  readRecordBatches,
} from '../../../backtest/recording/index.ts';
import { bboRecord, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

interface Item {
  readonly recvTs: number;
  readonly source: number;
  readonly seq: number;
}

async function* asBatches<T>(items: readonly T[], cuts: readonly number[]): AsyncGenerator<T[]> {
  let start = 0;
  for (const cut of [...cuts.map((c) => c % (items.length + 1)).sort((a, b) => a - b), items.length]) {
    if (cut < start) continue;
    yield items.slice(start, cut);
    start = cut;
  }
}

const sortedSource = fc
  .array(fc.integer({ min: 0, max: 50 }), { maxLength: 60 })
  .map((ts) => ts.sort((a, b) => a - b));

describe('k-way merge by receive time', () => {
  it('outputs every item once, ordered by recvTs, ties in source order then file order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(sortedSource, fc.array(fc.nat(), { maxLength: 5 })), { maxLength: 6 }),
        fc.integer({ min: 1, max: 17 }),
        async (sources, batchSize) => {
          const items = sources.map(([ts], source) =>
            ts.map((recvTs, seq): Item => ({ recvTs, source, seq })),
          );
          const merged: Item[] = [];
          for await (const batch of mergeByRecvTs(
            items.map((list, i) => asBatches(list, sources[i]![1])),
            batchSize,
          )) {
            expect(batch.length).toBeLessThanOrEqual(batchSize);
            merged.push(...batch);
          }
          const expected = items
            .flat()
            .sort((a, b) => a.recvTs - b.recvTs || a.source - b.source || a.seq - b.seq);
          expect(merged).toEqual(expected);
        },
      ),
    );
  });

  const dir = tempDirsRemovedAfterEach();

  it('merges recording files, the file listed first winning ties', async () => {
    const d = dir();
    const a = join(d, 'a.jsonl');
    const b = join(d, 'b.jsonl.gz');
    await writeRecording(a, [0, 2, 4, 6].map(bboRecord));
    await writeRecording(
      b,
      [1, 2, 3, 9].map((i) => ({ ...bboRecord(i), source: 'private' as const })),
    );
    const seen = async (merged: AsyncIterable<readonly RecordedMessage[]>): Promise<string[]> => {
      const out: string[] = [];
      for await (const batch of merged) out.push(...batch.map((r) => `${r.recvTs - 1000}${r.source[0]}`));
      return out;
    };
    expect(await seen(mergeByRecvTs([readRecordBatches(a), readRecordBatches(b)]))).toEqual([
      '0m',
      '1p',
      '2m',
      '2p',
      '3p',
      '4m',
      '6m',
      '9p',
    ]);
    expect(await seen(mergeRecordings([b, a], keepRecord))).toEqual([
      '0m',
      '1p',
      '2p',
      '2m',
      '3p',
      '4m',
      '6m',
      '9p',
    ]);
  });
});

import { join } from 'node:path';
import fc from 'fast-check';
import { firstValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  keepRecord,
  type RecordedMessage,
  RecordingWriter,
  readEvents,
  readRecords,
  readSessionHeader,
  recordingObservable,
} from '../../../backtest/recording/index.ts';
import { KEEL_VERSION } from '../../../core/model/index.ts';
import {
  bboRecord,
  readAll,
  recordedMessageArb,
  TEST_HEADER,
  writeRecording,
} from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterEach();

describe('recording write -> read', () => {
  it.each(['s.jsonl', 's.jsonl.gz'])('gives back identical messages in order (%s)', async (name) => {
    const path = join(dir(), name);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordedMessageArb, { maxLength: 40 }),
        fc.integer({ min: 16, max: 4096 }),
        async (records, flush) => {
          const file = `${path}.${run++}${name.endsWith('.gz') ? '.gz' : ''}`;
          await writeRecording(file, records, flush);
          const back = await readAll(file);
          expect(back.warnings).toEqual([]);
          expect(back.records).toEqual(records);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('splits lines correctly whatever the read chunk size, multi-byte characters included', async () => {
    const d = dir();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordedMessageArb, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 300 }),
        fc.boolean(),
        async (records, chunkBytes, gzip) => {
          const file = join(d, `c${run++}.jsonl${gzip ? '.gz' : ''}`);
          await writeRecording(file, records, 200);
          expect((await readAll(file, { chunkBytes })).records).toEqual(records);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('writes the header first and reads it back', async () => {
    const path = join(dir(), 'h.jsonl.gz');
    await writeRecording(path, [bboRecord(1)]);
    expect(await readSessionHeader(path)).toEqual({
      format: 'keel-session',
      formatVersion: 1,
      keel: KEEL_VERSION,
      ...TEST_HEADER,
    });
  });

  it('keeps a raw frame byte for byte and puts a multi-line frame on one line', async () => {
    const path = join(dir(), 'raw.jsonl');
    const writer = await RecordingWriter.open(path, TEST_HEADER);
    writer.appendRaw(5, 'private', '{"b":1.50,"a":"x"}');
    writer.appendRaw(6, 'market-data', '{\n  "pong": 1\n}');
    writer.close();
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines[1]).toBe('{"recvTs":5,"source":"private","msg":{"b":1.50,"a":"x"}}');
    expect(lines[2]).toBe('{"recvTs":6,"source":"market-data","msg":{"pong":1}}');
    expect(() => writer.append(7, 'private', {})).toThrow(/is closed/);
  });

  it('streams one record at a time, fans a record out to several events, and emits through an Observable that stops when unsubscribed', async () => {
    const path = join(dir(), 'o.jsonl.gz');
    const records = Array.from({ length: 300 }, (_, i) => bboRecord(i));
    await writeRecording(path, records, 512);
    const one: RecordedMessage[] = [];
    for await (const r of readRecords(path)) one.push(r);
    expect(one).toEqual(records);
    const decoded: number[] = [];
    for await (const ts of readEvents(path, (r) => (r.recvTs % 2 === 0 ? r.recvTs : null))) decoded.push(ts);
    expect(decoded).toEqual(records.filter((r) => r.recvTs % 2 === 0).map((r) => r.recvTs));
    const fanned: number[] = [];
    for await (const n of readEvents(path, (r) => (r.recvTs < 1002 ? [r.recvTs, -r.recvTs] : null)))
      fanned.push(n);
    expect(fanned).toEqual([1000, -1000, 1001, -1001]);
    expect(await firstValueFrom(recordingObservable(path, keepRecord).pipe(toArray()))).toEqual(records);
    expect(await firstValueFrom(recordingObservable(path, keepRecord).pipe(take(3), toArray()))).toEqual(
      records.slice(0, 3),
    );
  });
});

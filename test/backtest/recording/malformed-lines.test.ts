import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingFormatError, readEventBatches } from '../../../backtest/recording/index.ts';
import { bboRecord, readAll, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterEach();

async function fileWithBadLine3(name: string): Promise<string> {
  const d = dir();
  const good = join(d, 'good.jsonl');
  await writeRecording(good, [bboRecord(0), bboRecord(1), bboRecord(2)]);
  const { readFileSync } = await import('node:fs');
  const lines = readFileSync(good, 'utf8').split('\n');
  lines.splice(3, 0, '{"recvTs":"soon","source":"market-data","msg":{}}');
  const path = join(d, name);
  writeFileSync(path, lines.join('\n'));
  return path;
}

describe('malformed recording lines', () => {
  it('stop: throws naming file and line, after handing over the lines before it', async () => {
    const path = await fileWithBadLine3('bad.jsonl');
    const seen: number[] = [];
    let error: unknown;
    try {
      for await (const batch of readEventBatches(path, (r) => r.recvTs)) seen.push(...batch);
    } catch (e) {
      error = e;
    }
    expect(seen).toEqual([1000, 1001]);
    expect(error).toBeInstanceOf(RecordingFormatError);
    expect((error as RecordingFormatError).line).toBe(4);
    expect((error as Error).message).toMatch(/bad\.jsonl:4: recvTs must be epoch milliseconds/);
  });

  it('skip: warns with file and line and keeps everything else', async () => {
    const path = await fileWithBadLine3('bad.jsonl');
    const { records, warnings } = await readAll(path, { onMalformed: 'skip' });
    expect(records.map((r) => r.recvTs)).toEqual([1000, 1001, 1002]);
    expect(warnings).toEqual([
      expect.stringMatching(/bad\.jsonl:4: skipped a malformed line: recvTs must be/),
    ]);
  });

  it('treats a record the decoder refuses as malformed, with its line', async () => {
    const path = join(dir(), 'd.jsonl');
    await writeRecording(path, [bboRecord(0), bboRecord(1)]);
    const refuse = (r: { recvTs: number }) => (r.recvTs === 1001 ? new Error('data.bid is wrong') : r.recvTs);
    const warnings: string[] = [];
    const kept: number[] = [];
    for await (const b of readEventBatches(path, refuse, {
      onMalformed: 'skip',
      onWarning: (w) => warnings.push(w.message),
    }))
      kept.push(...b);
    expect(kept).toEqual([1000]);
    expect(warnings).toEqual([
      expect.stringMatching(/d\.jsonl:3: .*could not be decoded: data\.bid is wrong/),
    ]);
    await expect(async () => {
      for await (const _ of readEventBatches(path, refuse)) {
        // drain
      }
    }).rejects.toThrow(/d\.jsonl:3: message could not be decoded: data\.bid is wrong/);
  });

  it('reports bad JSON and a missing source by line', async () => {
    const path = join(dir(), 'j.jsonl');
    writeFileSync(
      path,
      [
        '{"format":"keel-session","formatVersion":1,"venue":"t","symbols":[],"startTime":0,"synthetic":true}',
        '{"recvTs":1,"source":"market-data","msg":{}}',
        '{not json',
        '{"recvTs":2,"msg":{}}',
        '',
      ].join('\n'),
    );
    const { records, warnings } = await readAll(path, { onMalformed: 'skip' });
    expect(records).toHaveLength(1);
    expect(warnings[0]).toMatch(/j\.jsonl:3: skipped a malformed line: is not JSON/);
    expect(warnings[1]).toMatch(/j\.jsonl:4: skipped a malformed line: source must be/);
  });

  it('refuses a file that is not a Keel recording', async () => {
    const path = join(dir(), 'x.jsonl');
    writeFileSync(path, '{"hello":1}\n');
    await expect(readAll(path)).rejects.toThrow(/x\.jsonl:1: header must start the file/);
  });
});

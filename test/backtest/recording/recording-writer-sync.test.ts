import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingWriter } from '../../../backtest/recording/index.ts';
import { fsSyncWatchedPerTest } from '../../kit/fs-sync-watch.ts';
import { bboRecord, readAll, TEST_HEADER } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterEach();
const watchSyncAndClose = fsSyncWatchedPerTest();

describe('closing a recording', () => {
  it('syncs the file to disk before closing it, so a finished recording survives a power cut', async () => {
    const path = join(dir(), 's.jsonl');
    const writer = await RecordingWriter.open(path, TEST_HEADER);
    const record = bboRecord(0);
    writer.append(record.recvTs, record.source, record.msg);
    const calls = watchSyncAndClose();
    writer.close();
    expect(calls).toHaveLength(2);
    const fd = calls[0]?.split(' ')[1];
    expect(calls).toEqual([`sync ${fd}`, `close ${fd}`]);
    expect((await readAll(path)).records).toEqual([record]);
  });

  it('closes the file and refuses appends even when the sync fails', async () => {
    const path = join(dir(), 's.jsonl');
    const writer = await RecordingWriter.open(path, TEST_HEADER);
    const calls = watchSyncAndClose(true);
    expect(() => writer.close()).toThrow(/EIO/);
    expect(calls.map((c) => c.split(' ')[0])).toEqual(['sync', 'close']);
    expect(() => writer.append(1, 'market-data', {})).toThrow(/is closed/);
  });
});

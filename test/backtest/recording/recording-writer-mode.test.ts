import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingWriter } from '../../../backtest/recording/index.ts';
import { modeOf, POSIX_MODES } from '../../kit/file-modes.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const aDir = tempDirsRemovedAfterEach('keel-recording-mode-');
const HEADER = { venue: 'test', symbols: ['BTC'], startTime: 0, synthetic: true };

describe.skipIf(!POSIX_MODES)('the mode of a recording', () => {
  // A session's recording holds its private stream (orders, fills, balances): it was written 0644.
  it.each(['s.jsonl', 's.jsonl.gz'])('is 0600, new, written over or appended to (%s)', async (name) => {
    const dir = aDir();
    const fresh = join(dir, `new-${name}`);
    (await RecordingWriter.open(fresh, HEADER)).close();
    const over = join(dir, `over-${name}`);
    writeFileSync(over, '', { mode: 0o644 });
    (await RecordingWriter.open(over, HEADER)).close();
    const appended = join(dir, `appended-${name}`);
    (await RecordingWriter.open(appended, HEADER)).close();
    chmodSync(appended, 0o644);
    const writer = await RecordingWriter.open(appended, HEADER, { append: true });
    writer.append(1, 'private', { fill: 1 });
    writer.close();
    expect([fresh, over, appended].map(modeOf)).toEqual(['600', '600', '600']);
  });
});

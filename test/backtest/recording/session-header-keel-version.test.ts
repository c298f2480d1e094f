import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  parseSessionHeader,
  RecordingFormatError,
  RecordingWriter,
  readSessionHeader,
  sessionHeader,
} from '../../../backtest/recording/index.ts';
import { KEEL_VERSION } from '../../../core/model/index.ts';
import { TEST_HEADER } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterEach('keel-header-version-');
const OLD_HEADER = { format: 'keel-session', formatVersion: 1, ...TEST_HEADER };

describe('the Keel version in a recording header', () => {
  it('is written by every recording Keel starts, as the header line names it', async () => {
    const path = join(dir(), 'r.jsonl');
    const writer = await RecordingWriter.open(path, TEST_HEADER);
    writer.close();
    expect(JSON.parse(readFileSync(path, 'utf8').split('\n')[0] as string).keel).toBe(KEEL_VERSION);
  });

  it('is absent from a recording an older Keel wrote, which reads as before', async () => {
    const path = join(dir(), 'old.jsonl');
    writeFileSync(path, `${JSON.stringify(OLD_HEADER)}\n`);
    expect(await readSessionHeader(path)).toEqual(OLD_HEADER);
  });

  it('stays absent when an older gzip recording with a torn tail is repaired before appending', async () => {
    const path = join(dir(), 'old.jsonl.gz');
    const line = JSON.stringify({ recvTs: TEST_HEADER.startTime + 1, source: 'market-data', msg: 'pong' });
    const whole = gzipSync(`${JSON.stringify(OLD_HEADER)}\n${line}\n`);
    // A torn second gzip member: the damaged tail a killed recorder leaves.
    const torn = gzipSync(`${line}\n${line}\n`).subarray(0, 15);
    writeFileSync(path, Buffer.concat([whole, torn]));
    const writer = await RecordingWriter.open(
      path,
      { ...TEST_HEADER, description: 'new' },
      { append: true, onWarning: () => {} },
    );
    writer.close();
    expect(gunzipSync(readFileSync(path)).toString('utf8')).toBe(`${JSON.stringify(OLD_HEADER)}\n${line}\n`);
    expect(writer.header).toEqual(OLD_HEADER);
  });

  it('is kept when a file is rewritten with its own header, and must be text when present', () => {
    expect(sessionHeader({ ...TEST_HEADER, keel: '0.1.0' }).keel).toBe('0.1.0');
    expect(() => parseSessionHeader(JSON.stringify({ ...OLD_HEADER, keel: 2 }), 'f.jsonl')).toThrow(
      RecordingFormatError,
    );
  });
});

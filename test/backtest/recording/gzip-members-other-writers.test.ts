import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateRawSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bboRecord, readAll, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterEach();
const RECORDS = Array.from({ length: 12 }, (_, i) => bboRecord(i));

/** One gzip member (RFC 1952) of `data` with an FEXTRA field of `extraBytes` bytes (legal up to 65535). */
function memberWithExtra(data: Buffer, extraBytes: number): Buffer {
  const head = Buffer.from([0x1f, 0x8b, 0x08, 0x04, 0, 0, 0, 0, 0, 0xff]);
  const xlen = Buffer.alloc(2);
  xlen.writeUInt16LE(extraBytes);
  // One subfield 'RA' (as dictzip writes its chunk table) filling the extra field.
  const sub = Buffer.alloc(extraBytes);
  sub.write('RA', 0, 'latin1');
  sub.writeUInt16LE(extraBytes - 4, 2);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(data) >>> 0, 0);
  trailer.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, xlen, sub, deflateRawSync(data), trailer]);
}

describe('legit gzip files written by other tools', () => {
  it('reads a member whose FEXTRA field is larger than 4 KiB (dictzip chunk table of a >117 MB file)', async () => {
    const d = dir();
    const plain = join(d, 'plain.jsonl');
    await writeRecording(plain, RECORDS);
    const gz = join(d, 'dictzip.jsonl.gz');
    const file = memberWithExtra(readFileSync(plain), 5000);
    writeFileSync(gz, file);
    // zlib (and gzip -d) read it whole.
    expect(gunzipSync(file).equals(readFileSync(plain))).toBe(true);
    const { records, warnings } = await readAll(gz, { onMalformed: 'skip' });
    expect(warnings).toEqual([]);
    expect(records).toEqual(RECORDS);
  });

  it('reads a gzip file padded with zero bytes (tape / block-device padding) without a damage warning', async () => {
    const d = dir();
    const gz = join(d, 'padded.jsonl.gz');
    await writeRecording(gz, RECORDS);
    writeFileSync(gz, Buffer.concat([readFileSync(gz), Buffer.alloc(512)]));
    const { records, warnings } = await readAll(gz, { onMalformed: 'skip' });
    expect(records).toEqual(RECORDS);
    expect(warnings).toEqual([]);
  });
});

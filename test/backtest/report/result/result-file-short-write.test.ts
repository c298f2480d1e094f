import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTextFile } from '../../../../backtest/report/index.ts';
import { tempDirsRemovedAfterAll } from '../../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-short-write-');

/** Runs `write` with room for `bytes` per file only: a file-size limit cuts write(2) short as a full disk does. */
async function withFileSizeLimit(bytes: number, write: () => Promise<unknown>): Promise<unknown> {
  execFileSync('prlimit', ['--pid', String(process.pid), `--fsize=${bytes}:unlimited`]);
  try {
    await write();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=unlimited:unlimited']);
  }
}

describe('a result file written when the disk fills up (the write is cut short)', () => {
  it('fails naming the file, leaves the previous file whole and no staged file', async () => {
    const dir = aTempDir();
    const path = join(dir, 'result.json');
    writeFileSync(path, 'previous\n');
    const text = `${JSON.stringify({ rows: Array.from({ length: 20_000 }, (_, i) => ({ i })) })}\n`;
    const error = await withFileSizeLimit(65_536, () => writeTextFile(path, [text]));
    expect(error).toMatchObject({ name: 'FileWriteError', code: 'EFBIG' });
    expect(String(error)).toContain('result.json');
    expect(readFileSync(path, 'utf8')).toBe('previous\n');
    expect(readdirSync(dir)).toEqual(['result.json']);
  });

  it('writes the whole text when it fits', async () => {
    const path = join(aTempDir(), 'result.json');
    const text = 'x'.repeat(200_000);
    expect(await withFileSizeLimit(1 << 20, () => writeTextFile(path, [text]))).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});

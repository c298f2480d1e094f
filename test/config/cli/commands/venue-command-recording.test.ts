import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { venueCommand } from '../../../../config/cli/commands/venue-command.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';
import { writeRecording } from '../../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aDir = tempDirsRemovedAfterEach('keel-venue-command-recording-');

/** `keel venue --recording <path>`'s exit code and output. */
async function venueOn(path: string, dataDir: string) {
  let stderr = '';
  let stdout = '';
  const code = await venueCommand(
    { host: '127.0.0.1', port: 0, recording: path, seed: 1, speed: 1, dataDir },
    {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
    },
  );
  return { code, stdout, stderr };
}

// `keel venue --recording` of a file that is not a Keel recording started, and served no market
// data: the clients connected to a venue whose feed had ended at once.
describe('keel venue --recording of a file none of whose lines Keel can read', () => {
  it('exits 2 before it listens, naming the file, and keeps nothing in its data dir', async () => {
    const dir = aDir();
    const path = join(dir, 'bars.jsonl');
    await writeRecording(path, []);
    writeFileSync(path, `${readFileSync(path, 'utf8')}ts,open,high,low,close\n1,2,3,0.5,2\n`);
    const dataDir = join(dir, 'data');
    const { code, stdout, stderr } = await venueOn(path, dataDir);
    expect({ code, stdout }).toEqual({ code: EXIT.BAD_CONFIG_OR_USAGE, stdout: '' });
    expect(stderr).toContain(
      `✖ keel venue: ${path} holds no market data Keel can read: 2 lines after its header are malformed`,
    );
    expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
  });
});

describe('keel venue --recording of a file that is not there, or an OHLCV CSV', () => {
  it('says so as keel backtest says it, exit 2, instead of ENOENT or "header is not JSON"', async () => {
    const dir = aDir();
    const dataDir = join(dir, 'data');
    const missing = join(dir, 'gone.jsonl.gz');
    expect(await venueOn(missing, dataDir)).toEqual({
      code: EXIT.BAD_CONFIG_OR_USAGE,
      stdout: '',
      stderr: `✖ --recording ${missing}: no such file\n`,
    });
    const csv = join(dir, 'bars.csv');
    writeFileSync(csv, 'Date,Open,High,Low,Close,Volume\n2024-01-02,10,11,9,10,100\n');
    // keel venue takes no config, so no backtest.recordings entry is suggested.
    expect(await venueOn(csv, dataDir)).toEqual({
      code: EXIT.BAD_CONFIG_OR_USAGE,
      stdout: '',
      stderr: `✖ --recording ${csv}: an OHLCV CSV, not a recording; make it a recording with keel import-csv ${csv} --sym <SYM> --out <recording>.jsonl.gz\n`,
    });
    expect(existsSync(dataDir)).toBe(false);
  });
});

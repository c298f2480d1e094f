import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

// Ctrl-C on `keel backtest` stops the run at its next batch: the process exits 130 having
// removed what the run wrote on the way (spill files, the event cache it was building), and no
// result or report is written.
const aTempDir = tempDirsRemovedAfterAll('keel-backtest-interrupt-');
const BTC = 'BINANCE_PERP_BTC_USDT';

/** A strategy that says when the replay is under way, then takes 2 ms a bar: a long run. */
const SLOW_PLUGIN = `import { defineStrategy } from 'keel';
import { z } from 'zod';
const pause = new Int32Array(new SharedArrayBuffer(4));
let bars = 0;
export default defineStrategy({
  name: 'slow',
  params: z.object({}),
  onStart: (ctx) => ctx.watchBars('${BTC}', '1m'),
  onBar: () => {
    if (++bars === 200) process.stderr.write('slow: replaying\\n');
    Atomics.wait(pause, 0, 0, 2);
  },
});
`;

/** Every file and folder under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('keel backtest: Ctrl-C', () => {
  it('stops the run, removes its temporary files (spill files, the event cache being built), writes no result, exits 130', async () => {
    const dir = aTempDir();
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    const recording = await flatBarsRecordingIn(dir, 20_000, Date.UTC(2024, 0, 1), BTC);
    writeFileSync(join(dir, 'slow.ts'), SLOW_PLUGIN);
    writeFileSync(
      join(dir, 'bt.yaml'),
      [
        'mode: backtest',
        `instruments: [${BTC}]`,
        'strategies:',
        '  - { id: slow, use: ./slow.ts }',
        'backtest:',
        '  recordings: [bars.jsonl]',
        '  startingCash: { USDT: 1000 }',
        'report:',
        '  json: out/slow-result.json',
        '  html: out/slow-report.html',
        '',
      ].join('\n'),
    );
    const before = filesUnder(dir);
    const child = spawn(
      process.execPath,
      [resolve('bin/keel.js'), 'backtest', join(dir, 'bt.yaml'), '--no-progress'],
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', TMPDIR: tmp },
      },
    );
    let stderr = '';
    let stdout = '';
    let buildingCache: string[] = [];
    let interrupted = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
    });
    const code = await new Promise<number | null>((done, fail) => {
      const limit = setTimeout(() => {
        child.kill('SIGKILL');
        fail(new Error(`keel backtest did not end within 60 s: ${stderr}`));
      }, 60_000);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += String(chunk);
        if (!interrupted && stderr.includes('slow: replaying\n')) {
          interrupted = true;
          // It builds the recording's event cache beside it as it replays.
          buildingCache = readdirSync(dir);
          child.kill('SIGINT');
        }
      });
      child.on('exit', (exitCode, signal) => {
        clearTimeout(limit);
        done(signal === null ? exitCode : -1);
      });
    });
    expect(buildingCache, stderr).toContainEqual(
      expect.stringMatching(/^bars\.jsonl\.events\.bin\..*\.partial$/),
    );
    expect(code, stderr).toBe(EXIT.INTERRUPTED);
    expect(stderr).toContain(`stopped by SIGINT; no result written\n`);
    expect(stdout).toBe('');
    // Nothing left of the run: no spill directory, no partial cache, no result, no lock.
    // (tsx keeps its compile cache in the temporary directory.)
    expect(filesUnder(tmp).filter((name) => !name.startsWith('tsx-'))).toEqual([]);
    // The run lock's folder, out/, is made before the run and left empty.
    expect(filesUnder(join(dir, 'out'))).toEqual([]);
    expect(filesUnder(dir).filter((name) => !name.startsWith('tmp/') && !name.startsWith('out'))).toEqual(
      before.filter((name) => !name.startsWith('tmp/')),
    );
    expect(recording).toBe(join(dir, 'bars.jsonl'));
  }, 90_000);
});

import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

// Ctrl-C on `keel backtest` or `keel sweep` stops the runs at their next batch: the process
// exits 130 having removed what the runs wrote on the way (spill files, the event cache being
// built), and writes no result.
const aTempDir = tempDirsRemovedAfterAll('keel-interrupt-cleanup-');
const BTC = 'BINANCE_PERP_BTC_USDT';

/** A strategy that says when a replay is under way, then takes 2 ms a bar: a long run. */
const SLOW_PLUGIN = `import { defineStrategy } from 'keel';
import { z } from 'zod';
const pause = new Int32Array(new SharedArrayBuffer(4));
let bars = 0;
export default defineStrategy({
  name: 'slow',
  params: z.object({ n: z.number().optional() }),
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

/** A folder with a 20 000-bar recording, the slow strategy, its config `bt.yaml` and a `tmp/` for TMPDIR. */
async function slowRunFolder(): Promise<string> {
  const dir = aTempDir();
  mkdirSync(join(dir, 'tmp'));
  await flatBarsRecordingIn(dir, 20_000, Date.UTC(2024, 0, 1), BTC);
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
  return dir;
}

/** How an interrupted keel ended, and the folder's files when the signal was sent. */
interface Interrupted {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly filesWhileRunning: readonly string[];
}

/**
 * Runs keel in `dir` (TMPDIR its `tmp/`) and sends one SIGINT once a replay is under way.
 * @returns its exit code (-1 when a signal killed it), its output, and the folder's files then
 */
function interruptedOnceReplaying(dir: string, args: readonly string[]): Promise<Interrupted> {
  const child = spawn(process.execPath, [resolve('bin/keel.js'), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', TMPDIR: join(dir, 'tmp') },
  });
  let stdout = '';
  let stderr = '';
  let filesWhileRunning: string[] | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += String(chunk);
  });
  return new Promise<Interrupted>((done, fail) => {
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`keel ${args[0]} did not end within 60 s: ${stderr}`));
    }, 60_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += String(chunk);
      if (filesWhileRunning === undefined && stderr.includes('slow: replaying\n')) {
        filesWhileRunning = filesUnder(dir);
        child.kill('SIGINT');
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      done({ code: signal === null ? code : -1, stdout, stderr, filesWhileRunning: filesWhileRunning ?? [] });
    });
  });
}

/** The folder's files apart from `tmp/` (tsx keeps its compile cache there) and the run lock's `out/`. */
function runFiles(dir: string): string[] {
  return filesUnder(dir).filter((name) => !name.startsWith('tmp/') && !name.startsWith('out'));
}

/** What keel left in TMPDIR besides tsx's compile cache. */
function tempLeft(dir: string): string[] {
  return filesUnder(join(dir, 'tmp')).filter((name) => !name.startsWith('tsx-'));
}

const PARTIAL_CACHE = /^bars\.jsonl\.events\.bin\..*\.partial$/;

describe('Ctrl-C', () => {
  it('keel backtest: stops the run, removes its temporary files (spill files, the event cache being built), writes no result, exits 130', async () => {
    const dir = await slowRunFolder();
    const before = runFiles(dir);
    const run = await interruptedOnceReplaying(dir, ['backtest', 'bt.yaml', '--no-progress']);
    // It was building the recording's event cache beside it, and spilling to TMPDIR.
    expect(run.filesWhileRunning, run.stderr).toContainEqual(expect.stringMatching(PARTIAL_CACHE));
    expect(run.code, run.stderr).toBe(EXIT.INTERRUPTED);
    expect(run.stderr).toContain('SIGINT: stopping after the current batch; Ctrl-C again to quit now\n');
    expect(run.stderr).toContain('stopped by SIGINT; no result written\n');
    expect(run.stdout).toBe('');
    expect(tempLeft(dir)).toEqual([]);
    // The run lock's folder is made before the run and left empty.
    expect(filesUnder(join(dir, 'out'))).toEqual([]);
    expect(runFiles(dir)).toEqual(before);
  }, 90_000);

  it('keel sweep: stops its workers, which remove their temporary files (spill files, the event caches being built), exits 130', async () => {
    const dir = await slowRunFolder();
    const before = runFiles(dir);
    const run = await interruptedOnceReplaying(dir, [
      'sweep',
      'bt.yaml',
      '--grid',
      'strategies.0.params.n=1,2,3,4',
      '--workers',
      '2',
      '--metric',
      'totalReturn',
    ]);
    expect(run.filesWhileRunning, run.stderr).toContainEqual(expect.stringMatching(PARTIAL_CACHE));
    expect(run.code, run.stderr).toBe(EXIT.INTERRUPTED);
    expect(run.stderr).toContain('✖ keel sweep: stopped by SIGINT before any backtest finished; no table\n');
    expect(run.stderr).not.toMatch(/Warning/);
    expect(tempLeft(dir)).toEqual([]);
    expect(runFiles(dir)).toEqual(before);
  }, 90_000);
});

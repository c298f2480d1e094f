import { copyFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-sec-overwrite-');
const SESSION = 'backtest/sessions/example-synthetic.jsonl.gz';
const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';

/** A backtest of a copy of the example session, with `sets` as `--set`s; the run is refused before it reads anything. */
async function backtest(dir: string, config: string, sets: readonly string[]) {
  const recording = join(dir, 'session.jsonl.gz');
  copyFileSync(SESSION, recording);
  const before = readFileSync(recording);
  const out = await keelInProcess([
    'backtest',
    config,
    '--no-progress',
    '--recording',
    recording,
    ...sets.flatMap((set) => ['--set', set]),
  ]);
  return { ...out, recordingUnchanged: readFileSync(recording).equals(before) };
}

describe('an output path that is an input or another output', () => {
  it('report.html naming the recording: exit 2 before the run, the recording intact', async () => {
    const dir = tempDir();
    const run = await backtest(dir, EXAMPLE, [
      `report.html=${join(dir, 'session.jsonl.gz')}`,
      `report.json=${join(dir, 'result.json')}`,
    ]);
    expect({ code: run.code, recordingUnchanged: run.recordingUnchanged }).toEqual({
      code: 2,
      recordingUnchanged: true,
    });
    expect(run.stderr).toMatch(/report\.html .*session\.jsonl\.gz is the same file as the recording/);
  }, 60_000);

  it('report.json through a symlink to the recording: refused too (paths are compared as files)', async () => {
    const dir = tempDir();
    symlinkSync(join(dir, 'session.jsonl.gz'), join(dir, 'link.json'));
    const run = await backtest(dir, EXAMPLE, [
      `report.json=${join(dir, 'link.json')}`,
      `report.html=${join(dir, 'report.html')}`,
    ]);
    expect({ code: run.code, recordingUnchanged: run.recordingUnchanged }).toEqual({
      code: 2,
      recordingUnchanged: true,
    });
  }, 60_000);

  it('report.html naming the config itself: refused, the config intact', async () => {
    const dir = tempDir();
    const config = join(dir, 'run.yaml');
    const text = readFileSync(EXAMPLE, 'utf8');
    writeFileSync(config, text);
    const run = await backtest(dir, config, [`report.html=${config}`, `report.json=${join(dir, 'r.json')}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is the same file as the config/);
    expect(readFileSync(config, 'utf8')).toBe(text);
  }, 60_000);

  it('report.html naming one of the result CSVs: refused, one output never written over another', async () => {
    const dir = tempDir();
    const run = await backtest(dir, EXAMPLE, [
      `report.json=${join(dir, 'r.json')}`,
      `report.html=${join(dir, 'r.trades.csv')}`,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the result CSV .*r\.trades\.csv is the same file as report\.html/);
  }, 60_000);
});

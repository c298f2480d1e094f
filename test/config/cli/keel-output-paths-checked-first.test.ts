import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-output-paths-');
const BACKTEST = 'config/examples/sma-cross-backtest.yaml';
const PAPER = 'config/examples/market-maker-paper.yaml';

/** `keel backtest` of the example writing its result and report to these files. */
function backtestArgs(json: string, html: string): string[] {
  return [
    'backtest',
    BACKTEST,
    '--no-progress',
    '--set',
    `report.json=${json}`,
    '--set',
    `report.html=${html}`,
  ];
}

describe('an output path a backtest cannot write', () => {
  it('report.html under a regular file: exit 2 before the run, naming the key and its --set, nothing written', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'afile'), '');
    const html = join(dir, 'afile', 'r.html');
    const run = await keelInProcess(backtestArgs(join(dir, 'r.json'), html));
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toContain('✖ report.html cannot be written');
    expect(run.stderr).toContain(`→ at report.html (--set report.html=${html})`);
    expect(run.stdout).toBe('');
    expect(existsSync(join(dir, 'r.json'))).toBe(false);
  }, 60_000);

  it('report.html naming a directory: exit 2 before the run', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'taken.html'));
    const run = await keelInProcess(backtestArgs(join(dir, 'r.json'), join(dir, 'taken.html')));
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toMatch(
      /✖ report\.html cannot be written: .*taken\.html: a directory is where the file goes/,
    );
    expect(existsSync(join(dir, 'r.json'))).toBe(false);
  }, 60_000);

  it('a result CSV whose name a directory holds: exit 2 at report.json, which names the CSVs', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'r.trades.csv'));
    const run = await keelInProcess(backtestArgs(join(dir, 'r.json'), join(dir, 'r.html')));
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toMatch(/✖ report\.json cannot be written: .*r\.trades\.csv: a directory/);
    expect(existsSync(join(dir, 'r.json'))).toBe(false);
  }, 60_000);
});

describe('an output path a paper session cannot write', () => {
  it('recording.path under a regular file: exit 2 naming recording.path, the session never started', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'afile'), '');
    const recording = join(dir, 'afile', 'x.jsonl.gz');
    const run = await keelInProcess([
      'run',
      PAPER,
      '--set',
      `recording.path=${recording}`,
      '--set',
      `report.json=${join(dir, 'r.json')}`,
      '--set',
      `report.html=${join(dir, 'r.html')}`,
    ]);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toContain(`✖ recording.path cannot be written: ${recording}`);
    expect(run.stderr).toContain(`→ at recording.path (--set recording.path=${recording})`);
    expect(existsSync(join(dir, 'r.json'))).toBe(false);
  }, 60_000);

  it('recording.path naming a directory: exit 2 before the session starts', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'rec'));
    const run = await keelInProcess([
      'run',
      PAPER,
      '--set',
      `recording.path=${join(dir, 'rec')}`,
      '--set',
      `report.json=${join(dir, 'r.json')}`,
      '--set',
      `report.html=${join(dir, 'r.html')}`,
    ]);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toMatch(
      /✖ recording\.path cannot be written: .*rec: a directory is where the file goes/,
    );
    expect(existsSync(join(dir, 'r.json'))).toBe(false);
  }, 60_000);
});

describe('an output another run holds', () => {
  it('a backtest sharing only its report.html with a running one: exit 2 naming the pid, nothing written', () => {
    const dir = tempDir();
    // This test's process stands for the other run: it runs, so its lock is not taken over.
    writeFileSync(
      join(dir, 'same.html.lock'),
      `${JSON.stringify({ pid: process.pid, startedAt: '2026-11-29T10:00:00.000Z' })}\n`,
    );
    const run = keelChild(backtestArgs(join(dir, 'mine.json'), join(dir, 'same.html')));
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toContain(`another Keel run (pid ${process.pid},`);
    expect(run.stderr).toContain(`is writing ${join(dir, 'same.html')}`);
    expect(existsSync(join(dir, 'mine.json'))).toBe(false);
  }, 90_000);

  it('a paper session sharing only its report.html: exit 2, said on a ✖ line like every other error', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'same.html.lock'),
      `${JSON.stringify({ pid: process.pid, startedAt: '2026-11-29T10:00:00.000Z' })}\n`,
    );
    const run = keelChild([
      'run',
      PAPER,
      '--set',
      `recording.path=${join(dir, 'x.jsonl.gz')}`,
      '--set',
      `report.json=${join(dir, 'mine.json')}`,
      '--set',
      `report.html=${join(dir, 'same.html')}`,
    ]);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toMatch(new RegExp(`^✖ .*another Keel run \\(pid ${process.pid},`));
    expect(existsSync(join(dir, 'x.jsonl.gz'))).toBe(false);
  }, 90_000);
});

describe.skipIf(!existsSync('/proc/self'))('keel sweep --out where no file can be made', () => {
  it('/proc/x.csv: exit 2 before any backtest', async () => {
    const run = await keelInProcess([
      'sweep',
      BACKTEST,
      '--grid',
      'strategies.0.params.fast=3,4',
      '--out',
      '/proc/x.csv',
    ]);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toContain('✖ keel sweep --out /proc/x.csv: cannot write there');
  }, 120_000);
});

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { keelChild, reportOutputFlags } from '../../kit/keel-child-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-backtest-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What Keel left in a temporary directory (tsx keeps its compile cache there too). */
const keelLeftovers = (tmp: string): string[] => readdirSync(tmp).filter((name) => name.startsWith('keel-'));

/** Runs the CLI with its temporary directory (os.tmpdir()) in a fresh folder, to see what it leaves there. */
function keel(args: string[], tmp: string) {
  mkdirSync(tmp, { recursive: true });
  return keelChild(args, { env: { TMPDIR: tmp } });
}

const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';
const SESSION = 'backtest/sessions/example-synthetic.jsonl.gz';
const outputs = (name: string) => reportOutputFlags(dir, name);

describe('keel backtest and sweep files', () => {
  it('keeps an event cache next to the recording by default, says where, and gives the same result from it', () => {
    const recording = join(dir, 'cached', 'session.jsonl.gz');
    mkdirSync(join(dir, 'cached'));
    copyFileSync(SESSION, recording);
    const tmp = join(dir, 'tmp-cached');
    const args = ['backtest', EXAMPLE, '--no-progress', '--recording', recording];
    const first = keel([...args, ...outputs('first')], tmp);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(EXIT.OK);
    // The recording lies outside the working directory (a temp dir), so the line names it in full.
    expect(first.stdout).toContain(`event cache: ${recording}.events.bin`);
    expect(existsSync(`${recording}.events.bin`)).toBe(true);
    expect(existsSync(`${recording}.events.json`)).toBe(true);
    const second = keel([...args, ...outputs('second')], tmp);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(EXIT.OK);
    const off = keel([...args, '--set', 'backtest.eventCache=false', ...outputs('off')], tmp);
    expect(off.stderr).toBe('');
    expect(off.code).toBe(EXIT.OK);
    expect(off.stdout).toContain('event cache: off (backtest.eventCache: false)');
    const bytes = (name: string) => readFileSync(join(dir, `${name}-result.json`));
    expect(bytes('second').equals(bytes('first'))).toBe(true);
    expect(bytes('off').equals(bytes('first'))).toBe(true);
    expect(keelLeftovers(tmp)).toEqual([]);
  }, 120_000);

  it('sums up the event caches of several recordings in one line: built by the first run, reused by the next', () => {
    const recordings = ['a', 'b'].map((name) => {
      mkdirSync(join(dir, `several-${name}`));
      const recording = join(dir, `several-${name}`, 'session.jsonl.gz');
      copyFileSync(SESSION, recording);
      return recording;
    });
    const tmp = join(dir, 'tmp-several');
    const args = ['backtest', EXAMPLE, '--no-progress', ...recordings.flatMap((r) => ['--recording', r])];
    const first = keel([...args, ...outputs('several-first')], tmp);
    expect(first.code).toBe(EXIT.OK);
    const second = keel([...args, ...outputs('several-second')], tmp);
    expect(second.code).toBe(EXIT.OK);
    const cacheLines = (stdout: string) => stdout.split('\n').filter((line) => line.includes('event cache:'));
    expect(cacheLines(first.stdout)).toEqual([
      expect.stringMatching(/^ {2}event cache: 2 recordings, 0 reused, 2 built \(/),
    ]);
    expect(cacheLines(second.stdout)).toEqual([
      expect.stringMatching(/^ {2}event cache: 2 recordings, 2 reused, 0 built \(/),
    ]);
  }, 120_000);

  it('writes no event cache when it is turned off', () => {
    const recording = join(dir, 'uncached', 'session.jsonl.gz');
    mkdirSync(join(dir, 'uncached'));
    copyFileSync(SESSION, recording);
    const run = keel(
      [
        'backtest',
        EXAMPLE,
        '--no-progress',
        '--recording',
        recording,
        '--set',
        'backtest.eventCache=false',
        ...outputs('uncached'),
      ],
      join(dir, 'tmp-uncached'),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    expect(readdirSync(join(dir, 'uncached'))).toEqual(['session.jsonl.gz']);
  }, 60_000);

  it('a sweep leaves no temporary files behind', () => {
    const tmp = join(dir, 'tmp-sweep');
    const run = keel(
      [
        'sweep',
        EXAMPLE,
        '--grid',
        'strategies.0.params.fast=2,3',
        '--workers',
        '2',
        '--metric',
        'totalReturn',
        '--out',
        join(dir, 'sweep.csv'),
      ],
      tmp,
    );
    expect(run.code).toBe(EXIT.OK);
    expect(readFileSync(join(dir, 'sweep.csv'), 'utf8').trim().split('\n')).toHaveLength(3);
    expect(keelLeftovers(tmp)).toEqual([]);
  }, 120_000);
});

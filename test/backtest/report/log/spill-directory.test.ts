import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processIdentity, SpillDirectory } from '../../../../backtest/report/index.ts';
import {
  removeDeadSpillDirectories,
  SPILL_STALE_AFTER_MS,
} from '../../../../backtest/report/log/spill-directory.ts';
import { fakeProbe } from '../../../kit/fake-process-probe.ts';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const here = { bootId: 'boot-1', pidNamespace: 'pid:[4026531836]', host: 'box' };
const probe = fakeProbe({ self: { pid: 7, ticks: '5000' }, others: { 42: '4000' } });

describe('removing the spill directories of processes that are gone', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'keel-spill-sweep-test-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  /** A spill directory as a process would make it: its owner file (when given) last touched `ageMs` before NOW. */
  const spill = (name: string, owner: object | undefined, ageMs = 0): string => {
    const path = join(tmp, name);
    mkdirSync(path);
    writeFileSync(join(path, 'fills.jsonl'), '{}\n');
    const at = (NOW - ageMs) / 1000;
    if (owner !== undefined) {
      writeFileSync(join(path, '.keel-owner.json'), JSON.stringify(owner));
      utimesSync(join(path, '.keel-owner.json'), at, at);
    }
    utimesSync(path, at, at);
    return name;
  };
  const sweep = () => {
    removeDeadSpillDirectories(tmp, probe, NOW);
    return readdirSync(tmp).sort();
  };

  it('keeps a directory of a run in another container sharing the temporary directory, whose pid this one cannot see', () => {
    const name = spill(
      'keel-backtest-2-aB3dE9',
      { pid: 2, startTicks: '10', ...here, pidNamespace: 'pid:[4026532999]' },
      5_000,
    );
    expect(sweep()).toEqual([name]);
    expect(readdirSync(join(tmp, name)).sort()).toEqual(['.keel-owner.json', 'fills.jsonl']);
  });

  it('removes a directory from another container once its heartbeat is old', () => {
    spill(
      'keel-backtest-2-aB3dE9',
      { pid: 2, startTicks: '10', ...here, pidNamespace: 'pid:[4026532999]' },
      SPILL_STALE_AFTER_MS,
    );
    spill(
      'keel-session-3-aB3dE9',
      { pid: 3, startTicks: '10', ...here, host: 'elsewhere' },
      SPILL_STALE_AFTER_MS + 1,
    );
    expect(sweep()).toEqual([]);
  });

  it('in this pid namespace, removes those whose pid runs nothing or a process started since, and keeps the rest', () => {
    spill('keel-backtest-43-aaaaaa', { pid: 43, startTicks: '4000', ...here });
    spill('keel-backtest-42-bbbbbb', { pid: 42, startTicks: '3000', ...here });
    spill('keel-run-7-cccccc', { pid: 7, startTicks: '1', ...here });
    const running = spill('keel-backtest-42-dddddd', { pid: 42, startTicks: '4000', ...here });
    const mine = spill('keel-result-7-eeeeee', { pid: 7, startTicks: '5000', ...here });
    expect(sweep()).toEqual([running, mine].sort());
  });

  it('judges a directory without an owner file (an older Keel, or one being made) by its pid and its age', () => {
    const running = spill('keel-backtest-42-aaaaaa', undefined, SPILL_STALE_AFTER_MS);
    const fresh = spill('keel-backtest-43-bbbbbb', undefined, 1_000);
    spill('keel-backtest-44-cccccc', undefined, SPILL_STALE_AFTER_MS);
    const torn = spill('keel-backtest-45-dddddd', undefined, SPILL_STALE_AFTER_MS);
    writeFileSync(join(tmp, torn, '.keel-owner.json'), '{"pid":4');
    expect(sweep()).toEqual([running, fresh, torn].sort());
  });

  it('leaves other files and directories alone', () => {
    spill('keel-backtest-files-x', undefined, SPILL_STALE_AFTER_MS);
    spill('other-44-aaaaaa', undefined, SPILL_STALE_AFTER_MS);
    expect(sweep()).toEqual(['keel-backtest-files-x', 'other-44-aaaaaa']);
  });
});

describe('a spill directory', () => {
  it("made next to a running backtest's from another container, leaves that one's files alone", () => {
    const shared = mkdtempSync(join(tmpdir(), 'keel-spill-shared-test-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = shared;
    try {
      // A pid no process has here: the run is in another pid namespace, its owner file just touched.
      const other = join(shared, `keel-backtest-${2 ** 30 - 1}-aB3dE9`);
      mkdirSync(other);
      writeFileSync(join(other, 'trade-pnls.jsonl'), '{}\n');
      writeFileSync(
        join(other, '.keel-owner.json'),
        JSON.stringify({
          pid: 2 ** 30 - 1,
          startTicks: '1',
          bootId: 'b',
          pidNamespace: 'pid:[4026532999]',
          host: hostname(),
        }),
      );
      const mine = new SpillDirectory('keel-test-');
      expect(existsSync(join(other, 'trade-pnls.jsonl'))).toBe(true);
      mine.dispose();
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it('names its process in its owner file, so other processes can tell it runs', () => {
    const dir = new SpillDirectory('keel-test-');
    const owner = join(dir.path, '.keel-owner.json');
    expect(JSON.parse(readFileSync(owner, 'utf8'))).toEqual(processIdentity());
    dir.dispose();
    expect(existsSync(dir.path)).toBe(false);
  });
});

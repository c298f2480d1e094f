import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { modeOf, POSIX_MODES } from '../../kit/file-modes.ts';
import { keelChild, reportOutputFlags } from '../../kit/keel-child-process.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { sweepCsvRows } from '../../kit/sweep-csv-rows.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterAll('keel-sweep-')();
const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';
const FAST = 'strategies.0.params.fast';
const SLOW = 'strategies.0.params.slow';

/** The metrics of a single `keel backtest` of the example with these overrides. */
async function singleBacktest(name: string, args: readonly string[]): Promise<Record<string, number>> {
  const run = await keelInProcess([
    'backtest',
    EXAMPLE,
    '--no-progress',
    ...args,
    ...reportOutputFlags(dir, name),
  ]);
  expect(run.code, run.stderr).toBe(EXIT.OK);
  return JSON.parse(readFileSync(join(dir, `${name}-result.json`), 'utf8')).metrics;
}

describe('keel sweep: what each row says', () => {
  it('refuses a --set (or --from/--to) on a grid axis path, naming both, before any backtest (exit 2)', async () => {
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--set',
      `${FAST}=3`,
      '--grid',
      `strategies[0].params.fast=5,8`,
      '--grid',
      `${SLOW}=21`,
    ]);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toBe(
      `✖ --set ${FAST}=3 and --grid ${FAST}=... both set ${FAST} (the grid's values would run); give its values in the --grid alone\n`,
    );
    const from = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--from',
      '2025-01-06T14:35:00Z',
      '--grid',
      'backtest.from=2025-01-06T14:31:00Z,2025-01-06T14:40:00Z',
    ]);
    expect(from.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(from.stderr).toMatch(
      /^✖ --from 2025-01-06T14:35:00Z and --grid backtest\.from=\.\.\. both set backtest\.from /,
    );
  }, 60_000);

  it('writes every metric to the CSV as computed (the terminal shows 4 decimals)', async () => {
    const csv = join(dir, 'precision.csv');
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--grid',
      `${FAST}=3`,
      '--grid',
      `${SLOW}=8`,
      '--metric',
      'totalReturn',
      '--out',
      csv,
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    const single = await singleBacktest('precision', ['--set', `${FAST}=3`, '--set', `${SLOW}=8`]);
    const [cells] = sweepCsvRows(csv).rows;
    expect(Number(cells?.totalReturn)).toBe(single.totalReturn);
    expect(cells?.totalReturn).not.toMatch(/^-?\d+\.\d{4}$/);
    expect(run.stdout.split('\n')[1]).toContain(` ${single.totalReturn?.toFixed(4)} `);
  }, 120_000);

  it('counts the intents the risk gate denied in a denied column and names the first reason under the table', async () => {
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--grid',
      'strategies.0.risk.maxPositionQty=0.5,2',
      '--metric',
      'totalReturn',
      // One worker thread: the rows are the same, and a second thread cost another module import.
      '--workers',
      '1',
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    const [header, best, other] = run.stdout.split('\n');
    expect(header).toMatch(/\s+fills\s+denied$/);
    // The row whose every order was denied (0 trades, return 0) still ranks first, but says so.
    expect(best).toMatch(/^\s+0\.5\s+0\s.*\s0\s+4$/);
    expect(other).toMatch(/\s0$/);
    expect(run.stdout).toMatch(
      /\n⚠ strategies\.0\.risk\.maxPositionQty=0\.5: 4 intents denied \(risk maxPosition 4\); the first: .+\n/,
    );
  }, 120_000);
});

describe('keel sweep: --out', () => {
  it('makes a missing folder, as keel backtest does, and removes a partial table an earlier stopped sweep left', async () => {
    const csv = join(dir, 'no-such-dir', 'deeper', 'sweep.csv');
    mkdirSync(dirname(csv), { recursive: true });
    const stale = join(dirname(csv), 'sweep.partial.csv');
    writeFileSync(stale, 'fast,totalReturn\n3,0.1\n');
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--grid',
      `${FAST}=3,5`,
      '--metric',
      'totalReturn',
      '--workers',
      '1',
      '--out',
      csv,
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(sweepCsvRows(csv).rows).toHaveLength(2);
    expect(existsSync(stale)).toBe(false);
  }, 120_000);

  // The table holds a strategy's parameters and results: it was written with the umask's mode (0644).
  it.skipIf(!POSIX_MODES)(
    'writes its table 0600 in the folder it made 0700, over an earlier table too',
    async () => {
      const csv = join(dir, 'private-out', 'sweep.csv');
      const sweep = () =>
        keelInProcess(['sweep', EXAMPLE, '--grid', `${FAST}=3`, '--metric', 'totalReturn', '--out', csv]);
      expect((await sweep()).code).toBe(EXIT.OK);
      expect([modeOf(dirname(csv)), modeOf(csv)]).toEqual(['700', '600']);
      chmodSync(csv, 0o644);
      expect((await sweep()).code).toBe(EXIT.OK);
      expect(modeOf(csv)).toBe('600');
    },
    120_000,
  );

  it('refuses, in one line and before any backtest, a file it cannot write (exit 2)', async () => {
    writeFileSync(join(dir, 'a-file'), '');
    const out = join(dir, 'a-file', 'sweep.csv');
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--grid',
      `${FAST}=3,5`,
      '--metric',
      'totalReturn',
      '--out',
      out,
    ]);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toMatch(new RegExp(`^✖ keel sweep --out ${out}: cannot write there: [^\\n]+\\n$`));
    expect(run.stdout).toBe('');
  }, 60_000);
});

describe('keel sweep: --from and --to', () => {
  it('narrow every combination to the window, as keel backtest does', async () => {
    const window = ['--from', '2025-01-06T14:35:00Z', '--to', '2025-01-06T14:55:00Z'];
    const csv = join(dir, 'window.csv');
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      ...window,
      '--grid',
      `${FAST}=3`,
      '--metric',
      'totalReturn',
      '--out',
      csv,
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    const single = await singleBacktest('window', [...window, '--set', `${FAST}=3`]);
    expect(Number(sweepCsvRows(csv).rows[0]?.totalReturn)).toBe(single.totalReturn);
    expect(single.totalReturn).not.toBe((await singleBacktest('whole', ['--set', `${FAST}=3`])).totalReturn);
  }, 120_000);

  it('skip and list a grid combination whose window ends before it starts, running the others', async () => {
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--from',
      '2025-01-06T14:40:00Z',
      '--grid',
      'backtest.to=2025-01-06T14:35:00Z,2025-01-06T14:55:00Z',
      '--metric',
      'totalReturn',
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stdout).toContain('1 of 2 combinations (SYNTHETIC data)');
    expect(run.stdout).toContain(
      '⚠ 1 of 2 combinations not run, their replay window ends before it starts:\n  backtest.to=2025-01-06T14:35:00Z: backtest.to must be later than from\n',
    );
  }, 120_000);
});

/** Writes a backtest config running the hanging plugin over the example session. */
function hangingConfig(): string {
  const file = join(dir, 'hanging.yaml');
  writeFileSync(
    file,
    `mode: backtest
name: hanging
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: h
    use: ${resolve('test/config/fixtures/hanging-plugin.ts')}
    params: { sym: BINANCE_PERP_BTC_USDT }
backtest:
  recordings: [${resolve('backtest/sessions/example-synthetic.jsonl.gz')}]
  startingCash: { USDT: 100000 }
  eventCache: false
`,
  );
  return file;
}

/** This process's backtest and sweep spill directories in the temporary folder. */
const spillDirectories = (): string[] =>
  readdirSync(tmpdir()).filter((name) =>
    ['backtest', 'sweep'].some((kind) => name.startsWith(`keel-${kind}-${process.pid}-`)),
  );

describe('keel sweep: a combination that never ends', () => {
  it('--timeout turns it into a failed row, stops its worker and keeps the other rows (exit 1)', async () => {
    const csv = join(dir, 'timeout.csv');
    const spilledBefore = spillDirectories();
    const run = await keelInProcess([
      'sweep',
      hangingConfig(),
      '--grid',
      'strategies.0.params.hang=true,false',
      '--workers',
      '1',
      '--timeout',
      '4',
      '--metric',
      'totalReturn',
      '--out',
      csv,
    ]);
    expect(run.code, run.stderr).toBe(EXIT.RUNTIME_FAILURE);
    expect(run.stdout).toContain(
      '✖ strategies.0.params.hang=true: its backtest failed: it ran longer than --timeout 4 s and its worker was stopped\n',
    );
    expect(
      sweepCsvRows(csv).rows.map((cells) => [cells['strategies.0.params.hang'], cells.failed, cells.error]),
    ).toEqual([
      ['false', '', ''],
      ['true', 'yes', 'it ran longer than --timeout 4 s and its worker was stopped'],
    ]);
    // The stopped worker could not remove its backtest's spill directory: the sweep removed it.
    expect(spillDirectories()).toEqual(spilledBefore);
  }, 120_000);
});

describe('keel sweep: a --timeout longer than a Node timer holds', () => {
  it('is no limit, rather than a timer firing at once and failing every combination', () => {
    // In a child: Node writes a TimeoutOverflowWarning to the process's own stderr, not to keel's io.
    const run = keelChild([
      'sweep',
      hangingConfig(),
      '--grid',
      'strategies.0.params.hang=false',
      '--workers',
      '1',
      '--timeout',
      '3000000',
      '--metric',
      'totalReturn',
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stderr).not.toContain('TimeoutOverflowWarning');
    expect(run.stdout).not.toContain('its backtest failed');
  }, 120_000);
});

describe('keel sweep: Ctrl-C', () => {
  it('prints the rows finished so far and writes them beside --out, marked partial, then exits 130', async () => {
    const csv = join(dir, 'interrupted.csv');
    const child = spawn(process.execPath, [
      resolve('bin/keel.js'),
      'sweep',
      EXAMPLE,
      '--grid',
      `${FAST}=2..11`,
      '--grid',
      `${SLOW}=12..41`,
      '--metric',
      'totalReturn',
      '--workers',
      '2',
      '--out',
      csv,
    ]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    // One Ctrl-C: every later stderr chunk still matches, and a second SIGINT quits at once.
    let interrupted = false;
    const code = await new Promise<number | null>((done) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        if (!interrupted && /sweep: 4\/300 backtests done/.test(stderr)) {
          interrupted = true;
          child.kill('SIGINT');
        }
      });
      child.on('exit', (c, signal) => done(signal === null ? c : -1));
    });
    const finished = Number(/sweep: (\d+)\/300 backtests done\n$/.exec(stderr)?.[1] ?? 0);
    expect(finished).toBeGreaterThanOrEqual(4);
    expect(code, stderr).toBe(EXIT.INTERRUPTED);
    expect(stdout).toContain(`\n⚠ partial: ${finished} of 300 backtests (stopped by SIGINT)\n`);
    // Written beside --out, so that a file at --out always holds the whole grid.
    const partial = join(dir, 'interrupted.partial.csv');
    expect(stdout).toContain(
      `table: ${partial} (partial: ${finished} of 300 backtests (stopped by SIGINT))\n`,
    );
    expect(stdout.split('\n').filter((line) => /^\s+\d+\s+\d+\s/.test(line))).toHaveLength(finished);
    expect(existsSync(partial) && sweepCsvRows(partial).rows).toHaveLength(finished);
    expect(existsSync(csv)).toBe(false);
  }, 180_000);
});

describe('keel sweep: --recording', () => {
  /** The example session's first `lines` lines (its header and first records), as a recording of its own. */
  function firstLinesOfExample(lines: number): string {
    const path = join(dir, `first-${lines}.jsonl`);
    const text = gunzipSync(readFileSync('backtest/sessions/example-synthetic.jsonl.gz')).toString('utf8');
    writeFileSync(path, `${text.split('\n').slice(0, lines).join('\n')}\n`);
    return path;
  }

  it("replaces the config's recordings in every combination, as keel backtest --recording does", async () => {
    const recording = firstLinesOfExample(20_000);
    const csv = join(dir, 'recording.csv');
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--recording',
      recording,
      '--grid',
      `${FAST}=3`,
      '--metric',
      'totalReturn',
      '--out',
      csv,
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stdout).toContain('1 combinations (SYNTHETIC data)');
    const single = await singleBacktest('recording', ['--recording', recording, '--set', `${FAST}=3`]);
    expect(Number(sweepCsvRows(csv).rows[0]?.totalReturn)).toBe(single.totalReturn);
    expect(single.totalReturn).not.toBe(
      (await singleBacktest('config-recording', ['--set', `${FAST}=3`])).totalReturn,
    );
  }, 120_000);

  it('refuses a missing --recording by name before any backtest, exit 2', async () => {
    const missing = join(dir, 'gone.jsonl');
    const run = await keelInProcess(['sweep', EXAMPLE, '--recording', missing, '--grid', `${FAST}=3,5`]);
    expect(run.stderr).toBe(`✖ --recording ${missing}: no such file\n`);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });
});

import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { keelChild, reportOutputFlags } from '../../kit/keel-child-process.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-commands-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';
const outputs = (name: string) => reportOutputFlags(dir, name);

describe('keel backtest, report, sweep and venue as a user runs them', () => {
  it('backtests the example into result.json and report.html, byte-identical when run twice', async () => {
    // Once as a user runs it, once in this process: the second run shares no state with the first.
    const first = keelChild(['backtest', EXAMPLE, '--no-progress', ...outputs('a')]);
    const second = await keelInProcess(['backtest', EXAMPLE, '--no-progress', ...outputs('b')]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(EXIT.OK);
    expect(second.code).toBe(EXIT.OK);
    expect(first.stdout).toContain('SYNTHETIC');
    const a = readFileSync(join(dir, 'a-result.json'));
    expect(a.equals(readFileSync(join(dir, 'b-result.json')))).toBe(true);
    expect(readFileSync(join(dir, 'a-report.html'), 'utf8')).toContain('<html');
  }, 60_000);

  it("--recording replaces the config's recordings (how a recorded paper session is backtested)", async () => {
    const run = await keelInProcess([
      'backtest',
      'config/examples/replay-paper-session.yaml',
      '--no-progress',
      '--recording',
      'backtest/sessions/example-synthetic.jsonl.gz',
      ...outputs('replayed'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    const result = JSON.parse(readFileSync(join(dir, 'replayed-result.json'), 'utf8'));
    expect(result.meta.recordings.map((r: { path: string }) => r.path)).toEqual([
      'backtest/sessions/example-synthetic.jsonl.gz',
    ]);
  }, 60_000);

  it('writes the same result.json for the same project wherever it lies (recordings named from the working directory)', async () => {
    const copies: Buffer[] = [];
    for (const name of ['one', 'elsewhere/two']) {
      const root = join(dir, name);
      mkdirSync(join(root, 'config/examples'), { recursive: true });
      mkdirSync(join(root, 'backtest/sessions'), { recursive: true });
      copyFileSync(EXAMPLE, join(root, EXAMPLE));
      copyFileSync(
        'backtest/sessions/example-synthetic.jsonl.gz',
        join(root, 'backtest/sessions/example-synthetic.jsonl.gz'),
      );
      const run = await keelInProcess(['backtest', EXAMPLE, '--no-progress'], { cwd: root });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(EXIT.OK);
      copies.push(readFileSync(join(root, 'out/sma-cross-backtest-result.json')));
    }
    expect(JSON.parse(copies[0]!.toString()).meta.recordings[0].path).toBe(
      'backtest/sessions/example-synthetic.jsonl.gz',
    );
    expect(copies[0]!.equals(copies[1]!)).toBe(true);
  }, 60_000);

  it('keel import-csv turns OHLCV rows into a recording a backtest replays', async () => {
    const csv = join(dir, 'bars.csv');
    const recording = join(dir, 'bars.jsonl');
    writeFileSync(
      csv,
      [
        'time,open,high,low,close,volume',
        ...Array.from({ length: 40 }, (_, i) => {
          const close = 100 + Math.round(10 * Math.sin(i / 4));
          return `${new Date(Date.UTC(2025, 0, 6, 14, 30 + i)).toISOString()},${close},${close + 1},${close - 1},${close},10`;
        }),
      ].join('\n'),
    );
    const imported = await keelInProcess([
      'import-csv',
      csv,
      '--sym',
      'BINANCE_PERP_BTC_USDT',
      '--out',
      recording,
    ]);
    expect(imported.code).toBe(EXIT.OK);
    expect(imported.stdout).toMatch(/^✔ 40 1m bars of BINANCE_PERP_BTC_USDT/);
    const run = await keelInProcess([
      'backtest',
      EXAMPLE,
      '--no-progress',
      '--recording',
      recording,
      ...outputs('csv'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
  }, 60_000);

  it('keel report rebuilds the HTML from the result alone', async () => {
    const out = join(dir, 'rebuilt.html');
    const run = await keelInProcess(['report', join(dir, 'a-result.json'), '--out', out]);
    expect(run.code).toBe(EXIT.OK);
    expect(readFileSync(out, 'utf8')).toContain('sma-cross');
  }, 60_000);

  it('keel sweep gives one row per combination, sorted by the metric, and a CSV; lists the combinations the strategy refuses', async () => {
    const csv = join(dir, 'sweep.csv');
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--grid',
      'strategies.0.params.fast=2,3,7',
      '--grid',
      'strategies.0.params.slow=6..8:2',
      '--workers',
      '2',
      '--metric',
      'totalReturn',
      '--out',
      csv,
      ...outputs('sweep'),
    ]);
    expect(run.code).toBe(EXIT.OK);
    const rows = readFileSync(csv, 'utf8').trim().split('\n');
    // The CSV's columns do not follow --metric: the axes, then every metric in its order.
    expect(rows[0]).toMatch(/^strategies\.0\.params\.fast,strategies\.0\.params\.slow,start,end,/);
    const totalReturn = rows[0]?.split(',').indexOf('totalReturn') ?? -1;
    expect(totalReturn).toBeGreaterThan(1);
    // fast 7 with slow 6 breaks sma-cross's own rule (fast < slow): listed, not run, not in the CSV.
    expect(rows).toHaveLength(6);
    expect(rows.map((row) => row.split(',').slice(0, 2).join(' '))).not.toContain('7 6');
    const returns = rows.slice(1).map((row) => Number(row.split(',')[totalReturn]));
    expect(returns).toEqual([...returns].sort((x, y) => y - x));
    expect(run.stdout).toContain('5 of 6 combinations (SYNTHETIC data) on 2 worker(s)');
    expect(run.stdout).toMatch(/ s, sorted by totalReturn, highest first\n/);
    expect(run.stdout).toContain(
      "⚠ 1 of 6 combinations not run, refused by the strategy's own check of its params:\n  strategies.0.params.fast=7 strategies.0.params.slow=6: fast must be shorter than slow\n",
    );
    // Not a terminal: one plain progress line per finished backtest, no carriage returns.
    expect(run.stderr).toContain('sweep: 5/5 backtests done\n');
    expect(run.stderr).not.toContain('\r');
    expect(run.stdout).not.toContain('n/a in every row');
  }, 120_000);

  it('keel sweep says when the chosen metric is n/a in every row', async () => {
    const run = await keelInProcess([
      'sweep',
      EXAMPLE,
      '--grid',
      'strategies.0.params.fast=2,3',
      '--metric',
      'sharpe',
    ]);
    expect(run.code).toBe(EXIT.OK);
    const short = 'not annualized: the run is shorter than a day';
    expect(run.stdout).toContain(
      `⚠ sharpe is n/a in every row (${short}), so the rows keep the grid's order`,
    );
    // Each n/a cell carries its reason's mark, the reason written once under the table's rows.
    const lines = run.stdout.split('\n');
    expect(lines[1]).toMatch(/ n\/a\[1\] /);
    expect(lines[2]).toMatch(/ n\/a\[1\] /);
    expect(lines[3]).toMatch(new RegExp(`^\\[1\\] ${short} \\(sharpe[,)]`));
  }, 120_000);

  it('a broken config gives one line with file:line:col, exit 2', async () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(
      file,
      readFileSync(EXAMPLE, 'utf8').replace('      fast: 3', '      fast: 3\n      fats: 4'),
    );
    const run = await keelInProcess(['backtest', file, '--no-progress']);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/fats.*broken\.yaml:\d+:\d+/);
  }, 60_000);

  /** Starts `keel venue` with `env` besides PATH; resolves once it printed its credentials. */
  /** The REST endpoint and credentials `keel venue` printed. */
  function endpointOf(stdout: string) {
    const field = (name: string) => new RegExp(`${name}: +(\\S+)`).exec(stdout)?.[1] ?? '';
    return { restUrl: field('base URL'), apiKey: field('API key'), apiSecret: field('API secret') };
  }

  async function startedVenue(env: Record<string, string> = {}, args: string[] = []) {
    const child = spawn(process.execPath, [resolve('bin/keel.js'), 'venue', ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    await new Promise<void>((ready, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += String(chunk);
        if (stdout.includes('API secret:')) ready();
      });
      child.once('exit', () => fail(new Error(`keel venue exited early: ${stdout}`)));
    });
    const stop = () =>
      new Promise<number | null>((done) => {
        child.removeAllListeners('exit');
        child.once('exit', (c) => done(c));
        child.kill('SIGINT');
      });
    const kill = () =>
      new Promise<void>((done) => {
        child.removeAllListeners('exit');
        child.once('exit', () => done());
        child.kill('SIGKILL');
      });
    return { stdout, stop, kill };
  }

  it('keel venue prints its URL, key and secret, and exits 0 on SIGINT', async () => {
    const { stdout, stop } = await startedVenue();
    expect(stdout).toMatch(/base URL: +http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/API key: +\S+/);
    expect(stdout).toContain('SYNTHETIC');
    expect(await stop()).toBe(EXIT.OK);
  }, 60_000);

  it('keel venue takes KEEL_API_KEY and KEEL_API_SECRET as its credentials, so a restart keeps them, and does not print the secret', async () => {
    const { stdout, stop } = await startedVenue({
      KEEL_API_KEY: 'rehearsal-key',
      KEEL_API_SECRET: 'rehearsal-secret',
    });
    expect(stdout).toMatch(/API key: +rehearsal-key \(KEEL_API_KEY\)/);
    expect(stdout).not.toContain('rehearsal-secret');
    const restUrl = /base URL: +(\S+)/.exec(stdout)?.[1] ?? '';
    const reply = await signedRest(
      { restUrl, apiKey: 'rehearsal-key', apiSecret: 'rehearsal-secret' },
      'GET',
      '/api/v1/trading/orders',
    );
    expect(reply.body.code).toBe(0);
    expect(await stop()).toBe(EXIT.OK);
  }, 60_000);

  it('keel venue --data-dir keeps an acknowledged order through a kill -9 and a restart, with the same credentials', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'keel-venue-data-'));
    try {
      const first = await startedVenue({}, ['--data-dir', dataDir]);
      expect(first.stdout).toContain(`data dir:        ${dataDir} (new; state kept there)`);
      const endpoint = endpointOf(first.stdout);
      const placed = await signedRest(endpoint, 'POST', '/api/v1/trading/order', {
        sym: 'BINANCE_PERP_BTC_USDT',
        side: 'BUY',
        orderType: 'LIMIT',
        orderQty: '0.01',
        limitPrice: '1000',
        clientOrderId: 'survives-kill',
      });
      expect(placed.body).toMatchObject({ code: 0 });
      await first.kill();

      const second = await startedVenue({}, ['--data-dir', dataDir]);
      expect(second.stdout).toContain('(state restored from it)');
      const again = endpointOf(second.stdout);
      expect(again.apiKey).toBe(endpoint.apiKey);
      const open = await signedRest(again, 'GET', '/api/v1/trading/orders');
      expect(open.body).toMatchObject({ code: 0 });
      expect(open.body.data).toEqual([
        expect.objectContaining({ clientOrderId: 'survives-kill', orderState: 'OPEN' }),
      ]);
      expect(await second.stop()).toBe(EXIT.OK);

      const otherFeed = keelChild(['venue', '--data-dir', dataDir, '--seed', '2']);
      expect(otherFeed.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
      expect(otherFeed.stderr).toContain(`${dataDir} holds a venue started with --seed 1`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('keel venue --data-dir refuses a data dir another running venue holds, exit 2', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'keel-venue-data-'));
    const first = await startedVenue({}, ['--data-dir', dataDir]);
    try {
      // A venue that started anyway would run until the time limit kills it.
      const second = keelChild(['venue', '--data-dir', dataDir], { timeoutMs: 20_000 });
      expect(second.stderr).toMatch(
        new RegExp(
          `✖ keel venue: another Keel run \\(pid \\d+, .*\\) holds the paper venue's data dir ${dataDir}: stop it first`,
        ),
      );
      expect(second.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    } finally {
      expect(await first.stop()).toBe(EXIT.OK);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('keel venue refuses a key without a secret', () => {
    const run = keelChild(['venue'], { env: { KEEL_API_KEY: 'only-the-key' } });
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toContain('set both KEEL_API_KEY and KEEL_API_SECRET, or neither');
  });
});

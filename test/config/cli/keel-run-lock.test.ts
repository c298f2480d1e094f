import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { keelChild, paperRunUntilFirstFill, reportOutputFlags } from '../../kit/keel-child-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-run-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('keel run of one config twice at once', () => {
  it('refuses the second run with 2, naming the first, and lets the first finish and free its lock', async () => {
    const first = await paperRunUntilFirstFill(dir, 'locked');
    const second = keelChild([
      'run',
      'config/examples/market-maker-paper.yaml',
      '--set',
      `recording.path=${join(dir, 'second.jsonl.gz')}`,
      ...reportOutputFlags(dir, 'locked'),
    ]);
    expect(second.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(second.stderr).toContain(`another Keel run (pid ${first.child.pid},`);
    expect(existsSync(join(dir, 'second.jsonl.gz'))).toBe(false);
    // Another config's outputs, but the first run's recording: it would move that recording aside.
    const sharing = keelChild([
      'run',
      'config/examples/market-maker-paper.yaml',
      '--set',
      `recording.path=${join(dir, 'locked.jsonl.gz')}`,
      ...reportOutputFlags(dir, 'sharing'),
    ]);
    expect(sharing.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(sharing.stderr).toContain(`another Keel run (pid ${first.child.pid},`);
    expect(sharing.stderr).toContain(`is writing ${join(dir, 'locked.jsonl.gz')}`);
    expect(readdirSync(dir).filter((f) => f.startsWith('locked.'))).toEqual([
      'locked.jsonl.gz',
      'locked.jsonl.gz.lock',
    ]);
    expect(existsSync(join(dir, 'sharing-result.json.lock'))).toBe(false);
    const code = await new Promise<number | null>((done) => {
      first.child.once('exit', (c) => done(c));
      first.child.kill('SIGINT');
    });
    expect(code).toBe(EXIT.INTERRUPTED);
    expect(existsSync(join(dir, 'locked-result.json'))).toBe(true);
    expect(existsSync(join(dir, 'locked-result.json.lock'))).toBe(false);
    expect(existsSync(join(dir, 'locked.jsonl.gz.lock'))).toBe(false);
  }, 90_000);
});

describe('keel backtest while another run writes its result files', () => {
  it('refuses with 2 before running, naming the run that holds them, and runs once they are free', () => {
    const lock = join(dir, 'bt-result.json.lock');
    // This test's process stands for the other run: it runs, so its lock is not taken over.
    writeFileSync(lock, `${JSON.stringify({ pid: process.pid, startedAt: '2026-11-29T10:00:00.000Z' })}\n`);
    const refused = keelChild([
      'backtest',
      'config/examples/sma-cross-backtest.yaml',
      ...reportOutputFlags(dir, 'bt'),
    ]);
    expect(refused.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(refused.stderr).toContain(`another Keel run (pid ${process.pid},`);
    expect(refused.stderr).toContain(`is writing ${join(dir, 'bt-result.json')}`);
    expect(existsSync(join(dir, 'bt-result.json'))).toBe(false);
    rmSync(lock);
    const ran = keelChild([
      'backtest',
      'config/examples/sma-cross-backtest.yaml',
      ...reportOutputFlags(dir, 'bt'),
    ]);
    expect(ran.code).toBe(EXIT.OK);
    expect(existsSync(join(dir, 'bt-result.json'))).toBe(true);
    expect(existsSync(lock)).toBe(false);
  }, 90_000);
});

describe('keel backtest stopped by a signal', () => {
  it.each([
    ['SIGTERM', EXIT.TERMINATED],
    ['SIGINT', EXIT.INTERRUPTED],
  ] as const)(
    'on %s exits %i with its lock and temporary files removed, and writes no result',
    async (signal, exit) => {
      const name = `signalled-${signal}`;
      const tmp = join(dir, `tmp-${signal}`);
      mkdirSync(tmp);
      const lock = join(dir, `${name}-result.json.lock`);
      const child = spawn(
        process.execPath,
        [
          resolve('bin/keel.js'),
          'backtest',
          'config/examples/sma-cross-backtest.yaml',
          '--no-progress',
          '--set',
          'backtest.eventCache=false',
          ...reportOutputFlags(dir, name),
        ],
        { env: { PATH: process.env.PATH ?? '', TMPDIR: tmp } },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      // Signalled once it holds its lock, i.e. while it runs.
      while (!existsSync(lock)) await new Promise((r) => setTimeout(r, 10));
      child.kill(signal);
      expect(await exited).toBe(exit);
      expect(stderr).toContain(`stopped by ${signal}; no result written`);
      expect(existsSync(lock)).toBe(false);
      expect(existsSync(join(dir, `${name}-result.json`))).toBe(false);
      expect(readdirSync(tmp).filter((f) => f.startsWith('keel-'))).toEqual([]);
    },
    90_000,
  );
});

describe('keel backtest finding the lock of a run that is gone', () => {
  it('takes it over, says so, and runs', () => {
    const lock = join(dir, 'stale-result.json.lock');
    writeFileSync(lock, `${JSON.stringify({ pid: 2 ** 30, startedAt: '2026-11-29T10:00:00.000Z' })}\n`);
    const ran = keelChild([
      'backtest',
      'config/examples/sma-cross-backtest.yaml',
      '--no-progress',
      ...reportOutputFlags(dir, 'stale'),
    ]);
    expect(ran.code).toBe(EXIT.OK);
    expect(ran.stderr).toBe(
      `warning: took over the lock ${lock} of an earlier Keel run (pid ${2 ** 30}) that no longer runs\n`,
    );
    expect(existsSync(join(dir, 'stale-result.json'))).toBe(true);
    expect(existsSync(lock)).toBe(false);
  }, 90_000);
});

describe('keel record finding the lock of a recording whose run is gone', () => {
  it('takes it over and logs whose it was, naming that pid apart from its own', () => {
    const feed = join(dir, 'rec-feed.jsonl.gz');
    copyFileSync('backtest/sessions/example-synthetic.jsonl.gz', feed);
    const config = join(dir, 'rec-paper.yaml');
    writeFileSync(
      config,
      `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker, params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.01, halfSpreadTicks: 30, maxPosition: 0.05 } }
paper:
  source: { kind: recording, path: ${feed} }
`,
    );
    const out = join(dir, 'taken-over.jsonl.gz');
    writeFileSync(
      `${out}.lock`,
      `${JSON.stringify({ pid: 2 ** 30, startedAt: '2026-11-29T10:00:00.000Z' })}\n`,
    );
    const ran = keelChild(['record', config, '--out', out, '--duration', '1']);
    expect(ran.code).toBe(EXIT.OK);
    const line = ran.stderr.split('\n').find((l) => l.includes('took over the lock'));
    expect(line?.match(/"pid":/g)).toHaveLength(1);
    expect(JSON.parse(line ?? '{}')).toMatchObject({ lock: `${out}.lock`, holderPid: 2 ** 30 });
    expect(existsSync(`${out}.lock`)).toBe(false);
  }, 90_000);
});

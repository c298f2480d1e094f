import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../../config/cli/index.ts';
import { BACKTEST_YAML, LIVE_ENV, LIVE_YAML, replaceLine } from '../../../kit/config-texts.ts';
import { keelInProcess } from '../../../kit/keel-in-process.ts';
import { writeRecording } from '../../../kit/recording-files.ts';

describe('keel validate: warnings of a valid config', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'keel-validate-'));
    file = join(dir, 'bt.yaml');
    writeFileSync(file, BACKTEST_YAML);
    await writeRecording(join(dir, 'a.jsonl'), []);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('warns of a sym in the params that is not one of the instruments, and still exits 0', async () => {
    const run = await keelInProcess([
      'validate',
      file,
      '--set',
      'strategies.0.params.sym=BINANCE_PERP_ETH_USDT',
    ]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      `✔ ${file} is valid (mode backtest, 1 strategy)\n` +
        "  ⚠ strategy sma names BINANCE_PERP_ETH_USDT in its params, but it is not one of the run's instruments (BINANCE_PERP_BTC_USDT): the strategy receives none of its market data and the risk gate denies every order on it (instrumentKnown); list it under instruments\n",
    );
    expect(run.code).toBe(EXIT.OK);
  });

  it('warns of a section the mode ignores, with where it was written', async () => {
    const run = await keelInProcess([
      'validate',
      file,
      '--set',
      'strategies.0.params.sym=BINANCE_PERP_BTC_USDT',
      '--set',
      'paper.lockstep=true',
    ]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      `✔ ${file} is valid (mode backtest, 1 strategy)\n` +
        '  ⚠ paper is ignored in mode backtest: it applies to mode paper only (--set paper.lockstep=true)\n',
    );
    expect(run.code).toBe(EXIT.OK);
  });

  it('says nothing more when the params name a listed instrument', async () => {
    const run = await keelInProcess([
      'validate',
      file,
      '--set',
      'strategies.0.params.sym=BINANCE_PERP_BTC_USDT',
    ]);
    expect(run.stdout).toBe(`✔ ${file} is valid (mode backtest, 1 strategy)\n`);
    expect(run.code).toBe(EXIT.OK);
  });

  it('warns of an instrument no recording header lists, before reading any data', async () => {
    const run = await keelInProcess([
      'validate',
      file,
      '--set',
      'instruments.0=OKX_SPOT_ETH_USDT',
      '--set',
      'strategies.0.params.sym=OKX_SPOT_ETH_USDT',
    ]);
    expect(run.stdout).toContain(
      "  ⚠ instrument OKX_SPOT_ETH_USDT is in no recording's symbols (they hold BINANCE_PERP_BTC_USDT): strategies get none of its market data and nothing of it trades\n",
    );
    expect(run.code).toBe(EXIT.OK);
  });

  it('warns that a defaultLeverage override on a spot sym does nothing, as the run does before it starts', async () => {
    const sets = [
      '--set',
      'instruments.0={ sym: OKX_SPOT_ETH_USDT, overrides: { defaultLeverage: 3 } }',
      '--set',
      'strategies.0.params.sym=OKX_SPOT_ETH_USDT',
    ];
    const warning =
      'instruments[0].overrides.defaultLeverage does nothing: OKX_SPOT_ETH_USDT is crypto SPOT, which backtests and paper runs trade at 1x (--set instruments.0={ sym: OKX_SPOT_ETH_USDT, overrides: { defaultLeverage: 3 } })';
    const validate = await keelInProcess(['validate', file, ...sets]);
    expect(validate.stdout).toContain(`  ⚠ ${warning}\n`);
    expect(validate.code).toBe(EXIT.OK);
    const reports = [
      '--set',
      `report.json=${join(dir, 'r.json')}`,
      '--set',
      `report.html=${join(dir, 'r.html')}`,
    ];
    const backtest = await keelInProcess(['backtest', file, '--no-progress', ...sets, ...reports]);
    expect(backtest.stderr).toContain(`⚠ ${warning}\n`);
  });

  it('refuses a recording whose header cannot be read, naming the --set that named it', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const run = await keelInProcess([
      'validate',
      file,
      '--set',
      'backtest.recordings.0=empty.jsonl',
      '--set',
      'strategies.0.params.sym=BINANCE_PERP_BTC_USDT',
    ]);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^✖ backtest\.recordings\[0\] names a recording whose header cannot be read: .*empty\.jsonl.* → at backtest\.recordings\[0\] \(--set backtest\.recordings\.0=empty\.jsonl\)\n$/,
    );
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });
});

describe('keel validate: files a paper run replays', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-validate-paper-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a paper source recording that is not there, exit 2, at its YAML path and line', async () => {
    const file = join(dir, 'paper.yaml');
    writeFileSync(
      file,
      `mode: paper
paper:
  lockstep: true
  source:
    kind: recording
    path: data/nope.jsonl.gz
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: sma, use: sma-cross, params: { sym: BINANCE_PERP_BTC_USDT, fast: 10 } }
`,
    );
    const run = await keelInProcess(['validate', file]);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `✖ source.path names no such file: ${join(dir, 'data', 'nope.jsonl.gz')} → at paper.source.path (${file}:6:11)`,
    );
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });
});

describe('keel validate: a live venue in clear text', () => {
  it('warns of an http:// venue URL to another machine, and still exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-validate-live-'));
    try {
      const file = join(dir, 'live.yaml');
      writeFileSync(
        file,
        replaceLine(LIVE_YAML, '  restUrl: https://venue.test', '  restUrl: http://venue.test'),
      );
      writeFileSync(join(dir, '.env'), `T_KEY=${LIVE_ENV.T_KEY}\nT_SECRET=${LIVE_ENV.T_SECRET}\n`);
      const run = await keelInProcess([
        'validate',
        file,
        '--set',
        'strategies.0.params={sym: BINANCE_PERP_BTC_USDT, qty: 0.001, maxPosition: 0.01}',
      ]);
      expect(run.stdout).toBe(
        `✔ ${file} is valid (mode live, 1 strategy)\n` +
          `  ⚠ venue.restUrl is http:// to venue.test, not https://: the API key, request signatures, orders and account data cross the network in clear text (${file}:3:12)\n`,
      );
      expect(run.code).toBe(EXIT.OK);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

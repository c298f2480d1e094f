import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-csv-recording-');

/**
 * 40 daily bars of AAPL in New York time, each opening at the last close: down 20 days, then up
 * 20, so the SMAs cross up once.
 */
function barsCsv(): string {
  const rows = ['Date,Open,High,Low,Close,Volume'];
  let open = 200;
  for (let i = 0; i < 40; i++) {
    const close = i < 20 ? 200 - i : 180 + (i - 20) * 2;
    const day = new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10);
    rows.push(`${day},${open},${Math.max(open, close) + 1},${Math.min(open, close) - 1},${close},1000`);
    open = close;
  }
  return `${rows.join('\n')}\n`;
}

function configIn(dir: string, entry: string): string {
  const config = join(dir, 'backtest.yaml');
  writeFileSync(
    config,
    `mode: backtest
instruments: [US_EQUITY_AAPL]
strategies:
  - id: sma
    use: sma-cross
    params: { sym: US_EQUITY_AAPL, interval: 1d, fast: 3, slow: 5, fraction: 1, reserveFee: true, allowShort: false }
backtest:
  recordings:
    - ${entry}
  startingCash: { USD: 10000 }
report:
  json: ${join(dir, 'result.json')}
  html: ${join(dir, 'report.html')}
`,
  );
  return config;
}

describe('keel backtest of a config naming an OHLCV CSV among its recordings', () => {
  // sma-cross with fraction 1 and reserveFee: the order sized at a close fills at the next open,
  // the same price, with room for its fee.
  it('reads the CSV on the fly with its import options and replays its bars', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'aapl.csv'), barsCsv());
    const config = configIn(
      dir,
      '{ csv: aapl.csv, sym: US_EQUITY_AAPL, zone: America/New_York, interval: 1d }',
    );
    const run = await keelInProcess(['backtest', config, '--no-progress']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
    expect(result.meta.recordings).toEqual([
      {
        path: expect.stringMatching(/aapl\.csv$/),
        synthetic: false,
        description: 'OHLCV bars imported from aapl.csv (1d, times read in America/New_York)',
      },
    ]);
    expect(result.metrics.tradeCount).toBe(1);
    expect(readFileSync(join(dir, 'result.syms.csv'), 'utf8')).toMatch(/^sym,trades,/);
    // backtest.eventCache is on (the default): a CSV is read without one, which the line says.
    expect(run.stdout).toContain('event cache: none (CSV entries are read without a cache)');
  }, 60_000);

  it('refuses a CSV that is not bars, naming the YAML entry and line and the CSV line', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.csv'), 'timestamp,open,high,low,close\n1704067200000,10,9,8,9\n');
    const config = configIn(dir, '{ csv: bad.csv, sym: US_EQUITY_AAPL }');
    const run = await keelInProcess(['backtest', config, '--no-progress']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/bad\.csv:2: .*backtest\.recordings\[0\]\.csv \(.*backtest\.yaml:9:/s);
  }, 60_000);

  it('refuses an entry with an unknown option or a bad interval as a config mistake at its line', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'aapl.csv'), barsCsv());
    const config = configIn(dir, '{ csv: aapl.csv, sym: US_EQUITY_AAPL, interval: 2d }');
    const run = await keelInProcess(['backtest', config, '--no-progress']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/backtest\.recordings\[0\].*backtest\.yaml:9:/);
  }, 60_000);

  it('refuses an OHLCV CSV given as --recording, saying how a CSV is replayed instead of "header is not JSON"', async () => {
    const dir = tempDir();
    const csv = join(dir, 'aapl.csv');
    writeFileSync(csv, barsCsv());
    const config = configIn(dir, '{ csv: aapl.csv, sym: US_EQUITY_AAPL, interval: 1d }');
    const backtest = await keelInProcess(['backtest', config, '--no-progress', '--recording', csv]);
    expect(backtest.code).toBe(2);
    expect(backtest.stderr).not.toMatch(/header is not JSON/);
    expect(backtest.stderr).toContain(`--recording ${csv}: an OHLCV CSV, not a recording`);
    expect(backtest.stderr).toMatch(/\{ csv: .*aapl\.csv, sym: <SYM> \}.*keel import-csv/);
    const sweep = await keelInProcess([
      'sweep',
      config,
      '--grid',
      'strategies.0.params.fast=2,3',
      '--recording',
      csv,
    ]);
    expect(sweep.code).toBe(2);
    expect(sweep.stderr).toContain(`--recording ${csv}: an OHLCV CSV, not a recording`);
  }, 60_000);
  it("suggests the backtest.recordings entry with the path from the config's folder, which entries are relative to", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'data'));
    mkdirSync(join(dir, 'configs'));
    writeFileSync(join(dir, 'data', 'aapl.csv'), barsCsv());
    const config = configIn(
      join(dir, 'configs'),
      '{ csv: ../data/aapl.csv, sym: US_EQUITY_AAPL, interval: 1d }',
    );
    const run = await keelInProcess(['backtest', config, '--no-progress', '--recording', 'data/aapl.csv'], {
      cwd: dir,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--recording data/aapl.csv: an OHLCV CSV, not a recording');
    expect(run.stderr).toContain('{ csv: ../data/aapl.csv, sym: <SYM> }');
    expect(run.stderr).toContain('keel import-csv data/aapl.csv --sym <SYM>');
  }, 60_000);
});

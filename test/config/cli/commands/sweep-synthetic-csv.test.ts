import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keelInProcess } from '../../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('sweep-synthetic-csv-');

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

describe('keel sweep of a config whose recording is a { csv, synthetic: true } entry', () => {
  it('labels the table SYNTHETIC as it does for the imported recording', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'gen.csv'), barsCsv());
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
    - { csv: gen.csv, sym: US_EQUITY_AAPL, interval: 1d, synthetic: true }
  startingCash: { USD: 10000 }
report:
  json: ${join(dir, 'result.json')}
`,
    );
    const run = await keelInProcess([
      'sweep',
      config,
      '--grid',
      'strategies.0.params.fast=2,3',
      '--workers',
      '1',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('2 combinations (SYNTHETIC data)');
  }, 120_000);
});

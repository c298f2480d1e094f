import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { EXIT } from '../../../config/cli/index.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { barRecord, fundingCase, type ScriptedStep } from '../../kit/perp-cash-flow-runs.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-cli-cash-flows-');
const PLUGIN = resolve('test/config/fixtures/scripted-steps-plugin.ts');

/** Writes the recording and a backtest config of the scripted plugin; returns the config's path. */
async function backtestConfig(
  dir: string,
  records: readonly RecordedMessage[],
  steps: readonly ScriptedStep[],
  cash: number,
  backtestExtra = '',
): Promise<string> {
  await writeRecording(
    join(dir, 'rec.jsonl'),
    [...records].sort((a, b) => a.recvTs - b.recvTs),
  );
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    `mode: backtest
name: cash-flows
instruments:
  - sym: BINANCE_PERP_TST_USDT
    overrides: { tickSize: 0.01, lotSize: 1, makerFee: 0.001, takerFee: 0.002 }
strategies:
  - id: s
    use: ${PLUGIN}
    params: { steps: ${JSON.stringify(steps)} }
backtest:
  recordings: [./rec.jsonl]
  startingCash: { USDT: ${cash} }
  latency: { fixedMs: 0, jitterMs: 0 }
  eventCache: false
${backtestExtra}report:
  json: ${join(dir, 'result.json')}
  html: ${join(dir, 'report.html')}
`,
  );
  return file;
}

describe('keel backtest: funding, interest and liquidation in the summary', () => {
  it('says what was paid in fees, funding and interest (the audit case c7: 8 + 3.10 explain the 11.10 lost)', async () => {
    const { records, steps } = fundingCase();
    const run = await keelInProcess([
      'backtest',
      await backtestConfig(aTempDir(), records, steps, 10_000),
      '--no-progress',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    expect(run.stdout).toMatch(/^✔ /);
    expect(run.stdout).toContain('-> 9988.90 USDT (PnL -11.10 USDT, return -0.11 %)');
    // No loan terms, so no interest could be paid and the line leaves it out.
    expect(run.stdout).toContain('\n  paid: fees 8.00 USDT, funding 3.10 USDT\n');
  }, 60_000);

  it('says what a run borrowed, repaid and still owed, and counts neither in the interest paid', async () => {
    const flat = ['100', '101', '99', '100'];
    const config = await backtestConfig(
      aTempDir(),
      Array.from({ length: 4 }, (_, i) => barRecord(i, flat)),
      [
        { bar: 0, borrow: 1000 },
        { bar: 1, repay: 400 },
      ],
      10_000,
      "  loans: { assets: { 'BINANCE:USDT': { annualRate: 0.0876, userQuota: 5000 } } }\n",
    );
    const run = await keelInProcess(['backtest', config, '--no-progress']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    // Bars a minute apart: no whole hour passes; the 400 repaid a minute in pay the hour they started
    // (400 x 0.0876 / 8760 = 0.004), the 600 still owed pay nothing before their hour ends.
    expect(run.stdout).toContain('\n  paid: fees 0.00 USDT, funding 0.00 USDT, interest 0.004 USDT\n');
    expect(run.stdout).toContain(
      '\n  loans: borrowed 1000.00 USDT, repaid 400.00 USDT, 600.00 USDT owed at the end\n',
    );
  }, 60_000);

  it('ends a liquidated run with ⚠ and says when, at what cost and with what equity (the audit case c8)', async () => {
    const flat = ['100', '101', '99', '100'];
    const crash = ['100', '100.5', '85', '88'];
    const after = ['88', '89', '87', '88'];
    const dir = aTempDir();
    const config = await backtestConfig(
      dir,
      [flat, flat, flat, crash, after, after].map((ohlc, i) => barRecord(i, ohlc)),
      [{ bar: 0, qty: 10 }],
      100,
    );
    const run = await keelInProcess(['backtest', config, '--no-progress']);
    expect(run.code).toBe(EXIT.OK);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^⚠ /);
    expect(lines[1]).toBe(
      '  ⚠ The account was LIQUIDATED once (first at 2025-01-06 00:04:00 UTC): equity fell below maintenance margin and the venue closed positions with 1 liquidation order, paying 11.3312 USDT in liquidation fees; equity after it -6.83125 USDT (below zero: the account owes more than it holds). The figures below include the forced closes.',
    );
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('id="liquidation-warning"');
    // keel report rebuilds the very same page from result.json alone.
    const rebuilt = await keelInProcess([
      'report',
      join(dir, 'result.json'),
      '--out',
      join(dir, 'rebuilt.html'),
    ]);
    expect(rebuilt.code).toBe(EXIT.OK);
    expect(readFileSync(join(dir, 'rebuilt.html'), 'utf8')).toBe(html);
  }, 60_000);
});

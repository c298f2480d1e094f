import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { faultyPluginBacktestIn, faultyPluginPaperRunIn } from '../../kit/faulty-plugin-backtests.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterAll('keel-setup-warnings-')();
const backtest = faultyPluginBacktestIn(dir, {
  name: 'watch',
  instruments: '[BINANCE_PERP_BTC_USDT, { sym: US_EQUITY_MSFT, overrides: { settleAsset: USDT } }]',
  strategyId: 's1',
});

describe('keel backtest: setups that can only end in zero trades', () => {
  it('warns in the summary, the result and the report when a watched sym has no data', async () => {
    const run = await backtest('no-sym', ['--set', 'strategies.0.params.sym=US_EQUITY_MSFT']);
    const warning =
      'strategy s1 watched US_EQUITY_MSFT 1m bars, but the recordings held no data for that sym';
    expect(run.code).toBe(EXIT.OK);
    expect(run.stdout).toContain(`  ⚠ ${warning}\n`);
    const result = JSON.parse(readFileSync(join(dir, 'no-sym-result.json'), 'utf8'));
    expect(result.meta.warnings).toEqual([warning]);
    expect(readFileSync(join(dir, 'no-sym-report.html'), 'utf8')).toContain(warning);
  }, 60_000);

  it('warns when no bar of the watched interval closed in the 30-minute session', async () => {
    const run = await backtest('no-4h', ['--set', 'strategies.0.params.interval=4h']);
    expect(run.stdout).toContain(
      '  ⚠ strategy s1 watched BINANCE_PERP_BTC_USDT 4h bars, but no such bar closed: the 1m bars of BINANCE_PERP_BTC_USDT in the recordings never completed one 4h bar\n',
    );
  }, 60_000);

  it('refuses --from after the recordings end, at the option, exit 2', async () => {
    const run = await backtest('late', ['--from', '2025-02-01T00:00:00Z']);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stdout).toBe('');
    // The session's last event is received 6 ms after 15:00:00.
    expect(run.stderr).toBe(
      '✖ backtest.from 2025-02-01 is after the recordings end (2025-01-06T15:00:00.006Z): nothing was replayed → at backtest.from (--from 2025-02-01T00:00:00Z)\n',
    );
  }, 60_000);

  it('refuses a warm-up that takes every event, at the --set that gave it, exit 2', async () => {
    const period = await backtest('warm-period', ['--set', 'warmUp.period=2d']);
    expect(period.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(period.stderr).toMatch(
      /^✖ warmUp\.period makes a warm-up that takes all \d+ events of the recordings \(it runs to .*\), leaving nothing to trade on: shorten it or replay more data → at warmUp\.period \(--set warmUp\.period=2d\)\n$/,
    );
    const bars = await backtest('warm-bars', ['--set', 'warmUp={ bars: 50, interval: 1h }']);
    expect(bars.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(bars.stderr).toContain('✖ warmUp.bars makes a warm-up that takes all ');
  }, 60_000);

  it('refuses a backtest.to before the recordings start, at its line, exit 2', async () => {
    const run = await backtest('early', ['--to', '2024-12-01T00:00:00Z']);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toContain(
      '✖ backtest.to 2024-12-01 is before the recordings start (2025-01-06T14:30:00.001Z): nothing was replayed',
    );
  }, 60_000);
});

describe('keel run (paper): setups that leave a strategy idle', () => {
  it('warns in the closing summary and the result of a session whose feed never closed a watched bar', async () => {
    const run = await faultyPluginPaperRunIn(dir, 'paper-4h', '{ sym: BINANCE_PERP_BTC_USDT, interval: 4h }');
    expect(run.code).toBe(EXIT.OK);
    const warning = 'strategy bad watched BINANCE_PERP_BTC_USDT 4h bars, but no such bar closed in the feed';
    expect(run.stdout).toContain(`  ⚠ ${warning}\n`);
    const result = JSON.parse(readFileSync(join(dir, 'paper-4h-result.json'), 'utf8'));
    expect(result.meta.warnings).toEqual([warning]);
  }, 60_000);
});

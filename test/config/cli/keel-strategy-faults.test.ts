import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownPath } from '../../../backtest/report/index.ts';
import { EXIT } from '../../../config/cli/index.ts';
import {
  FAULTY_PLUGIN,
  faultyPluginBacktestIn,
  faultyPluginPaperRunIn,
} from '../../kit/faulty-plugin-backtests.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { sweepCsvRows } from '../../kit/sweep-csv-rows.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterAll('keel-faults-')();
/** The plugin as results and messages name it: relative to the working directory, the project's. */
const PLUGIN_SHOWN = shownPath(FAULTY_PLUGIN);
const runBacktest = faultyPluginBacktestIn(dir, {
  name: 'faulty',
  instruments: '[BINANCE_PERP_BTC_USDT]',
  strategyId: 'bad',
});

function backtest(name: string, ...sets: string[]) {
  return runBacktest(
    name,
    sets.flatMap((s) => ['--set', s]),
  );
}

describe('keel backtest: a strategy that throws', () => {
  it('names strategy, hook, event time, error and plugin line, writes them to the result and report, then exits 3', async () => {
    const run = await backtest('on-bar', 'strategies.0.params.throwIn=onBar');
    expect(run.code).toBe(EXIT.STRATEGY_FAULT);
    expect(EXIT.STRATEGY_FAULT).toBe(3);
    expect(run.stdout).toMatch(
      /^✖ Backtest of faulty \(SYNTHETIC data\): a strategy failed and was halted\n/,
    );
    // The session starts 2025-01-06 14:30 UTC; its first 1m kline closes a minute later, is
    // received 1 ms after that and reaches the strategy 5 ms later still (the default market-data latency).
    expect(run.stdout).toContain(
      '  ✖ strategy bad: onBar threw at 2025-01-06 14:31:00.006 UTC: Error: bad bar at ',
    );
    expect(run.stdout).toContain(`(at ${PLUGIN_SHOWN}:`);
    const result = JSON.parse(readFileSync(join(dir, 'on-bar-result.json'), 'utf8'));
    expect(result.faults).toHaveLength(1);
    expect(result.faults[0]).toMatchObject({
      strategyId: 'bad',
      hook: 'onBar',
      ts: Date.UTC(2025, 0, 6, 14, 31) + 6,
    });
    expect(result.faults[0].at.startsWith(`${PLUGIN_SHOWN}:`)).toBe(true);
    const html = readFileSync(join(dir, 'on-bar-report.html'), 'utf8');
    expect(html).toContain('id="strategy-faults"');
    expect(html).toContain('strategy bad: onBar threw at 2025-01-06 14:31:00.006 UTC');
  }, 60_000);

  it('reports a throw in onStart the same way', async () => {
    const run = await backtest('on-start', 'strategies.0.params.throwIn=onStart');
    expect(run.code).toBe(EXIT.STRATEGY_FAULT);
    // A backtest starts at its first event, received 1 ms after the session's start.
    expect(run.stdout).toContain(
      '  ✖ strategy bad: onStart threw at 2025-01-06 14:30:00.001 UTC: Error: cannot start',
    );
  }, 60_000);

  it('says a hook returned (not threw) a value that is not intents, and names the plugin file', async () => {
    const run = await backtest('returned', 'strategies.0.params.badReturn=undefinedInArray');
    expect(run.code).toBe(EXIT.STRATEGY_FAULT);
    expect(run.stdout).toContain(
      `  ✖ strategy bad: onBar returned a bad value at 2025-01-06 14:31:00.006 UTC: TypeError: onBar returned an array whose element 0 is undefined, not an intent: return one intent, an array of intents, or nothing (undefined); none of them was sent (in ${PLUGIN_SHOWN}); it was halted and did nothing more in this run`,
    );
    expect(run.stdout).not.toContain('onBar threw');
    const result = JSON.parse(readFileSync(join(dir, 'returned-result.json'), 'utf8'));
    expect(result.faults).toEqual([
      expect.objectContaining({ hook: 'onBar', how: 'returned', file: PLUGIN_SHOWN }),
    ]);
    expect(result.faults[0].at).toBeUndefined();
  }, 60_000);

  it('prints what an async hook rejected with, at its plugin line, on stderr, and keeps it out of the result file', async () => {
    const run = await backtest('async', 'strategies.0.params.badReturn=rejectingPromise');
    expect(run.code).toBe(EXIT.STRATEGY_FAULT);
    expect(run.stdout).toContain(
      '  ✖ strategy bad: onBar returned a bad value at 2025-01-06 14:31:00.006 UTC: TypeError: onBar returned a Promise (an async function?): strategy hooks are synchronous',
    );
    expect(run.stderr).toContain(
      '✖ strategy bad: the Promise its onBar returned rejected with Error: async bad bar at ',
    );
    expect(run.stderr).toContain(`(at ${PLUGIN_SHOWN}:`);
    expect(run.stderr).toContain('hooks must be synchronous, so Keel did not wait for it');
    expect(readFileSync(join(dir, 'async-result.json'), 'utf8')).not.toContain('async bad bar');
  }, 60_000);

  it('exits 0 with a ✔ summary when nothing threw', async () => {
    const run = await backtest('calm');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    expect(run.stdout).toMatch(/^✔ Backtest of faulty/);
    expect(JSON.parse(readFileSync(join(dir, 'calm-result.json'), 'utf8')).faults).toEqual([]);
  }, 60_000);
});

describe('keel run (paper): a strategy that throws', () => {
  it('puts the fault in the closing summary, the result and the report, then exits 3', async () => {
    const run = await faultyPluginPaperRunIn(
      dir,
      'paper',
      '{ sym: BINANCE_PERP_BTC_USDT, throwIn: onStart }',
    );
    expect(run.code).toBe(EXIT.STRATEGY_FAULT);
    expect(run.stdout).toMatch(
      /\n {2}✖ strategy bad: onStart threw at [0-9:. -]+ UTC: Error: cannot start \(at [^)]*faulty-plugin\.ts:\d+:\d+\)/,
    );
    const result = JSON.parse(readFileSync(join(dir, 'paper-result.json'), 'utf8'));
    expect(result.faults).toMatchObject([
      { strategyId: 'bad', hook: 'onStart', error: 'Error: cannot start' },
    ]);
    expect(readFileSync(join(dir, 'paper-report.html'), 'utf8')).toContain('id="strategy-faults"');
  }, 60_000);
});

/** `keel sweep` of the faulty plugin's config on one worker, sorted by totalReturn, and its CSV's rows once written. */
function sweep(csvName: string, ...args: string[]) {
  const csv = join(dir, csvName);
  const run = keelChild([
    'sweep',
    join(dir, 'faulty.yaml'),
    ...args,
    '--workers',
    '1',
    '--metric',
    'totalReturn',
    '--out',
    csv,
  ]);
  return { run, table: () => sweepCsvRows(csv) };
}

describe('keel sweep: a combination whose strategy throws', () => {
  it('marks the row with its fault count, names the combination and its first fault, then exits 3', () => {
    const { run, table } = sweep('sweep-faults.csv', '--grid', 'strategies.0.params.throwIn=none,onBar');
    expect(run.code).toBe(EXIT.STRATEGY_FAULT);
    expect(run.stdout).toContain(
      '✖ strategies.0.params.throwIn=onBar: strategy bad: onBar threw at 2025-01-06 14:31:00.006 UTC: Error: bad bar at ',
    );
    expect(run.stdout).not.toContain('throwIn=none:');
    const { header, rows } = table();
    expect(header).toEqual(expect.arrayContaining(['fills', 'faults']));
    expect(rows.map((row) => [row['strategies.0.params.throwIn'], row.faults])).toEqual(
      expect.arrayContaining([
        ['none', '0'],
        ['onBar', '1'],
      ]),
    );
  }, 120_000);
});

describe('keel sweep: a combination whose backtest fails', () => {
  it('keeps every other row, marks it failed with the reason, writes the table, then exits 1', () => {
    // A warm-up of 2 days takes every event of the 30-minute session: its backtest fails as it starts.
    const { run, table } = sweep(
      'sweep-failed.csv',
      '--set',
      'strategies.0.params.throwIn=none',
      '--grid',
      'warmUp.period=1m,2d',
    );
    expect(run.code, run.stderr).toBe(EXIT.RUNTIME_FAILURE);
    expect(run.stdout).toContain(
      '✖ warmUp.period=2d: its backtest failed: backtest: the warm-up of 2 d (to 2025-01-08T14:30:00.001Z) takes all ',
    );
    const { header, rows } = table();
    expect(header).toEqual(expect.arrayContaining(['fills', 'failed']));
    expect(rows.map((row) => [row['warmUp.period'], row.failed])).toEqual([
      ['1m', ''],
      ['2d', 'yes'],
    ]);
    expect(rows[1]?.error).toContain('the warm-up of 2 d (to 2025-01-08T14:30:00.001Z) takes all ');
  }, 120_000);
});

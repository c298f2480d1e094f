import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ConfigParseResult,
  formatConfigProblem,
  parseConfigText,
} from '../../../config/loader/index.ts';
import { durationValue, warmUpPeriodOf } from '../../../config/schema/index.ts';
import { BACKTEST_YAML, LIVE_YAML } from '../../kit/config-texts.ts';

function lines(result: ConfigParseResult): string[] {
  return result.ok ? [] : result.problems.map(formatConfigProblem);
}

/** BACKTEST_YAML (14 lines) with a warmUp section from line 15. */
function backtestWith(warmUp: string): ConfigParseResult {
  return parseConfigText(`${BACKTEST_YAML}warmUp:\n${warmUp}`, { file: 'bt.yaml', env: {}, overrides: [] });
}

describe('config: warmUp', () => {
  it('reads a period written with its unit, and bars of an interval on their grid', () => {
    const period = backtestWith('  period: 20h\n');
    if (!period.ok) throw new Error(lines(period).join('\n'));
    expect(warmUpPeriodOf(period.config.warmUp ?? {})).toEqual({ periodMs: 20 * 3_600_000 });
    const bars = backtestWith('  bars: 20\n  interval: 1h\n');
    if (!bars.ok) throw new Error(lines(bars).join('\n'));
    expect(warmUpPeriodOf(bars.config.warmUp ?? {})).toEqual({
      periodMs: 20 * 3_600_000,
      alignMs: 3_600_000,
    });
  });

  it('turns every duration of a number and a unit into its milliseconds', () => {
    const units = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.constantFrom(...Object.keys(units)), (n, unit) => {
        expect(durationValue.parse(`${n}${unit}`)).toBe(n * units[unit as keyof typeof units]);
      }),
    );
  });

  it('says what a duration must look like, at the value', () => {
    expect(lines(backtestWith('  period: 20 hours\n'))).toEqual([
      '✖ warmUp.period must be a duration like 20h, 90m, 2d or 30s (units: ms, s, m, h, d) → at warmUp.period (bt.yaml:16:11)',
    ]);
    expect(lines(backtestWith('  period: 0h\n'))).toEqual([
      '✖ warmUp.period must be longer than 0 → at warmUp.period (bt.yaml:16:11)',
    ]);
  });

  it('needs exactly one of period and bars, and bars with its interval', () => {
    expect(lines(backtestWith('  bars: 20\n'))).toEqual([
      '✖ warmUp.bars needs interval, the bar interval it counts in (e.g. interval: 1h) → at warmUp.bars (bt.yaml:16:9)',
    ]);
    expect(lines(backtestWith('  period: 2h\n  bars: 20\n  interval: 1h\n'))).toEqual([
      '✖ warmUp.bars cannot be given with period: choose one of the two → at warmUp.bars (bt.yaml:17:9)',
    ]);
    expect(lines(backtestWith('  interval: 1h\n'))[0]).toContain(
      'warmUp needs either period (e.g. 20h) or bars and interval',
    );
  });

  it('keeps history for paper and live runs, and asks for it there', () => {
    expect(lines(backtestWith('  period: 2h\n  history: [h.jsonl]\n'))).toEqual([
      '✖ warmUp.history is for paper and live runs: a backtest warms up on the first part of its own recordings (the part before backtest.from when it is set) → at warmUp.history (bt.yaml:17:12)',
    ]);
    const live = parseConfigText(`${LIVE_YAML}warmUp:\n  period: 2h\n`, {
      file: 'live.yaml',
      env: { T_KEY: 'k', T_SECRET: 's' },
      overrides: [],
    });
    expect(lines(live)[0]).toMatch(
      /^✖ warmUp needs history in live mode: the recording\(s\) or OHLCV CSV\(s\) to warm up on/,
    );
    const csv = parseConfigText(
      `${LIVE_YAML}warmUp:\n  period: 2h\n  history:\n    - h.jsonl.gz\n    - { csv: btc.csv, sym: BINANCE_PERP_BTC_USDT }\n`,
      { file: 'live.yaml', env: { T_KEY: 'k', T_SECRET: 's' }, overrides: [] },
    );
    if (!csv.ok) throw new Error(lines(csv).join('\n'));
    expect(csv.config.warmUp?.history).toEqual([
      'h.jsonl.gz',
      { csv: 'btc.csv', sym: 'BINANCE_PERP_BTC_USDT' },
    ]);
  });
});

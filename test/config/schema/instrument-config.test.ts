import { describe, expect, it } from 'vitest';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';
import { BACKTEST_YAML, LIVE_YAML, replaceLine } from '../../kit/config-texts.ts';

/** A backtest of one US equity in USD, its instrument entry on line 3. */
function equityBacktest(entry: string): string {
  return replaceLine(
    replaceLine(BACKTEST_YAML, '  - BINANCE_PERP_BTC_USDT', entry),
    '  startingCash: { USDT: 1000 }',
    '  startingCash: { USD: 1000 }',
  );
}

function problems(text: string, file = 'bt.yaml'): string[] {
  const result = parseConfigText(text, { file, env: { T_KEY: 'k', T_SECRET: 's' } });
  return result.ok ? [] : result.problems.map(formatConfigProblem);
}

describe('instrument entries', () => {
  it('refuses a fractional lotSize or minSize on a US equity at the value, as PLACE_ORDER carries whole shares only', () => {
    const text = equityBacktest('  - { sym: US_EQUITY_AAPL, overrides: { lotSize: 0.01, minSize: 0.5 } }');
    expect(problems(text)).toEqual([
      "✖ overrides.lotSize must be a whole number of shares on a US equity, not 0.01: PLACE_ORDER, which paper and live runs send US_EQUITY_AAPL's orders with, carries whole shares only → at instruments[0].overrides.lotSize (bt.yaml:3:50)",
      "✖ overrides.minSize must be a whole number of shares on a US equity, not 0.5: PLACE_ORDER, which paper and live runs send US_EQUITY_AAPL's orders with, carries whole shares only → at instruments[0].overrides.minSize (bt.yaml:3:65)",
    ]);
  });

  it('refuses it in a live run too, whose specs come from the venue with the overrides applied', () => {
    const text = LIVE_YAML.replace(
      'instruments: [BINANCE_PERP_BTC_USDT]',
      'instruments:\n  - { sym: US_EQUITY_AAPL, overrides: { lotSize: 0.1 } }',
    );
    expect(problems(text, 'live.yaml')).toHaveLength(1);
    expect(problems(text, 'live.yaml')[0]).toMatch(
      /^✖ overrides\.lotSize must be a whole number of shares .* → at instruments\[0\]\.overrides\.lotSize \(live\.yaml:7:\d+\)$/,
    );
  });

  it('takes whole-share lots on an equity and fractional lots on crypto', () => {
    expect(
      problems(equityBacktest('  - { sym: US_EQUITY_AAPL, overrides: { lotSize: 10, minSize: 100 } }')),
    ).toEqual([]);
    expect(
      problems(
        replaceLine(
          BACKTEST_YAML,
          '  - BINANCE_PERP_BTC_USDT',
          '  - { sym: BINANCE_PERP_BTC_USDT, overrides: { lotSize: 0.01, minSize: 0.01 } }',
        ),
      ),
    ).toEqual([]);
  });
});

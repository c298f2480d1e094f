import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type BacktestResult,
  readResult,
  renderHtmlReport,
  resultFromJson,
  resultToJson,
  roundTripsFromFills,
  symBreakdownOf,
  symsCsvLines,
  writeResultFiles,
} from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterEach('keel-sym-files-');

/** Two syms: BTC +12 (2 trades, 1 winner, fees 1.5), ETH -4 (1 trade, fees 0.2). */
function withBreakdown(result: BacktestResult): BacktestResult {
  return {
    ...result,
    symBreakdown: {
      syms: [
        {
          sym: 'BINANCE_PERP_BTC_USDT',
          trades: 2,
          winRate: 0.5,
          netPnl: D('12'),
          fees: D('1.5'),
          returnContribution: 0.0012,
          exposureTime: 0.25,
        },
        {
          sym: 'BINANCE_PERP_ETH_USDT',
          trades: 1,
          winRate: 0,
          netPnl: D('-4'),
          fees: D('0.2'),
          returnContribution: -0.0004,
          exposureTime: 0.1,
        },
      ],
      total: {
        trades: 3,
        winRate: 1 / 3,
        netPnl: D('8'),
        fees: D('1.7'),
        returnContribution: 0.0008,
        exposureTime: 0.3,
      },
    },
  };
}

describe('the per-sym breakdown in the result files', () => {
  it('is written to result.json and read back with its Decimals', async () => {
    const result = withBreakdown(aBacktestResult(60));
    expect(resultFromJson(resultToJson(result)).symBreakdown).toEqual(result.symBreakdown);
    const dir = aTempDir();
    const paths = await writeResultFiles(result, dir);
    expect((await readResult(paths.json)).symBreakdown).toEqual(result.symBreakdown);
    expect(readFileSync(paths.syms, 'utf8')).toBe(
      [
        'sym,trades,winRatePct,netPnl,fees,returnContributionPct,exposureTimePct',
        'BINANCE_PERP_BTC_USDT,2,50,12,1.5,0.12,25',
        'BINANCE_PERP_ETH_USDT,1,0,-4,0.2,-0.04,10',
        'TOTAL,3,33.33333333333333,8,1.7,0.08,30',
        '',
      ].join('\n'),
    );
  });

  it("says in the report's By sym table why a sym's win rate is n/a", () => {
    const base = withBreakdown(aBacktestResult(60));
    const row = {
      sym: 'BINANCE_PERP_BTC_USDT',
      trades: 0,
      winRate: null,
      netPnl: D(0),
      fees: D('1'),
      returnContribution: 0,
      exposureTime: 0.5,
    };
    const page = renderHtmlReport({ ...base, symBreakdown: { syms: [row], total: row } });
    const table = page.slice(page.indexOf('<section id="syms">'), page.indexOf('<section id="trades">'));
    // The reason wraps in its cell (class why), so it does not widen the table.
    expect(table).toContain('<td class="num">0</td><td class="num why">n/a (no closed trades)</td>');
  });

  it('writes each percent as its ratio with the point moved, free of the float noise of ratio x 100', () => {
    const base = withBreakdown(aBacktestResult(60));
    const row = {
      sym: 'BINANCE_PERP_BTC_USDT',
      trades: 100,
      winRate: 0.07, // 0.07 * 100 is 7.000000000000001
      netPnl: D('30104.725232'),
      fees: D('1'),
      returnContribution: 0.301047252322, // x 100 is 30.104725232200003
      exposureTime: 0.0001506932, // x 100 is 0.015069319999999999
    };
    const lines = [...symsCsvLines({ ...base, symBreakdown: { syms: [row], total: row } })];
    expect(lines[1]).toBe('BINANCE_PERP_BTC_USDT,100,7,30104.725232,1,30.1047252322,0.01506932\n');
    expect(lines[2]).toBe('TOTAL,100,7,30104.725232,1,30.1047252322,0.01506932\n');
  });

  it('leaves syms.csv with its header only, and the report without the table, when a result has none', () => {
    const result = aBacktestResult(60);
    expect([...symsCsvLines(result)]).toEqual([
      'sym,trades,winRatePct,netPnl,fees,returnContributionPct,exposureTimePct\n',
    ]);
    expect(renderHtmlReport(result, { chartLibrarySource: '' })).not.toContain('id="syms"');
  });

  it('shows a "By sym" table in the report, a row per sym and the whole run last', () => {
    const html = renderHtmlReport(withBreakdown(aBacktestResult(60)), {
      settleAsset: 'USDT',
      chartLibrarySource: '',
    });
    const table = html.slice(
      html.indexOf('<section id="syms">'),
      html.indexOf('</section>', html.indexOf('<section id="syms">')),
    );
    expect(table).toContain('<th>Net PnL [USDT]</th>');
    const rows = table.split('\n').filter((line) => line.startsWith('<tr'));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain(
      // The sym may break after its underscores, as in the trade list.
      '<td>BINANCE_<wbr>PERP_<wbr>BTC_<wbr>USDT</td><td class="num">2</td><td class="num">50.00 %</td>',
    );
    expect(rows[1]).toContain('<td class="num neg">-0.04 %</td>');
    expect(rows[2]).toMatch(/^<tr class="total"><th scope="row">All syms<\/th><td class="num">3<\/td>/);
  });

  it("says the run's net PnL sums the closed trades, not the equity's change, and how many trades were left open", () => {
    const sentence = (result: BacktestResult) => {
      const html = renderHtmlReport(result, { settleAsset: 'USDT', chartLibrarySource: '' });
      const at = html.indexOf('<section id="syms">');
      return html.slice(at, html.indexOf('</p>', at));
    };
    const closed = withBreakdown(aBacktestResult(60));
    expect(closed.openTrades).toHaveLength(0);
    expect(sentence(closed)).toContain(
      "whose net PnL sums the closed trades: it is not the equity's change.",
    );
    expect(sentence(closed)).not.toContain('left open');
    const open = roundTripsFromFills([...closed.fills].slice(0, 1)).open;
    expect(sentence({ ...closed, openTrades: open })).toContain(
      "1 trade was left open at the end: its PnL is in the equity's change, not in net PnL",
    );
    expect(sentence({ ...closed, openTrades: [...open, ...open] })).toContain(
      '2 trades were left open at the end',
    );
  });

  it("is what symBreakdownOf gives for the result builder's own trades", () => {
    const result = aBacktestResult(60);
    const breakdown = symBreakdownOf({
      trades: result.trades,
      openTrades: result.openTrades,
      fills: result.fills,
      start: result.metrics.start,
      end: result.metrics.end,
      equityStart: result.metrics.equityStart,
    });
    expect(breakdown.total.trades).toBe(result.metrics.tradeCount);
    expect(breakdown.total.fees.eq(result.metrics.feesPaid)).toBe(true);
    expect(breakdown.total.exposureTime).toBeCloseTo(result.metrics.exposureTime, 12);
  });
});

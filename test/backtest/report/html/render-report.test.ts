import { describe, expect, it } from 'vitest';
import {
  chartData,
  escapeHtml,
  formatMoney,
  jsonForScript,
  MAX_FILL_MARKERS,
  MAX_TRADE_ROWS,
  markerStride,
  renderHtmlReport,
  scriptSafe,
  toChartPoints,
} from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';
import {
  aBacktestResult,
  aBacktestResultWithCashFlows,
  withAlgoOrdersAndDenials,
} from '../../../kit/backtest-result-builders.ts';

const HOSTILE = `<img src=x onerror="alert(1)">&'`;

describe('HTML report page', () => {
  const result = aBacktestResult(200, {
    title: `Title ${HOSTILE}`,
    strategies: [{ id: 'sid', name: `name ${HOSTILE}`, params: { note: HOSTILE } }],
    assumptions: [`assumption ${HOSTILE}`],
  });
  const html = renderHtmlReport(result, { settleAsset: 'USDT' });

  it('says in its header which Keel made the result, an older one when the result does not say', () => {
    expect(html).toContain(
      '<p class="sub" id="keel-version">Made by an older Keel, before 0.2.0</p></header>',
    );
    const versioned = renderHtmlReport({ ...result, meta: { ...result.meta, keel: '0.2.0' } });
    expect(versioned).toContain('<p class="sub" id="keel-version">Made by Keel 0.2.0</p></header>');
  });

  it('escapes every text that comes from the result', () => {
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('Title &lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;');
    expect(html).toContain('name &lt;img');
    expect(html).toContain('assumption &lt;img');
  });

  it('states the fill, latency and fee models and labels synthetic data on top', () => {
    expect(html).toContain('<strong>bar-next-open</strong>: Market orders fill at the next bar open.');
    expect(html).toContain('<strong>fixed</strong>: Orders reach the venue 50 ms after they are sent.');
    expect(html).toContain('<strong>maker-taker</strong>: Maker 2 bps, taker 5 bps of notional.');
    expect(html).toContain('id="synthetic-banner"');
    expect(html).toContain('<title>[SYNTHETIC] ');
    expect(html.indexOf('synthetic-banner')).toBeLessThan(html.indexOf('id="charts"'));
  });

  it('says a backtest ran on generated data, and a paper or live session, by its mode, that it did', () => {
    expect(html).toContain('SYNTHETIC DATA: this backtest ran on generated market data');
    expect(html).toContain(' - Keel backtest</title>');
    for (const mode of ['paper', 'live']) {
      const session = renderHtmlReport(aBacktestResult(20, { runConfig: { mode, lockstep: true } }));
      expect(session).toContain(`SYNTHETIC DATA: this ${mode} session ran on generated market data`);
      expect(session).not.toContain('backtest ran');
      expect(session).toContain(` - Keel ${mode} session</title>`);
    }
  });

  it('shows no synthetic banner for recorded data', () => {
    const recorded = renderHtmlReport(
      aBacktestResult(50, {
        synthetic: false,
        recordings: [{ path: 'session.jsonl.gz', synthetic: false }],
      }),
    );
    expect(recorded).not.toContain('id="synthetic-banner"');
    expect(recorded).toContain('(recorded)');
  });

  it('is self-contained: the chart library is inlined and nothing is loaded from elsewhere', () => {
    expect(html).toContain('TradingView Lightweight Charts');
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
    expect(html.match(/<\/script>/g)).toHaveLength(4);
  });

  it('has the stats table in backtesting.py words with the settle asset, and one row per trade', () => {
    for (const label of [
      'Sharpe Ratio',
      'Sortino Ratio',
      'Calmar Ratio',
      'SQN',
      'Kelly Criterion',
      'Equity Final [USDT]',
    ]) {
      expect(html).toContain(`<th scope="row">${escapeHtml(label)}</th>`);
    }
    const tradeRows = html.slice(html.indexOf('<table class="trades">')).match(/<tr><td class="num">/g) ?? [];
    expect(tradeRows).toHaveLength(result.trades.length);
  });

  it('names who opened and who closed each trade when several strategies traded, and only then', () => {
    expect(html).not.toContain('<th>Strategy</th>');
    const [first, second, ...rest] = [...result.trades];
    const trades = [
      { ...first, entryStrategyId: 'brk', exitStrategyId: 'sma' },
      { ...second, entryStrategyId: 'sma', exitStrategyId: 'sma' },
      ...rest,
    ] as typeof rest;
    const page = renderHtmlReport({ ...result, trades }, { settleAsset: 'USDT' });
    expect(page).toContain('<tr><th>#</th><th>Strategy</th><th>Sym</th>');
    expect(page).toContain('<tr><td class="num">1</td><td>brk → sma</td>');
    expect(page).toContain('<tr><td class="num">2</td><td>sma</td>');
  });

  it("names the settle asset in the trade list's money headers", () => {
    const page = renderHtmlReport(result, { settleAsset: 'USDT' });
    expect(page).toContain('<th>PnL [USDT]</th><th>Return</th><th>Fees [USDT]</th>');
  });

  it("shows a trade's volume-weighted price to 12 significant digits, not decimal.js's forty", () => {
    const [first, ...rest] = result.trades;
    const vwap = { ...first!, entryPrice: D(304).div(3) };
    const page = renderHtmlReport({ ...result, trades: [vwap, ...rest] }, { settleAsset: 'USDT' });
    expect(page).toContain('<td class="num">101.333333333</td>');
    expect(page).not.toContain('101.3333333333333');
  });

  it('renders a run without trades with n/a instead of numbers it cannot define', () => {
    const none = aBacktestResult(4);
    expect(none.trades).toHaveLength(0);
    const page = renderHtmlReport(none);
    expect(page).toContain('No closed trades.');
    expect(page).toMatch(/Profit Factor<\/th><td class="num">n\/a/);
    expect(page).toMatch(/Win Rate \[%\]<\/th><td class="num">n\/a/);
    const beforeLibrary = page.slice(0, page.indexOf('TradingView Lightweight Charts'));
    expect(beforeLibrary).not.toContain('NaN');
  });

  it('says in the assumptions when equity reached zero, and why the return ratios are n/a', () => {
    const base = aBacktestResult(4);
    const ruined = {
      ...base,
      metrics: {
        ...base.metrics,
        annualization: { ...base.metrics.annualization, ruinTs: Date.UTC(2024, 0, 2) },
      },
    };
    const assumptionsOf = (html: string): string => html.slice(html.indexOf('<section id="assumptions">'));
    expect(assumptionsOf(renderHtmlReport(ruined))).toMatch(
      /equity reached zero or below at 2024-01-02 00:00:00 UTC: the returns stop there, counted as a total loss \(annualized return -100 %\); volatility, Sharpe and Sortino are not defined/,
    );
    expect(assumptionsOf(renderHtmlReport(base))).not.toMatch(/equity reached zero/);
  });

  it('says how many trades of how many it shows, and where the full list is, when it caps the list', () => {
    const base = aBacktestResult(200);
    const trade = [...base.trades][0]!;
    const many = { ...base, trades: Array.from({ length: MAX_TRADE_ROWS + 5 }, () => trade) };
    const page = renderHtmlReport(many);
    // Said once (the heading said it twice: "... of 2005 trades (2000 of 2005 shown)").
    expect(page).toContain(
      `Showing the first ${MAX_TRADE_ROWS} of ${MAX_TRADE_ROWS + 5} trades; the full list is in trades.csv and result.json`,
    );
    expect(page.split(`${MAX_TRADE_ROWS} of ${MAX_TRADE_ROWS + 5}`)).toHaveLength(2);
    const rows = page.slice(page.indexOf('<table class="trades">')).match(/<tr><td class="num">/g) ?? [];
    expect(rows).toHaveLength(MAX_TRADE_ROWS);
    expect(renderHtmlReport(base)).not.toContain(' shown');
  });

  it('draws at most MAX_FILL_MARKERS fill markers per sym, evenly spread, and says how many of how many', () => {
    const base = aBacktestResult(200);
    const fill = [...base.fills][0]!;
    const sym = base.prices[0]!.sym;
    const count = 3 * MAX_FILL_MARKERS + 7;
    const fills = Array.from({ length: count }, (_, i) => ({
      ...fill,
      sym,
      timestamp: base.prices[0]!.points[0]!.ts + i * 1000,
    }));
    const many = { ...base, fills };
    const data = chartData(many);
    const buys = fills.filter((f) => f.side === 'BUY').length;
    const stride = markerStride(buys, count - buys);
    expect(stride).toBe(4);
    expect(data.prices[0]!.markers).toHaveLength(Math.ceil(count / stride));
    expect(data.prices[0]!.markers.length).toBeLessThanOrEqual(MAX_FILL_MARKERS);
    expect(data.prices[0]!.fillCount).toBe(count);
    const page = renderHtmlReport(many);
    expect(page).toContain(`Fill markers: ${Math.ceil(count / stride)} of ${count} shown`);
    expect(page).toContain('every fill is in fills.csv and result.json');
    expect(renderHtmlReport(base)).not.toContain('Fill markers:');
  });

  it('lists at most MAX_TRADE_ROWS trades and points to trades.csv for the rest', () => {
    const base = aBacktestResult(200);
    const many = { ...base, trades: Array.from({ length: MAX_TRADE_ROWS + 5 }, () => [...base.trades][0]!) };
    expect(renderHtmlReport(many)).toContain(
      `Showing the first ${MAX_TRADE_ROWS} of ${MAX_TRADE_ROWS + 5} trades`,
    );
  });
});

describe('report escaping helpers', () => {
  it('keep a script block from being closed by data or library text', () => {
    expect(jsonForScript({ a: '</script><!--' })).toBe('{"a":"\\u003c/script>\\u003c!--"}');
    expect(scriptSafe('x = "</SCRIPT>"; y = "<!--";')).toBe('x = "<\\/SCRIPT>"; y = "<\\!--";');
  });
});

describe('chart data', () => {
  it('turns milliseconds into strictly increasing seconds, keeping the last value of a second', () => {
    expect(
      toChartPoints([
        [1000, 1],
        [1500, 2],
        [2000, 3],
      ]),
    ).toEqual([
      [1, 2],
      [2, 3],
    ]);
  });

  it('puts each fill on the price sample at or before it, buys below and sells above, in time order', () => {
    const data = chartData(aBacktestResult(60));
    const series = data.prices[0]!;
    const times = new Set(series.points.map((p) => p[0]));
    expect(series.markers.length).toBeGreaterThan(0);
    for (const m of series.markers) expect(times.has(m.time)).toBe(true);
    expect(series.markers.map((m) => m.time)).toEqual(
      [...series.markers.map((m) => m.time)].sort((a, b) => a - b),
    );
    expect(series.markers[0]).toMatchObject({ position: 'atPriceBottom', shape: 'arrowUp' });
    // Each marker sits at its fill's price, so fills in one bar do not stack away from the price.
    const fillPrices = new Set([...aBacktestResult(60).fills].map((f) => f.price.toNumber()));
    for (const m of series.markers) expect(fillPrices.has(m.price)).toBe(true);
    expect(data.drawdown.every(([, v]) => v <= 0)).toBe(true);
  });
});

describe('HTML report: strategy faults and setup warnings', () => {
  it('shows each fault (strategy, hook, event time, error, user frame) and each warning on top, escaped', () => {
    const base = aBacktestResult(10, {});
    const html = renderHtmlReport(
      {
        ...base,
        meta: { ...base.meta, warnings: [`strategy s1 watched X 4h bars ${HOSTILE}`] },
        faults: [
          {
            strategyId: 'bad',
            hook: 'onBar',
            ts: Date.UTC(2024, 0, 1, 2),
            error: `Error: boom ${HOSTILE}`,
            at: '/u/s.ts:17:3',
          },
        ],
      },
      { settleAsset: 'USDT' },
    );
    expect(html).not.toContain('<img src=x');
    expect(html).toContain(
      'strategy bad: onBar threw at 2024-01-01 02:00:00 UTC: Error: boom &lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39; (at /u/s.ts:17:3)',
    );
    expect(html).toContain('strategy s1 watched X 4h bars &lt;img');
    expect(html.indexOf('id="strategy-faults"')).toBeGreaterThan(0);
    expect(html.indexOf('id="strategy-faults"')).toBeLessThan(html.indexOf('id="charts"'));
    expect(html.indexOf('id="run-warnings"')).toBeLessThan(html.indexOf('id="charts"'));
  });

  it('shows no fault or warning banner for a clean run', () => {
    const html = renderHtmlReport(aBacktestResult(10, {}), { settleAsset: 'USDT' });
    expect(html).not.toContain('id="strategy-faults"');
    expect(html).not.toContain('id="run-warnings"');
  });
});

describe('HTML report: funding, interest and liquidations', () => {
  const html = renderHtmlReport(aBacktestResultWithCashFlows(), { settleAsset: 'USDT' });
  const row = (label: string) =>
    new RegExp(`<th scope="row">${label.replace(/[[\]#.]/g, '\\$&')}</th><td class="num">([^<]*)</td>`).exec(
      html,
    )?.[1];

  it('shows funding and interest paid and the liquidations in the stats table, money with its currency', () => {
    expect(row('Funding Paid [USDT]')).toBe('0.52');
    expect(row('Interest Paid [USDT]')).toBe('0.10');
    expect(row('# Liquidations')).toBe('1 (first 2024-01-02 06:00:00 UTC)');
    expect(row('Liquidation Fees [USDT]')).toBe('12.50 (1 fill)');
  });

  it('shows no loan row for a run that borrowed nothing', () => {
    expect(html).not.toContain('Loans [');
  });

  it("shows each coin's loan principal borrowed, repaid and still owed, apart from the interest it cost", () => {
    const base = aBacktestResultWithCashFlows();
    const loanFlow = (hour: number, kind: 'BORROW' | 'REPAY', asset: string, amount: string) => ({
      ts: Date.UTC(2024, 0, 1, hour),
      kind,
      asset,
      amount: D(amount),
    });
    const withLoans = renderHtmlReport(
      {
        ...base,
        cashFlows: [
          loanFlow(7, 'BORROW', 'USDT', '2500'),
          ...(base.cashFlows ?? []),
          loanFlow(12, 'BORROW', 'BTC', '0.01'),
          loanFlow(20, 'REPAY', 'USDT', '-1000'),
          loanFlow(21, 'BORROW', 'USDT', '500'),
        ],
      },
      { settleAsset: 'USDT' },
    );
    const loanRow = (label: string) =>
      new RegExp(`<th scope="row">${label.replace(/[[\]]/g, '\\$&')}</th><td class="num">([^<]*)</td>`).exec(
        withLoans,
      )?.[1];
    expect(loanRow('Loans [USDT]')).toBe('borrowed 3000.00, repaid 1000.00, owed 2000.00');
    expect(loanRow('Loans [BTC]')).toBe('borrowed 0.01, repaid 0.00, owed 0.01');
    expect(withLoans.indexOf('Loans [USDT]')).toBeGreaterThan(withLoans.indexOf('Interest Paid [USDT]'));
  });

  it('warns on top, before the charts, that the account was liquidated, when and what it cost', () => {
    const banner = /<div class="banner fault" id="liquidation-warning">([^<]*)<\/div>/.exec(html)?.[1];
    expect(banner).toBe(
      '⚠ The account was LIQUIDATED once (first at 2024-01-02 06:00:00 UTC): equity fell below maintenance margin and the venue closed positions with 1 liquidation order, paying 12.50 USDT in liquidation fees; equity after it -6.83125 USDT (below zero: the account owes more than it holds). The figures below include the forced closes.',
    );
    expect(html.indexOf('id="liquidation-warning"')).toBeLessThan(html.indexOf('id="charts"'));
  });

  it('prints every amount under 100 with at least two decimals, as the larger ones', () => {
    expect(formatMoney(D(2))).toBe('2.00');
    expect(formatMoney(D('-3.1'))).toBe('-3.10');
    expect(formatMoney(D('0.000123456789'))).toBe('0.000123457');
    expect(formatMoney(D('12345.678'))).toBe('12345.68');
  });
});

describe('HTML report: algo orders and denied intents', () => {
  const result = withAlgoOrdersAndDenials(aBacktestResult(100), HOSTILE);
  const html = renderHtmlReport(result, { settleAsset: 'USDT' });

  it('lists each algo order with its trigger, steps and the order it sent, escaped', () => {
    const section = /<section id="algo-orders">.*?<\/section>/s.exec(html)?.[0] ?? '';
    expect(section).toContain('<h2>Algo orders (2)</h2>');
    expect(section).toContain('TP_SL of ');
    expect(section).toContain('LastPrice ≤ 39000');
    expect(section).toContain('O-SL');
    expect(section).toMatch(
      /NEW 2024-01-01 05:00:00 UTC @44000<br>NEW [^<]* @45000<br>CANCELLED [^<@]*<\/td>/,
    );
    expect(section).not.toContain('<img src=x');
    expect(section).toContain('&lt;img src=x');
  });

  it('counts and lists the denied intents with strategy, check and reason', () => {
    const section = /<section id="denials">.*?<\/section>/s.exec(html)?.[0] ?? '';
    expect(section).toContain('<h2>Denied intents (2)</h2>');
    expect(section).toContain('<td>submitRate</td>');
    expect(section).toContain('<td>kernel.ownership</td>');
    expect(section).not.toContain('<img src=x');
  });

  it('leaves both out of a result written before Keel recorded them', () => {
    const old = renderHtmlReport(aBacktestResult(100), { settleAsset: 'USDT' });
    expect(old).not.toContain('id="algo-orders"');
    expect(old).not.toContain('id="denials"');
  });
});

describe('HTML report: price chart titles', () => {
  // Not "SYM: price: bucket closes every 32 min, plus fill prices; fills".
  it('name the sym, what the line samples and the fills in one phrase, with no colon chain', () => {
    const base = aBacktestResult(20);
    const sym = base.prices[0]?.sym ?? '';
    const bucketed = { ...base, prices: base.prices.map((p) => ({ ...p, bucketMs: 32 * 60_000 })) };
    const titles = (html: string) =>
      [...html.matchAll(/<h3 class="chart-title">([^<]*)<\/h3>/g)].map((m) => m[1]);
    expect(titles(renderHtmlReport(bucketed))[0]).toBe(
      `${sym} price [USDT] (bucket closes every 32 min, plus fill prices) and fills, time in UTC`,
    );
    expect(titles(renderHtmlReport(base))[0]).toBe(
      `${sym} price [USDT] (sampled bucket closes, plus fill prices) and fills, time in UTC`,
    );
  });
});

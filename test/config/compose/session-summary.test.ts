import { describe, expect, it } from 'vitest';
import { POST_ONLY_TAKE_REASON } from '../../../backtest/report/html/post-only-rejections.ts';
import { formatMoney, formatPercent, formatRatio, type OrderRecord } from '../../../backtest/report/index.ts';
import { type SessionRecord, sessionResult } from '../../../config/compose/session-result.ts';
import { formatSessionSummary } from '../../../config/compose/session-summary.ts';
import type { VenueSessionOutcome } from '../../../config/compose/venue-session-options.ts';
import { D } from '../../../core/model/index.ts';
import { aBacktestResultWithCashFlows } from '../../kit/backtest-result-builders.ts';
import { aSessionRecord } from '../../kit/session-records.ts';

function outcomeOf(result: VenueSessionOutcome['result']): VenueSessionOutcome {
  return {
    exitCode: 0,
    fills: [],
    intents: 1,
    events: { market: 4, userData: 6 },
    startEquity: D(100),
    endEquity: D('-6.83'),
    recording: undefined,
    outputs: { json: '/tmp/r.json', html: '/tmp/r.html', csv: [] },
    result,
  };
}

describe('paper and live sessions: the figures', () => {
  it("prints equity, PnL, return, sharpe and what was paid as a backtest's summary does, with its currency", () => {
    const result = aBacktestResultWithCashFlows();
    const m = result.metrics;
    const pnl = m.equityFinal.sub(m.equityStart);
    const lines = formatSessionSummary(outcomeOf(result), false).split('\n');
    expect(lines).toContain(
      `  fills ${result.fills.length}, trades ${result.trades.length}, equity ${formatMoney(m.equityStart)} -> ${formatMoney(m.equityFinal)} USDT (PnL ${formatMoney(pnl)} USDT, return ${formatPercent(m.totalReturn)}), sharpe ${formatRatio(m.sharpe)}`,
    );
    expect(lines).toContain(
      `  paid: fees ${formatMoney(m.feesPaid)} USDT, funding 0.52 USDT, interest 0.10 USDT`,
    );
  });
});

describe('paper and live sessions: liquidations', () => {
  it('warn in the closing summary when the venue liquidated the account', () => {
    const text = formatSessionSummary(outcomeOf(aBacktestResultWithCashFlows()), false);
    expect(text.split('\n')[1]).toBe(
      '  ⚠ The account was LIQUIDATED once (first at 2024-01-02 06:00:00 UTC): equity fell below maintenance margin and the venue closed positions with 1 liquidation order, paying 12.50 USDT in liquidation fees; equity after it -6.83125 USDT (below zero: the account owes more than it holds). The figures below include the forced closes.',
    );
  });

  it('count the liquidations the venue reported in the result, and leave funding and interest out rather than claim zero', () => {
    const liquidations = aBacktestResultWithCashFlows().liquidations ?? [];
    const result = sessionResult(aSessionRecord({ liquidations }));
    expect(result.liquidations).toEqual(liquidations);
    expect(result.metrics.liquidationCount).toBe(1);
    expect(result.metrics.fundingPaid).toBeUndefined();
    expect(result.cashFlows).toBeUndefined();
    expect(formatSessionSummary(outcomeOf(sessionResult(aSessionRecord())), false)).not.toContain(
      'LIQUIDATED',
    );
  });
});

describe('paper and live sessions: denied intents', () => {
  it('count them by source and check in the closing summary, pointing at denials.csv and quoting the first reason', () => {
    const denial = (check: string, source: 'risk' | 'kernel', reason = 'no') => ({
      ts: 1_000,
      strategyId: 'pairs',
      intentKind: 'placeOrder',
      ref: 'r',
      source,
      check,
      reason,
    });
    const denials = [
      denial('submitRate', 'risk', 'placeOrder r: 5 orders in 1000 ms'),
      denial('submitRate', 'risk'),
      denial('kernel.ref', 'kernel'),
    ];
    const outcome = {
      ...outcomeOf(sessionResult(aSessionRecord({ denials }))),
      outputs: { json: '/tmp/r.json', html: '/tmp/r.html', csv: ['/tmp/r.fills.csv', '/tmp/r.denials.csv'] },
    };
    const lines = formatSessionSummary(outcome, false).split('\n');
    expect(lines[0]).toBe('Session done: 10 events (4 market data, 6 User Data), 1 intents, 0 fills');
    const at = lines.indexOf(
      '  3 intents denied (risk submitRate 2, kernel kernel.ref 1): /tmp/r.denials.csv',
    );
    expect(lines.slice(at, at + 2)).toEqual([
      '  3 intents denied (risk submitRate 2, kernel kernel.ref 1): /tmp/r.denials.csv',
      '    the first: placeOrder r: 5 orders in 1000 ms',
    ]);
    expect(formatSessionSummary(outcomeOf(sessionResult(aSessionRecord())), false)).not.toContain('denied');
  });
});

describe('paper and live sessions: loans', () => {
  const loan = (principal: number) => ({
    exchange: 'BINANCE',
    coin: 'USDT',
    principal: D(principal),
    interest: D(0),
    annualRate: D('0.08'),
    updateAt: 1,
  });
  const withFlows = (cashFlows: SessionRecord['cashFlows']) =>
    outcomeOf(
      sessionResult(
        aSessionRecord({ ...(cashFlows === undefined ? {} : { cashFlows }), accountCurrency: 'USDT' }),
      ),
    );

  it('say a restarted session began owing what it adopted, and owes at the end what the venue says, not borrowed - repaid', () => {
    const outcome = { ...withFlows([{ ts: 5, kind: 'REPAY', asset: 'USDT', amount: D(-50) }]) };
    const text = formatSessionSummary(
      { ...outcome, loans: { atStart: [loan(860)], atEnd: [loan(810)] } },
      false,
    );
    expect(text).toContain(
      '  loans: 860.00 USDT owed at the start, borrowed 0.00 USDT, repaid 50.00 USDT, 810.00 USDT owed at the end\n',
    );
  });

  it('name a loan the session left alone, and a loan owed when the statement could not be read', () => {
    const loans = { atStart: [loan(1000)], atEnd: [loan(1000)] };
    expect(formatSessionSummary({ ...withFlows([]), loans }, false)).toContain(
      '  loans: 1000.00 USDT owed at the start, 1000.00 USDT owed at the end\n',
    );
    expect(formatSessionSummary({ ...withFlows(undefined), loans }, false)).toContain(
      '  loans: 1000.00 USDT owed at the start, 1000.00 USDT owed at the end\n',
    );
  });

  it('say nothing of loans when there were none and none was made', () => {
    const text = formatSessionSummary({ ...withFlows([]), loans: { atStart: [], atEnd: [] } }, false);
    expect(text).not.toContain('loans:');
  });
});

describe('paper and live sessions: the recording', () => {
  it('say where the session was recorded, or that it was not and so cannot be replayed', () => {
    const result = aBacktestResultWithCashFlows();
    expect(formatSessionSummary(outcomeOf(result), false)).toContain(
      '  recording: none (the config has no recording section, so this session cannot be replayed)\n',
    );
    const recorded = { ...outcomeOf(result), recording: '/tmp/s.jsonl.gz' };
    expect(formatSessionSummary(recorded, false)).toContain('  recording: /tmp/s.jsonl.gz\n');
  });
});

describe('paper and live sessions: post-only orders rejected because they would take', () => {
  it('are a note line without ⚠ in the closing summary, as the report files them', () => {
    const base = aBacktestResultWithCashFlows();
    const rejected = {
      orderState: 'REJECTED',
      timeInForce: 'GTX',
      reason: `400001 bad parameters: ${POST_ONLY_TAKE_REASON}`,
    } as unknown as OrderRecord;
    const warning =
      'the venue rejected 2 of the 3 orders placed; the first: BTC BUY p-1: 400001 bad parameters';
    const rested = { orderState: 'NEW', timeInForce: 'GTX' } as unknown as OrderRecord;
    const orders = [rejected, rejected, rested];
    const result = { ...base, orders, meta: { ...base.meta, warnings: [warning] } };
    const text = formatSessionSummary(outcomeOf(result), false);
    expect(text).not.toContain(`⚠ ${warning}`);
    expect(text).toContain(`\n  note: ${warning}\n`);
    expect(text).toContain(
      '\n  note: 2 post-only (GTX) orders were rejected because they would have taken liquidity',
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { DenialRecord, OpenTrade } from '../../../backtest/report/index.ts';
import { unclosedNotes, unclosedWarnings } from '../../../backtest/runner/unclosed-positions.ts';
import { D } from '../../../core/model/index.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'BINANCE_PERP_ETH_USDT';

function openTrade(sym: string): OpenTrade {
  return {
    sym,
    positionSide: 'NONE',
    direction: 'LONG',
    qty: D('0.1'),
    entryTs: 0,
    entryPrice: D(100),
    entryOrderId: '1',
    entryFees: D(0),
  };
}

const halted: DenialRecord = {
  ts: 1,
  strategyId: 'keel',
  intentKind: 'closePosition',
  ref: `bt-end1-close-${BTC}-NONE`,
  sym: BTC,
  source: 'risk',
  check: 'tradingState',
  reason: 'trading is HALTED (kill switch); only cancels pass',
};

describe('unclosed positions after the end-of-run close', () => {
  it('quotes the denial of a close the gate refused, not a fill that never was', () => {
    const refusals = new Map([[BTC, halted]]);
    expect(unclosedWarnings([openTrade(BTC)], refusals)).toEqual([
      `the end-of-run close left ${BTC} open: its closing order was never sent, denied by risk (tradingState): trading is HALTED (kill switch); only cancels pass; valued at the last price, left out of the trade statistics`,
    ]);
    expect(unclosedNotes([openTrade(BTC)], refusals)).toEqual([
      `${BTC} stayed open at the end: its closing order was never sent, denied by risk (tradingState): trading is HALTED (kill switch); only cancels pass; it is valued at its last price and left out of the trade statistics.`,
    ]);
  });

  it('keeps "did not fill" for a close that was sent', () => {
    const refusals = new Map([[BTC, halted]]);
    const warnings = unclosedWarnings([openTrade(BTC), openTrade(ETH)], refusals);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe(
      `the end-of-run close left ${ETH} open (its order did not fill: see the assumptions); valued at the last price, left out of the trade statistics`,
    );
    expect(unclosedNotes([openTrade(ETH)])[0]).toContain('its closing order did not fill');
  });

  it('says nothing when every position was closed', () => {
    expect(unclosedWarnings([], new Map([[BTC, halted]]))).toEqual([]);
  });
});

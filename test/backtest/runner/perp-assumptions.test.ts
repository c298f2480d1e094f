import { describe, expect, it } from 'vitest';
import type { BacktestResult, CashFlowRecord } from '../../../backtest/report/index.ts';
import { type PerpFeed, perpAssumptions, perpFeedsOf } from '../../../backtest/runner/index.ts';
import { D, type MarkPriceEvent } from '../../../core/model/index.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import {
  barRecord,
  fundingCase,
  PERP,
  PERP_T0,
  type PerpRun,
  runPerp,
} from '../../kit/perp-cash-flow-runs.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-perp-assumptions-');

async function metaOf(run: PerpRun): Promise<{ assumptions: string[]; warnings: string[] }> {
  const result: BacktestResult = await runPerp(aTempDir(), run);
  try {
    return { assumptions: [...result.meta.assumptions], warnings: [...(result.meta.warnings ?? [])] };
  } finally {
    result.dispose?.();
  }
}

const nothingSeen = {
  marks: new Map(),
  trades: new Map(),
  closedBars: new Map(),
  quotes: new Map(),
  books: new Map(),
};
const feed = (fields: Partial<PerpFeed>): PerpFeed => ({
  marks: false,
  funding: false,
  trades: false,
  bars: 'none',
  quotes: false,
  ...fields,
});

const mark = (sym: string, funding: boolean): MarkPriceEvent => ({
  kind: 'markPrice',
  sym,
  ts: 1,
  recvTs: 1,
  markPrice: 100,
  ...(funding ? { fundingRate: 0.0001, nextFundingTime: 8 * 3_600_000 } : {}),
});

describe('perpAssumptions in a backtest result', () => {
  it('names recorded marks and funding when the recording holds MARK_PRICE with funding rates, and warns of nothing', async () => {
    const meta = await metaOf({ ...fundingCase(), startingCash: '10000' });
    expect(meta.assumptions).toContain(
      `${PERP} mark and funding: marked at the mark prices the recordings gave (MARK_PRICE) for margin, liquidation and mark-price triggers; funding settled at the rates and funding times of its MARK_PRICE events (qty x mark x rate at each funding time).`,
    );
    expect(meta.warnings.filter((w) => w.includes('funding'))).toEqual([]);
  });

  it("names the sim's leverage and maintenance margin rate when a library run sets them", async () => {
    const meta = await metaOf({
      ...fundingCase(),
      startingCash: '10000',
      margin: { leverage: { [PERP]: D(5) }, maintenanceMarginRate: D('0.01') },
    });
    expect(meta.assumptions).toContain(
      `${PERP} margin: cross margin at leverage 5 (initial margin = notional / 5), maintenance margin rate 1 % of notional; the account is liquidated when its equity falls below its maintenance margin: orders cancelled, positions closed at the mark paying a liquidation fee of 1.25 % of notional instead of the trading fee, no insurance fund.`,
    );
  });

  it('warns of the funding times a position on bars alone was held across (08:00 UTC of a 01:00-12:00 hold)', async () => {
    const flat = ['100', '101', '99', '100'];
    const meta = await metaOf({
      records: Array.from({ length: 12 }, (_, i) => barRecord(i, flat, true)),
      steps: [{ bar: 0, qty: 1 }],
      startingCash: '10000',
      hourly: true,
    });
    expect(meta.assumptions).toContain(
      `${PERP} mark and funding: the recordings gave no mark price, so it is marked at the last bar's close (along each bar's path while it is matched: open, extremes, close) for margin, liquidation and mark-price triggers; funding: none recorded (no MARK_PRICE funding rate in the recordings), so no funding is charged.`,
    );
    expect(meta.warnings.filter((w) => w.includes('funding'))).toEqual([
      `${PERP} was held across 1 funding time (${new Date(PERP_T0 + 8 * 3_600_000).toISOString()}) of the usual 8-hour funding schedule (00:00, 08:00, 16:00 UTC), but the recordings gave no funding rate of it: no funding was charged, so the result leaves out what the position would have paid or received (a recording by keel record keeps the MARK_PRICE funding rates)`,
    ]);
  });
});

describe('perpFeedsOf', () => {
  it('counts marks from any MARK_PRICE event, funding from one with a rate and time or from a funding payment', () => {
    const flows: CashFlowRecord[] = [
      { ts: 1, kind: 'FUNDING_FEE', asset: 'USDT', amount: D('-1'), sym: 'BINANCE_PERP_SOL_USDT' },
      { ts: 1, kind: 'DEDUCT_INTEREST', asset: 'USDT', amount: D('-1') },
    ];
    const feedOf = perpFeedsOf(
      {
        ...nothingSeen,
        marks: new Map([
          ['BINANCE_PERP_BTC_USDT', mark('BINANCE_PERP_BTC_USDT', true)],
          ['BINANCE_PERP_ETH_USDT', mark('BINANCE_PERP_ETH_USDT', false)],
          ['BINANCE_PERP_SOL_USDT', mark('BINANCE_PERP_SOL_USDT', false)],
        ]),
      },
      flows,
      false,
    );
    expect(feedOf('BINANCE_PERP_BTC_USDT')).toMatchObject({ marks: true, funding: true });
    expect(feedOf('BINANCE_PERP_ETH_USDT')).toMatchObject({ marks: true, funding: false });
    expect(feedOf('BINANCE_PERP_SOL_USDT')).toMatchObject({ marks: true, funding: true });
    expect(feedOf('BINANCE_PERP_XRP_USDT')).toMatchObject({ marks: false, funding: false });
    expect(perpFeedsOf(nothingSeen, undefined, false)('BINANCE_PERP_BTC_USDT')).toEqual({
      marks: false,
      funding: false,
      trades: false,
      bars: 'none',
      quotes: false,
    });
  });

  it('notes the trades, closed bars (matched along their path on the bar fill model) and quotes or books seen', () => {
    const seen = {
      ...nothingSeen,
      trades: new Map([['A', 1]]),
      closedBars: new Map([['B', 1]]),
      quotes: new Map([['C', 1]]),
      books: new Map([['D', 1]]),
    };
    const on = (barFillModel: boolean, sym: string) => perpFeedsOf(seen, undefined, barFillModel)(sym);
    expect(on(false, 'A')).toMatchObject({ trades: true, bars: 'none', quotes: false });
    expect(on(false, 'B')).toMatchObject({ trades: false, bars: 'closes', quotes: false });
    expect(on(true, 'B')).toMatchObject({ bars: 'paths' });
    expect(on(false, 'C')).toMatchObject({ trades: false, bars: 'none', quotes: true });
    expect(on(false, 'D')).toMatchObject({ quotes: true });
  });
});

describe('perpAssumptions', () => {
  const terms = { leverageOf: () => D(20), maintenanceMarginRateOf: () => D('0.005') };

  it('gives two lines per perpetual and none for spot, in the words of the data source given', () => {
    const lines = perpAssumptions(
      [anEthSpot(), anInstrument('BINANCE_PERP_BTC_USDT', { liquidationFee: D('0.0125') })],
      () => feed({ marks: true }),
      terms,
      'the feed',
    );
    expect(lines).toEqual([
      'BINANCE_PERP_BTC_USDT mark and funding: marked at the mark prices the feed gave (MARK_PRICE) for margin, liquidation and mark-price triggers; funding: none recorded (no MARK_PRICE funding rate in the feed), so no funding is charged.',
      'BINANCE_PERP_BTC_USDT margin: cross margin at leverage 20 (initial margin = notional / 20), maintenance margin rate 0.5 % of notional; the account is liquidated when its equity falls below its maintenance margin: orders cancelled, positions closed at the mark paying a liquidation fee of 1.25 % of notional instead of the trading fee, no insurance fund.',
    ]);
    expect(perpAssumptions([anEthSpot()], () => feed({}), terms)).toEqual([]);
  });

  it('words the mark without MARK_PRICE from what the venue took it from: last trade, bar close (path on the bar fill model), else the quote mid', () => {
    const line = (fields: Partial<PerpFeed>) =>
      (perpAssumptions([anInstrument('BINANCE_PERP_BTC_USDT')], () => feed(fields), terms)[0] as string)
        .replace(/^.*so it is marked at /, '')
        .replace(/ for margin, liquidation.*$/, '');
    expect(line({ quotes: true })).toBe('the quote mid (the middle of the best bid and ask)');
    expect(line({ trades: true })).toBe('the last trade price');
    expect(line({ trades: true, quotes: true })).toBe(
      'the last trade price (the quote mid before the first trade)',
    );
    expect(line({ bars: 'closes' })).toBe("the last bar's close");
    expect(line({ bars: 'paths' })).toBe(
      "the last bar's close (along each bar's path while it is matched: open, extremes, close)",
    );
    expect(line({ trades: true, bars: 'closes' })).toBe('the last price, the latest trade or bar close');
    expect(line({ trades: true, bars: 'paths', quotes: true })).toBe(
      "the last price, the latest trade or bar close (along each bar's path while it is matched: open, extremes, close; the quote mid before the first trade or bar)",
    );
    expect(line({})).toBe('the last price');
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { barsRecordingIn, decodeMarketRecord, flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { quoteRecordAt, TEST_HEADER, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
/** The TIME order's sym: conditions are PLACE_ORDER's, whose orders are US equities' (the gate denies one on crypto). */
const AAPL = 'US_EQUITY_AAPL';
const ETH = 'OKX_SPOT_ETH_USDT';
const T0 = TEST_HEADER.startTime;
const aTempDir = tempDirsRemovedAfterAll('keel-end-timers-');

/** Sends a market buy of 1 BTC and a TIME buy of 1 AAPL due at `sendAt` on the first quote. */
function buyerWithTimedOrder(sendAt: number) {
  return defineStrategy({
    name: 'timed-buyer',
    params: z.object({}),
    state: () => ({ placed: false }),
    onQuote: (ctx) => {
      if (ctx.state.placed) return undefined;
      ctx.state.placed = true;
      return [
        ctx.order.market({ sym: BTC, side: 'BUY', qty: 1 }),
        ctx.order.conditional({ sym: AAPL, side: 'BUY', qty: 1, code: 'TIME', sendAt }),
      ];
    },
  });
}

/** Borrows 5 ETH on its first 1m bar of ETH (and buys 1 ETH at market with it when `buys`). */
function borrowerOnFirstBar(buys: boolean) {
  return defineStrategy({
    name: 'borrower',
    params: z.object({}),
    state: () => ({ bars: 0 }),
    onStart: (ctx) => ctx.watchBars(ETH, '1m'),
    onBar: (ctx) => {
      if (++ctx.state.bars !== 1) return undefined;
      const borrow = ctx.order.borrow({ exchange: 'OKX', coin: 'ETH', amount: '5' });
      return buys ? [borrow, ctx.order.market({ sym: ETH, side: 'BUY', qty: 1 })] : borrow;
    },
  });
}

/** ETH lent at 0.876 a year (0.0001 an hour). */
const ETH_LOANS = {
  loans: { assets: { 'OKX:ETH': { annualRate: D('0.876'), userQuota: D(100), pool: D(100) } } },
} as const;

/** A mark of BTC at `dt` after T0 announcing a funding of 1 % at `fundingAt`. */
function markRecordAt(dt: number, fundingAt: number): RecordedMessage {
  return {
    recvTs: T0 + dt,
    source: 'market-data',
    msg: {
      arg: { channel: 'MARK_PRICE', sym: BTC },
      data: { markPrice: '100', ts: T0 + dt, fundingRate: '0.01', nextFundingTime: fundingAt },
    },
  };
}

/**
 * Quotes of BTC and AAPL every second for 10 s from a Monday's 09:30 New York, when AAPL trades (a
 * mark of BTC announcing funding at `fundingAt` after the first), and a run of
 * {@link buyerWithTimedOrder} over them.
 */
async function runQuotes(
  sendAt: number,
  fundingAt: number,
  overrides: Partial<BacktestRunOptions>,
): Promise<{ fills: string[]; states: string[]; never: string[]; flows: string[]; end: number | undefined }> {
  const path = join(aTempDir(), 'quotes.jsonl');
  await writeRecording(path, [
    quoteRecordAt(0, '100', '100.1'),
    quoteRecordAt(0, '190', '190.1', AAPL),
    markRecordAt(1, fundingAt),
    ...Array.from({ length: 10 }, (_, i) => [
      quoteRecordAt((i + 1) * 1000, '100', '100.1'),
      quoteRecordAt((i + 1) * 1000, '190', '190.1', AAPL),
    ]).flat(),
  ]);
  const result = await runBacktest({
    recordings: [path],
    decode: decodeMarketRecord,
    instruments: [anInstrument(BTC), anInstrument(AAPL)],
    strategies: [{ id: 't', strategy: buyerWithTimedOrder(sendAt) }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    closeAtEnd: false,
    fillModel: 'touch',
    ...overrides,
  });
  const out = {
    fills: [...result.fills].map(
      (f) => `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()} ${f.strategyId}`,
    ),
    states: [...result.orders].map((o) => `${o.clientOrderId} ${o.orderState}`),
    never: (result.meta.warnings ?? []).filter((w) => w.includes('was never sent')),
    flows: [...(result.cashFlows ?? [])].map((f) => `${f.kind} ${f.amount.toFixed()}`),
    end: result.equityCurve.at(-1)?.ts,
  };
  result.dispose?.();
  return out;
}

const LATENCY: BacktestRunOptions['latency'] = {
  orderEntry: { fixedMs: 20, jitterMs: 0 },
  marketData: { fixedMs: 0, jitterMs: 0 },
  userData: { fixedMs: 5, jitterMs: 0 },
};

describe('backtest runner: no venue timer fires after the last event', () => {
  it('leaves a TIME order due after the last event unsent, as its warning says', async () => {
    const last = T0 + 10_000;
    const run = await runQuotes(last + 30_000, last + 3_600_000, {});
    expect(run.fills).toEqual(['BUY 1 @ 100.1 t']);
    expect(run.states).toEqual(['t-1 FILLED', 't-2 NEW']);
    expect(run.never).toHaveLength(1);
    expect(run.never[0]).toContain('TIME order t-2 was never sent');
  });

  it('charges no funding whose time comes after the last event of the data', async () => {
    const run = await runQuotes(T0 + 3_600_000, T0 + 40_000, {});
    // The data ends at T0 + 10 s; the funding time is 30 s later. A paper session stopped at its
    // last event pays nothing.
    expect({ flows: run.flows, end: run.end }).toEqual({ flows: [], end: T0 + 10_000 });
  });

  it('charges no funding due exactly at the last event, as a window ending there leaves it out', async () => {
    const run = await runQuotes(T0 + 3_600_000, T0 + 10_000, { latency: LATENCY });
    expect({ flows: run.flows, end: run.end }).toEqual({ flows: [], end: T0 + 10_000 });
  });

  it('still closes at the last quote, with no timer after the end, when the run closes what is open', async () => {
    const last = T0 + 10_000;
    // Funding 10 ms after the last event, before the close (20 ms of order entry) arrives.
    const run = await runQuotes(last + 30_000, last + 10, { closeAtEnd: true, latency: LATENCY });
    // The close cancels the TIME order before it was due and sells at the last bid; no funding.
    expect(run.fills).toEqual(['BUY 1 @ 100.1 t', 'SELL 1 @ 100 keel']);
    expect(run.states).toEqual([
      't-1 FILLED',
      't-2 CANCELLED',
      'bt-end0-close-BINANCE_PERP_BTC_USDT-NONE FILLED',
    ]);
    expect(run.never).toHaveLength(1);
    expect(run.flows).toEqual([]);
    expect(run.end).toBe(last + 20);
  });

  it('on the bar fill model, closes at the last close when the closes arrive', async () => {
    const dir = aTempDir();
    const t0 = Date.UTC(2025, 0, 6, 0, 0);
    const recording = await barsRecordingIn(
      dir,
      [
        [100, 101, 99, 100],
        [100, 102, 99, 101],
        [101, 103, 100, 102],
      ],
      t0,
      BTC,
    );
    const end = t0 + 3 * 60_000;
    const strategy = defineStrategy({
      name: 'bar-buyer',
      params: z.object({}),
      state: () => ({ placed: false }),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx) => {
        if (ctx.state.placed) return undefined;
        ctx.state.placed = true;
        return ctx.order.market({ sym: BTC, side: 'BUY', qty: 1 });
      },
    });
    const result = await runBacktest({
      ...barRunOptions(recording, [anInstrument(BTC)], [{ id: 'b', strategy }]),
      closeAtEnd: true,
      latency: LATENCY,
    });
    const fills = [...result.fills].map(
      (f) => `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()} ${f.timestamp - end}`,
    );
    const last = result.equityCurve.at(-1)?.ts;
    result.dispose?.();
    expect(fills).toEqual(['BUY 1 @ 100 -119980', 'SELL 1 @ 102 20']);
    expect(last).toBe(end + 20);
  });

  it.each([true, false])(
    'charges no loan interest for an hour ending after the last bar (closeAtEnd %s)',
    async (closeAtEnd) => {
      // 61 one-minute bars, the last received at T0 + 61 min: the loan taken on the first bar (its
      // borrow arrives just after T0 + 1 min) ends its first hour just after the last bar.
      const recording = await flatBarsRecordingIn(aTempDir(), 61, T0, ETH);
      const result = await runBacktest({
        ...barRunOptions(recording, [anEthSpot()], [{ id: 's', strategy: borrowerOnFirstBar(false) }]),
        startingCash: D(1000),
        closeAtEnd,
        sim: ETH_LOANS,
      });
      const flows = (result.cashFlows ?? []).map((f) => `${f.kind} ${f.asset} ${f.amount.toFixed()}`);
      const unbilled = (result.meta.warnings ?? []).filter((w) => w.includes('interest'));
      result.dispose?.();
      expect(flows).toEqual(['BORROW ETH 5']);
      expect(unbilled).toHaveLength(1);
    },
  );
});

describe("the bar model's end-of-run close fires no timer after the last event", () => {
  it('charges no interest for an hour ending between the last bar and the closing orders (seed 6)', async () => {
    // Order entry 20 + U[0,30) ms: with seed 6 the loan's hour ends before the closing sell arrives.
    const recording = await flatBarsRecordingIn(aTempDir(), 61, T0, ETH);
    const result = await runBacktest({
      ...barRunOptions(recording, [anEthSpot()], [{ id: 's', strategy: borrowerOnFirstBar(true) }]),
      startingCash: D(1000),
      closeAtEnd: true,
      seed: 6,
      latency: {
        orderEntry: { fixedMs: 20, jitterMs: 30 },
        marketData: { fixedMs: 0, jitterMs: 0 },
        userData: { fixedMs: 5, jitterMs: 0 },
      },
      sim: ETH_LOANS,
    });
    const end = T0 + 61 * 60_000;
    const flows = (result.cashFlows ?? []).map(
      (f) => `${f.kind} ${f.asset} ${f.amount.toFixed()} @${f.ts - end}`,
    );
    const fills = [...result.fills].map((f) => `${f.side} ${f.quantity.toFixed()} @${f.timestamp - end}`);
    result.dispose?.();
    expect(fills).toEqual(['BUY 1 @-3599965', 'SELL 1 @39']);
    expect(flows.filter((f) => f.includes('INTEREST'))).toEqual([]);
  });
});

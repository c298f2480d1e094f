import { join } from 'node:path';
import { z } from 'zod';
import type { RecordedMessage } from '../../backtest/recording/index.ts';
import type { BacktestResult } from '../../backtest/report/index.ts';
import { runBacktest } from '../../backtest/runner/index.ts';
import type { SimVenueOptions } from '../../backtest/sim/index.ts';
import { defineStrategy } from '../../core/kernel/index.ts';
import { D, type InstrumentSpec } from '../../core/model/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import { decodeMarketRecord } from './bar-recordings.ts';
import { anInstrument } from './instrument-builders.ts';
import { writeRecording } from './recording-files.ts';

/** The perpetual of the cash-flow runs. */
export const PERP = 'BINANCE_PERP_TST_USDT';
/** Open time of the first bar: 2025-01-06 00:00 UTC. */
export const PERP_T0 = Date.UTC(2025, 0, 6);
const MINUTE = 60_000;

/**
 * A recorded MARK_PRICE message of {@link PERP}.
 * @param recvTs - receive (and venue) time
 * @param mark - the mark price
 * @param fundingRate - the rate settled at `nextFundingTime`
 * @param nextFundingTime - the next funding time
 * @returns the record
 */
export function markRecord(
  recvTs: number,
  mark: string,
  fundingRate: string,
  nextFundingTime: number,
): RecordedMessage {
  return {
    recvTs,
    source: 'market-data',
    msg: {
      arg: { channel: 'MARK_PRICE', sym: PERP },
      data: { markPrice: mark, ts: recvTs, fundingRate, nextFundingTime },
    },
  };
}

const HOUR = 60 * MINUTE;

/**
 * A closed KLINE of {@link PERP} (1m, or 1h when `hourly`), received when it closes.
 * @param index - bar number from {@link PERP_T0}
 * @param ohlc - open, high, low, close
 * @param hourly - 1h bars instead of 1m
 * @returns the record
 */
export function barRecord(
  index: number,
  [open, high, low, close]: readonly string[],
  hourly = false,
): RecordedMessage {
  const span = hourly ? HOUR : MINUTE;
  const openTime = PERP_T0 + index * span;
  return {
    recvTs: openTime + span,
    source: 'market-data',
    msg: {
      arg: { channel: 'KLINE', sym: PERP, interval: hourly ? '1h' : '1m' },
      data: { openTime, open, high, low, close, volume: '10', closed: true, ts: openTime + span },
    },
  };
}

/**
 * At bar number `bar` (0-based count of onBar calls): a market order of `qty` (negative = sell),
 * or a USDT borrow or repay of an amount.
 */
export interface ScriptedStep {
  readonly bar: number;
  readonly qty?: number;
  readonly borrow?: number;
  readonly repay?: number;
}

const stepSchema = z
  .object({
    bar: z.number(),
    qty: z.number().optional(),
    borrow: z.number().optional(),
    repay: z.number().optional(),
  })
  .strict();

/**
 * A strategy sending the scripted steps of its params (`steps`), bar by bar, on the 1m or 1h bars
 * of {@link PERP}.
 * @param interval - the bars it counts
 * @returns the strategy
 */
export function scriptedSteps(interval: '1m' | '1h') {
  return defineStrategy<{ steps: ScriptedStep[] }, { bars: number }>({
    name: 'scripted-steps',
    params: z.object({ steps: z.array(stepSchema) }).strict(),
    state: () => ({ bars: 0 }),
    onStart: (ctx) => {
      ctx.watchBars(PERP, interval);
    },
    onBar: (ctx) => {
      const bar = ctx.state.bars++;
      return ctx.params.steps
        .filter((step) => step.bar === bar)
        .map((step) =>
          step.borrow !== undefined
            ? ctx.order.borrow({ exchange: 'BINANCE', coin: 'USDT', amount: D(step.borrow) })
            : step.repay !== undefined
              ? ctx.order.repay({ exchange: 'BINANCE', coin: 'USDT', amount: D(step.repay) })
              : ctx.order.market({
                  sym: PERP,
                  side: (step.qty ?? 0) > 0 ? 'BUY' : 'SELL',
                  qty: D(Math.abs(step.qty ?? 0)),
                }),
        );
    },
  });
}

/**
 * The instrument of the cash-flow runs: tick 0.01, lot 1, maker 10 bps, taker 20 bps, leverage 20,
 * liquidation fee 1.25 % (the audit cases' settings).
 * @returns the spec
 */
export function perpInstrument(): InstrumentSpec {
  return anInstrument(PERP, {
    tickSize: D('0.01'),
    lotSize: D('1'),
    minSize: D('1'),
    minNotional: D('0'),
    defaultLeverage: D('20'),
    liquidationFee: D('0.0125'),
    fees: { maker: D('0.001'), taker: D('0.002'), markup: D('0'), fixedPerFill: D('0') },
  });
}

/** What a cash-flow run replays and does. */
export interface PerpRun {
  readonly records: readonly RecordedMessage[];
  readonly steps: readonly ScriptedStep[];
  readonly startingCash: string;
  /** 1h bars instead of 1m. */
  readonly hourly?: boolean;
  /** The simulated venue's loan terms. */
  readonly loans?: SimVenueOptions['loans'];
  /** The simulated venue's leverage and maintenance margin rate, when not its defaults. */
  readonly margin?: Pick<SimVenueOptions, 'leverage' | 'maintenanceMarginRate'>;
}

/**
 * Backtests scripted market orders on a perpetual over the records given, on bars, without
 * latency, closing what is open at the end.
 * @param dir - a temporary folder for the recording
 * @param run - records, orders, cash and sim options (loans, leverage, maintenance margin rate)
 * @returns the result (dispose it)
 */
export async function runPerp(dir: string, run: PerpRun): Promise<BacktestResult> {
  const path = join(dir, `perp-${Math.abs(hashOf(JSON.stringify(run)))}.jsonl`);
  await writeRecording(
    path,
    [...run.records].sort((a, b) => a.recvTs - b.recvTs),
  );
  return runBacktest({
    recordings: [path],
    decode: decodeMarketRecord,
    instruments: [perpInstrument()],
    strategies: [
      { id: 's', strategy: scriptedSteps(run.hourly === true ? '1h' : '1m'), params: { steps: run.steps } },
    ],
    gate: new RiskGate(),
    startingCash: D(run.startingCash),
    fillModel: 'bar',
    latency: { orderEntry: { fixedMs: 0, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    sim: { ...(run.loans === undefined ? {} : { loans: run.loans }), ...run.margin },
  });
}

function hashOf(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return h;
}

/**
 * The audit's funding case (c7): long 10 at 100 from bar 0, funding at 00:05 on mark 102 at
 * +0.1 % (the long pays 1.02), reversed to short 10 at bar 6, funding at 00:10 on mark 104 at
 * -0.2 % (the short pays 2.08), closed at the end at 100. Taker fee 20 bps: 2 + 4 + 2 = 8.
 * @returns records and orders
 */
export function fundingCase(): Pick<PerpRun, 'records' | 'steps'> {
  const flat = ['100', '101', '99', '100'];
  const next1 = PERP_T0 + 5 * MINUTE;
  const next2 = PERP_T0 + 10 * MINUTE;
  return {
    records: [
      markRecord(PERP_T0 + 30_000, '100', '0.001', next1),
      markRecord(next1 - 30_000, '102', '0.001', next1),
      markRecord(next1 + 30_000, '110', '0.0005', next2),
      markRecord(next2 - 30_000, '104', '-0.002', next2),
      markRecord(next2 + 30_000, '100', '0.0001', PERP_T0 + 15 * MINUTE),
      ...Array.from({ length: 12 }, (_, i) => barRecord(i, flat)),
    ],
    steps: [
      { bar: 0, qty: 10 },
      { bar: 6, qty: -20 },
    ],
  };
}

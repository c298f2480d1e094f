import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import type { BacktestResult } from '../../../backtest/report/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { ASSUMED_FUNDING_INTERVAL_MS } from '../../../backtest/sim/index.ts';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { barRecord, PERP, PERP_T0, runPerp, type ScriptedStep } from '../../kit/perp-cash-flow-runs.ts';
import { TEST_HEADER, writeRecording } from '../../kit/recording-files.ts';
import { scripted } from '../../kit/scripted-backtests.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-unfunded-match-');
const HOUR = 3_600_000;
const I = ASSUMED_FUNDING_INTERVAL_MS;

/** A MARK_PRICE record of `sym` at `recvTs` giving 0.1 % funding at the next 8-hour time after it. */
function fundingMark(sym: string, recvTs: number, mark: string): RecordedMessage {
  return {
    recvTs,
    source: 'market-data',
    msg: {
      arg: { channel: 'MARK_PRICE', sym },
      data: {
        markPrice: mark,
        ts: recvTs,
        fundingRate: '0.001',
        nextFundingTime: (Math.floor(recvTs / I) + 1) * I,
      },
    },
  };
}

/** The funding times a funded run paid on, and the unfunded-hold warnings of the same run without funding data. */
async function compare(
  run: (records: readonly RecordedMessage[]) => Promise<BacktestResult>,
  market: readonly RecordedMessage[],
  marks: readonly RecordedMessage[],
) {
  const funded = await run([...market, ...marks].sort((a, b) => a.recvTs - b.recvTs));
  const unfunded = await run(market);
  try {
    const paid = [
      ...new Set((funded.cashFlows ?? []).filter((c) => c.kind === 'FUNDING_FEE').map((c) => c.ts)),
    ];
    const warned = (unfunded.meta.warnings ?? []).filter((w) => w.includes('funding schedule'));
    const fills = (r: BacktestResult) =>
      [...r.fills].map((f) => `${f.timestamp} ${f.side} ${f.quantity.toFixed()}`);
    const atFundingTime = [...funded.fills].some((f) => f.timestamp % I === 0);
    return {
      paid: paid.sort((a, b) => a - b),
      warned,
      sameFills: fills(funded).join() === fills(unfunded).join(),
      atFundingTime,
    };
  } finally {
    funded.dispose?.();
    unfunded.dispose?.();
  }
}

/** The warning's funding-time clause for the times a funded run paid on. */
function clauseOf(times: readonly number[]): string {
  const first = new Date(times[0] as number).toISOString();
  return times.length === 1
    ? `1 funding time (${first})`
    : `${times.length} funding times (the first ${first}, the last ${new Date(times[times.length - 1] as number).toISOString()})`;
}

/** How many cases paid funding, and how many of those had a fill stamped at a funding time. */
const seen = { paid: 0, fillAtFundingTime: 0 };

function expectSameTimes(outcome: Awaited<ReturnType<typeof compare>>): void {
  expect(outcome.sameFills).toBe(true);
  if (outcome.paid.length > 0) seen.paid++;
  if (outcome.paid.length > 0 && outcome.atFundingTime) seen.fillAtFundingTime++;
  if (outcome.paid.length === 0) expect(outcome.warned).toEqual([]);
  else {
    expect(outcome.warned).toHaveLength(1);
    expect(outcome.warned[0]).toContain(`held across ${clauseOf(outcome.paid)} of`);
  }
}

/** Market orders at distinct bar numbers, each of ±1 or ±2 contracts. */
const barSteps = fc
  .uniqueArray(fc.record({ bar: fc.integer({ min: 0, max: 38 }), qty: fc.constantFrom(-2, -1, 1, 2) }), {
    selector: (s) => s.bar,
    maxLength: 8,
  })
  .map((steps) => [...steps].sort((a, b) => a.bar - b.bar) as ScriptedStep[]);

describe('the unfunded-hold warning counts the funding times a run with funding data pays on', () => {
  it('on hourly bars (opens at 00:00, 08:00, 16:00), with a mark inside every bar', async () => {
    Object.assign(seen, { paid: 0, fillAtFundingTime: 0 });
    const bars = Array.from({ length: 40 }, (_, i) => barRecord(i, ['100', '101', '99', '100'], true));
    await fc.assert(
      fc.asyncProperty(barSteps, fc.integer({ min: 1, max: HOUR - 1 }), async (steps, offset) => {
        const marks = Array.from({ length: 40 }, (_, i) =>
          fundingMark(PERP, PERP_T0 + i * HOUR + offset, '100'),
        );
        const outcome = await compare(
          (records) => runPerp(aTempDir(), { records, steps, startingCash: '10000', hourly: true }),
          bars,
          marks,
        );
        expectSameTimes(outcome);
      }),
      { numRuns: 12 },
    );
    // Not vacuous: holds paid funding, some of them filled at a funding time (a bar's open).
    expect(seen.fillAtFundingTime).toBeGreaterThan(0);
  }, 120_000);

  it('on quotes, with orders sent around the funding times and the default latency', async () => {
    Object.assign(seen, { paid: 0, fillAtFundingTime: 0 });
    const start = TEST_HEADER.startTime;
    const firstFunding = Math.ceil(start / I) * I;
    // Quotes every 2 hours over 2 days, and a few near each funding time (the default latency puts
    // an order sent there a few ms later, on either side of it).
    const near = fc.uniqueArray(fc.integer({ min: -40, max: 40 }), { minLength: 1, maxLength: 4 });
    const quoteTimes = fc.tuple(near, near, near, near, near).map((perTime) => {
      const times = new Set<number>(Array.from({ length: 25 }, (_, i) => start + i * 2 * HOUR));
      perTime.forEach((offsets, k) => {
        for (const d of offsets) times.add(firstFunding + k * I + d);
      });
      return [...times].sort((a, b) => a - b);
    });
    const sends = fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 10 });
    await fc.assert(
      fc.asyncProperty(
        quoteTimes,
        sends,
        fc.integer({ min: 1, max: 4 * HOUR }),
        async (times, on, markLag) => {
          const quotes = times.map((ts) => ({
            recvTs: ts,
            source: 'market-data' as const,
            msg: {
              arg: { channel: 'BBO', sym: SYNTHETIC_BTC_PERP.sym },
              data: { bid: '95000.1', bidqty: '5', ask: '95000.3', askqty: '5', ts },
            },
          }));
          const last = times[times.length - 1] as number;
          const marks = Array.from({ length: 7 }, (_, k) => firstFunding - I + k * I + markLag)
            .filter((ts) => ts < last)
            .map((ts) => fundingMark(SYNTHETIC_BTC_PERP.sym, ts, '95000.2'));
          const sendOn = new Set(on);
          let side: 'BUY' | 'SELL' = 'BUY';
          const steps = times.map((_, i) => {
            if (!sendOn.has(i)) return () => undefined;
            const s = side;
            side = side === 'BUY' ? 'SELL' : 'BUY';
            return (ctx: Parameters<Parameters<typeof scripted>[0][number]>[0]) =>
              ctx.order.market({ sym: SYNTHETIC_BTC_PERP.sym, side: s, qty: D('0.01') });
          });
          const outcome = await compare(
            async (records) => {
              const path = join(aTempDir(), 'quotes.jsonl');
              await writeRecording(path, records);
              return runBacktest({
                recordings: [path],
                decode: decodeMarketRecord,
                instruments: [SYNTHETIC_BTC_PERP],
                strategies: [{ id: 's', strategy: scripted(steps), params: {} }],
                gate: new RiskGate(),
                startingCash: D(10_000_000),
                fillModel: 'touch',
                seed: 1,
              });
            },
            quotes,
            marks,
          );
          expectSameTimes(outcome);
        },
      ),
      { numRuns: 12 },
    );
    expect(seen.paid).toBeGreaterThan(0);
  }, 120_000);
});

import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDir, writeRecording } from '../../kit/recording-files.ts';

// The look-ahead reviewer's run (session 23): hourly klines with a MARK_PRICE channel, funding due
// at 07:30 inside the bar [07:00, 08:00) whose open fills the strategy's buy. The mark stamped
// 07:45 reaches the venue before that bar, and the funding is settled on the flat account.
const SYM = 'BINANCE_PERP_BTC_USDT';
const H = 3_600_000;
/** 2025-01-06 00:00 UTC. */
const D0 = 1_736_121_600_000;
const FUNDING = D0 + 7.5 * H;

function kline(openTime: number, price: number): RecordedMessage {
  const ts = openTime + H;
  const p = `${price}`;
  return {
    recvTs: ts,
    source: 'market-data',
    msg: {
      arg: { channel: 'KLINE', sym: SYM, interval: '1h' },
      data: { openTime, open: p, high: p, low: p, close: p, volume: '10', closed: true, ts },
    },
  };
}

function mark(ts: number, price: number, next: number): RecordedMessage {
  return {
    recvTs: ts,
    source: 'market-data',
    msg: {
      arg: { channel: 'MARK_PRICE', sym: SYM },
      data: { markPrice: `${price}`, fundingRate: '0.01', nextFundingTime: next, ts },
    },
  };
}

/** Buys 1 at market on the first hourly bar it sees (the 06:00 bar, closing at 07:00). */
const buyer = defineStrategy<Record<string, never>, { done: boolean }>({
  name: 'buyer',
  params: z.object({}).strict(),
  state: () => ({ done: false }),
  onStart: (ctx) => ctx.watchBars(SYM, '1h'),
  onBar: (ctx) => {
    if (ctx.state.done) return undefined;
    ctx.state.done = true;
    return ctx.order.market({ sym: SYM, side: 'BUY', qty: D('1') });
  },
});

async function warningsOf(path: string, records: RecordedMessage[]): Promise<string[]> {
  await writeRecording(path, records);
  const result = await runBacktest({
    ...barRunOptions(path, [anInstrument(SYM)], [{ id: 'b', strategy: buyer, params: {} }]),
    decode: decodeMarketRecord,
  });
  result.dispose?.();
  expect(result.fills).toHaveLength(1);
  return [...(result.meta.warnings ?? [])];
}

describe('runBacktest: work the venue ran inside a bar span before the bar was matched', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it('warns when funding inside the bar was settled before the bar open filled the buy', async () => {
    const warnings = await warningsOf(join(temp.dir, 'bars-marks.jsonl'), [
      mark(D0 + 6.5 * H, 100, FUNDING),
      kline(D0 + 6 * H, 100),
      mark(D0 + 7.75 * H, 100, FUNDING + 8 * H),
      kline(D0 + 7 * H, 100),
      kline(D0 + 8 * H, 100),
    ]);
    expect(warnings.filter((w) => w.includes("inside the bar's span"))).toEqual([
      `1 bar was matched after the venue had already run work of its own inside the bar's span (an event stamped inside it, a mark or another sym's bar, arrived first): the first, the ${SYM} bar opening 2025-01-06T07:00:00.000Z, where the funding of ${SYM} at 2025-01-06T07:30:00.000Z met the positions and orders of before the bar's open fills`,
    ]);
  });

  it('does not warn on the same klines without marks', async () => {
    const warnings = await warningsOf(join(temp.dir, 'bars.jsonl'), [
      kline(D0 + 6 * H, 100),
      kline(D0 + 7 * H, 100),
      kline(D0 + 8 * H, 100),
    ]);
    expect(warnings.filter((w) => w.includes("inside the bar's span"))).toEqual([]);
  });

  it('does not warn when the marks inside the bar settle no funding', async () => {
    const warnings = await warningsOf(join(temp.dir, 'bars-late-funding.jsonl'), [
      mark(D0 + 6.5 * H, 100, D0 + 9 * H),
      kline(D0 + 6 * H, 100),
      mark(D0 + 7.75 * H, 100, D0 + 9 * H),
      kline(D0 + 7 * H, 100),
      kline(D0 + 8 * H, 100),
    ]);
    expect(warnings.filter((w) => w.includes("inside the bar's span"))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const tempDir = tempDirsRemovedAfterEach('keel-paper-algo-exits-');

/** 1m bars rising 0.5 % a bar, each reaching 1.5 % over its open: a 1 % take-profit fires on the bar after an entry. */
const RISING = Array.from({ length: 30 }, (_, i) => {
  const open = 100 * 1.005 ** i;
  return [open, open * 1.015, open * 0.999, open * 1.005].map((p) => Number(p.toFixed(1)));
});

type Result = { fills: { side: string; price: string; timestamp: number }[] };

const lines = (r: Result) => r.fills.map((f) => `${f.side} @ ${f.price} t=${f.timestamp}`);

describe('a lockstep paper run on bars, with no latency, of a bracket placing its exits as algo orders', () => {
  // Algo orders and their cancels go over REST, the lockstep ack over the private socket: the
  // ack counts the REST commands sent before it and the venue waits for them (REST_SEQ_HEADER),
  // else it released the next bar before the exits (or the cancel-all, a GET then a DELETE)
  // reached it: the exits were placed a bar late, and a late cancel-all ended the next entry's
  // exits (3 fills against 28).
  it('fills the entries and their take-profits at the bars and prices the backtest does', async () => {
    const dir = tempDir();
    const recording = await barsRecordingIn(dir, RISING, T0, BTC);
    const { paper, backtest } = await paperAndBacktestResults<Result>(
      dir,
      `instruments: [${BTC}]\nstrategies:\n  - id: br\n    use: bracket\n    params: { sym: ${BTC}, qty: 1, trendBars: 2, takeProfit: 0.01, stopLoss: 0.02, exits: algo }\n`,
      recording,
    );
    expect(backtest.fills.filter((f) => f.side === 'SELL').length).toBeGreaterThan(1);
    expect(lines(paper)).toEqual(lines(backtest));
  }, 120_000);
});

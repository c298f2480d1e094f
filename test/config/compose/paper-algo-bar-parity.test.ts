import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ChildRun,
  fillLines,
  lockstepPaperRun,
  parityResultOf,
  replayOfPaper,
} from '../../kit/paper-replay-parity.ts';

// A lockstep paper session of `bracket` with `exits: algo` (REST algo orders) against the
// backtest of the session's OWN recording (the parity config/examples/replay-paper-session.yaml
// promises). The algo orders' User Data events were stamped with the REST Date-header clock (the
// machine's, 2026, in lockstep) instead of the session's replay clock (2025): the kernel's bar
// aggregator (closeDueAt) took that stamp as "the period is over" and delivered the forming 1m bar
// ~60 s early, so the strategy entered inside a bar in paper and on the bar's close in the backtest.
const RECORDING = resolve('backtest/sessions/example-synthetic.jsonl.gz');
const STRATEGIES = `instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: br_btc
    use: bracket
    params: { sym: BINANCE_PERP_BTC_USDT, interval: 1m, qty: 0.05, trendBars: 2, takeProfit: 0.0008, stopLoss: 0.0008, exits: algo }
`;
describe('paper (lockstep) vs backtest of its recording, bracket with algo exits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parity29-'));
  let paperRun: ChildRun;
  beforeAll(() => {
    paperRun = lockstepPaperRun(dir, STRATEGIES, RECORDING, 100_000);
  }, 240_000);

  it('gives the same fills and no late-trade warning of its own', () => {
    expect(paperRun.code, paperRun.stderr).toBe(0);
    const replay = replayOfPaper(dir);
    expect(replay.code, replay.stderr).toBe(0);
    expect(fillLines(parityResultOf(dir, 'paper'))).toEqual(fillLines(parityResultOf(dir, 'replay')));
    expect(
      (parityResultOf(dir, 'paper').meta.warnings ?? []).filter((w) =>
        w.includes('arrived after the 1m bar'),
      ),
    ).toEqual([]);
  }, 240_000);
});

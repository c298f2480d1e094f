import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ChildRun,
  fillLines,
  lockstepPaperRun,
  parityResultOf,
  replayOfPaper,
} from '../../kit/paper-replay-parity.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const NOW_PROBE = resolve('test/config/fixtures/now-probe-plugin.ts');

/** The built-in twap with the params of config/examples/twap-backtest.yaml (2 BTC, 20 slices, 20 min), and the now() probe. */
const STRATEGIES = `instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: twap_btc
    use: twap
    params: { sym: BINANCE_PERP_BTC_USDT, side: BUY, totalQty: 2, durationMs: 1200000, slices: 20, aggressionTicks: 1 }
  - id: probe
    use: ${NOW_PROBE}
    params: { sym: BINANCE_PERP_BTC_USDT, every: 400 }
`;

describe('a lockstep paper session of a timer strategy, then a backtest of its recording', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 22, file: 'session.jsonl.gz' });
  let paperRun: ChildRun;
  beforeAll(() => {
    paperRun = lockstepPaperRun(session.dir, STRATEGIES, session.path, 500_000);
  }, 120_000);

  it('runs the twap on the replayed time: its 20 slices fill as in the backtest of the recording, at the same times and prices', () => {
    expect(paperRun.code, paperRun.stderr).toBe(0);
    const replay = replayOfPaper(session.dir);
    expect(replay.code, replay.stderr).toBe(0);
    const paper = fillLines(parityResultOf(session.dir, 'paper'));
    const backtest = fillLines(parityResultOf(session.dir, 'replay'));
    expect(paper.filter((line) => line.startsWith('twap_btc-'))).toHaveLength(20);
    expect(paper).toEqual(backtest);
  }, 120_000);

  it('gives ctx.now() the time the events carry, not the wall clock', () => {
    expect(paperRun.code, paperRun.stderr).toBe(0);
    const probes = parityResultOf(session.dir, 'paper')
      .orders.map((o) => /^q(\d+)t(\d+)$/.exec(o.clientOrderId))
      .filter((m) => m !== null)
      .map((m) => ({ now: Number(m[1]), quoteTs: Number(m[2]) }));
    expect(probes.length).toBeGreaterThan(3);
    for (const { now, quoteTs } of probes) {
      expect(now).toBeGreaterThanOrEqual(quoteTs);
      expect(now - quoteTs).toBeLessThan(1000);
    }
  });
});

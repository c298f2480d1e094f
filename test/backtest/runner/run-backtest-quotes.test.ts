import { describe, expect, it } from 'vitest';
import { resultToJson } from '../../../backtest/report/index.ts';
import {
  type BacktestRunOptions,
  createProgressReporter,
  runBacktest,
} from '../../../backtest/runner/index.ts';
import { D, ZERO } from '../../../core/model/index.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { quotingBacktestOptions } from '../../kit/quoting-backtest-options.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

describe('backtest runner on a quote session', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 8, file: 'session.jsonl.gz' });

  const options = (overrides: Partial<BacktestRunOptions> = {}): BacktestRunOptions =>
    quotingBacktestOptions(session.path, decodeQuotesAndTrades, { batchSize: 1000, ...overrides });

  it('quotes through the queue fill model, labels the data synthetic and closes everything at the end', async () => {
    const result = await runBacktest(options());
    expect(result.meta.fillModel.name).toBe('queue');
    expect(result.meta.synthetic).toBe(true);
    expect(result.meta.recordings[0]!.synthetic).toBe(true);
    expect(result.fills.length).toBeGreaterThan(0);
    expect([...result.fills].some((f) => f.execType === 'MAKER')).toBe(true);
    expect(result.openTrades).toEqual([]);
    // Flat at the end: equity is the starting cash plus the trades' net PnL (fees, rebates included).
    const net = [...result.trades].reduce((sum, t) => sum.plus(t.pnl), ZERO);
    expect(result.metrics.equityFinal.minus(D(10_000).plus(net)).abs().lt('1e-18')).toBe(true);
  });

  it('is deterministic for a seed, and reports progress while it runs', async () => {
    const lines: string[] = [];
    let wall = 0;
    const progress = createProgressReporter({
      stream: { write: (s: string) => lines.push(s) > 0 } as unknown as NodeJS.WritableStream,
      clock: { now: () => (wall += 100) },
      lineEveryMs: 0,
    });
    const a = await runBacktest(options({ progress }));
    const b = await runBacktest(options());
    expect(resultToJson(a)).toBe(resultToJson(b));
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.at(-1)).toMatch(/^backtest: \d+ events, \d+\.\d % of event time, \d+ ev\/s/);
  });
});

describe('backtest runner on a one-minute session (the length of a short paper session)', () => {
  const session = syntheticSessionFile({ seed: 5, minutes: 1, file: 'short.jsonl.gz' });

  it('samples equity every second by default, so the report gets a curve, and says so', async () => {
    const result = await runBacktest(quotingBacktestOptions(session.path, decodeQuotesAndTrades));
    // 60 s of events / 10 000 samples = 6 ms wanted: the finest default step, 1 s.
    expect(result.meta.runConfig.equitySampleMs).toBe(1_000);
    expect(result.meta.assumptions.join('\n')).toContain(
      'Equity is sampled at most every 1 s of event time (the default step',
    );
    // At most one sample a second, and the start and end: far more than a minute step's 2 or 3 points.
    expect(result.equityCurve.length).toBeGreaterThan(30);
    expect(result.prices[0]?.points.length).toBeGreaterThan(30);
  });

  it('keeps an explicit step', async () => {
    const result = await runBacktest(
      quotingBacktestOptions(session.path, decodeQuotesAndTrades, { equitySampleMs: 60_000 }),
    );
    expect(result.meta.runConfig.equitySampleMs).toBe(60_000);
    expect(result.equityCurve.length).toBeLessThan(10);
  });
});

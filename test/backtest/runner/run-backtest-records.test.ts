import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import {
  type BacktestResult,
  computeMetrics,
  resultToJson,
  stableJson,
  writeResultFiles,
} from '../../../backtest/report/index.ts';
import { type BacktestRunOptions, eventCachePaths, runBacktest } from '../../../backtest/runner/index.ts';
import { SYNTHETIC_INSTRUMENTS } from '../../../backtest/synthetic/index.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { quotingBacktestOptions } from '../../kit/quoting-backtest-options.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);

/** Runs with os.tmpdir() pointing at a fresh directory, so the run's spill directory can be seen. */
async function withOwnTmp<T>(run: (tmp: string) => Promise<T>): Promise<T> {
  const saved = process.env.TMPDIR;
  const tmp = anOwnTmp();
  process.env.TMPDIR = tmp;
  try {
    return await run(tmp);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

const anOwnTmp = tempDirsRemovedAfterAll('keel-own-tmp-');
const aResultDir = tempDirsRemovedAfterAll('keel-records-');
const results: BacktestResult[] = [];
afterEach(() => {
  for (const r of results.splice(0)) r.dispose?.();
});

describe('backtest records kept out of memory', () => {
  const session = syntheticSessionFile({ seed: 5, minutes: 6 });

  const options = (overrides: Partial<BacktestRunOptions> = {}): BacktestRunOptions =>
    quotingBacktestOptions(session.path, decodeQuotesAndTrades, { batchSize: 500, ...overrides });
  const run = async (overrides: Partial<BacktestRunOptions> = {}): Promise<BacktestResult> => {
    const result = await runBacktest(options(overrides));
    results.push(result);
    return result;
  };

  it('keeps orders, fills and trades in a temporary directory of its own, removed by dispose', async () => {
    await withOwnTmp(async (tmp) => {
      const result = await runBacktest(options());
      const spill = readdirSync(tmp).filter((name) => name.startsWith('keel-backtest-'));
      expect(spill).toHaveLength(1);
      const files = readdirSync(join(tmp, spill[0]!));
      expect(files).toEqual(expect.arrayContaining(['fills.jsonl', 'orders-main.jsonl', 'trades.jsonl']));
      expect(
        files.every((f) =>
          /^((fills|trades|trade-pnls|orders-main|orders-late-\d+|algo-orders-main|algo-orders-late-\d+|denials)\.jsonl|\.keel-owner\.json)$/.test(
            f,
          ),
        ),
      ).toBe(true);
      expect(result.fills.length).toBeGreaterThan(20);
      expect([...result.fills]).toHaveLength(result.fills.length);
      expect([...result.orders]).toHaveLength(result.orders.length);
      expect([...result.trades]).toHaveLength(result.trades.length);
      result.dispose?.();
      expect(readdirSync(tmp)).toEqual([]);
      expect(() => [...result.fills]).toThrow(/disposed/);
    });
  });

  it('removes its directory when the run fails', async () => {
    await withOwnTmp(async (tmp) => {
      await expect(runBacktest(options({ recordings: [join(tmp, 'missing.jsonl')] }))).rejects.toThrow();
      expect(readdirSync(tmp)).toEqual([]);
    });
  });

  it('writes byte-identical result files when run twice', async () => {
    const write = async (name: string): Promise<string[]> => {
      const paths = await writeResultFiles(await run(), join(aResultDir(), name));
      return Promise.all(Object.values(paths).map((p) => readFile(p, 'utf8')));
    };
    const [a, b] = [await write('a'), await write('b')];
    expect(a[0]!.length).toBeGreaterThan(10_000);
    expect(b).toEqual(a);
  });

  it('lists orders in creation order, each in its final state', async () => {
    const result = await run();
    const ids = [...result.orders].map((o) => Number(o.orderId.replace(/\D+/g, '')));
    expect(ids.length).toBeGreaterThan(10);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
    const states = new Set([...result.orders].map((o) => o.orderState));
    expect([...states].every((s) => ['FILLED', 'CANCELLED', 'REJECTED', 'FAIL'].includes(s))).toBe(true);
  });

  it('computes the same metrics while running as from the whole lists of trades and fills afterwards', async () => {
    const result = await run();
    const contractSizeOf = () => SYNTHETIC_INSTRUMENTS[BTC]!.contractSize;
    const again = computeMetrics({
      equityCurve: result.equityCurve,
      trades: [...result.trades],
      openTrades: result.openTrades,
      fills: [...result.fills],
      buyAndHold: { prices: result.prices },
      contractSizeOf,
      cashFlows: result.cashFlows ?? [],
      liquidations: result.liquidations ?? [],
      accountCurrency: 'USDT',
    });
    const { maxDrawdown, avgDrawdown, maxDrawdownDurationMs, avgDrawdownDurationMs, turnoverRatio, ...rest } =
      result.metrics;
    const {
      maxDrawdown: _a,
      avgDrawdown: _b,
      maxDrawdownDurationMs: _c,
      avgDrawdownDurationMs: _d,
      turnoverRatio: _e,
      ...restAgain
    } = again;
    // Drawdowns and the turnover ratio are measured on every sample while running, so only they differ.
    expect(stableJson(rest)).toBe(stableJson(restAgain));
    expect(result.metrics.tradeCount).toBeGreaterThan(5);
  });

  it('replays a window the same from the event cache as from a decoder skipping the records outside it', async () => {
    const from = T0 + 60_000;
    const to = T0 + 4 * 60_000;
    const windowed = (record: RecordedMessage) =>
      record.recvTs < from || record.recvTs >= to ? null : decodeQuotesAndTrades(record);
    const plain = await run({ decode: windowed });
    const cached = await run({ eventCache: { decoderId: 'records-test-v1' }, window: { from, to } });
    expect(existsSync(eventCachePaths(session.path).data)).toBe(true);
    const fromCache = await run({ eventCache: { decoderId: 'records-test-v1' }, window: { from, to } });
    const unwindowed = await run();
    expect(resultToJson(cached)).toBe(resultToJson(plain));
    expect(resultToJson(fromCache)).toBe(resultToJson(plain));
    expect(resultToJson(unwindowed)).not.toBe(resultToJson(plain));
    expect(plain.metrics.start).toBeGreaterThanOrEqual(from);
  });
});

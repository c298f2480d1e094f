import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordedMessage, readSessionHeader } from '../../../backtest/recording/index.ts';
import {
  EXAMPLE_SESSION_OPTIONS,
  SYNTHETIC_INSTRUMENTS,
  SYNTHETIC_MARKETS,
  type SyntheticMarketParams,
  writeSyntheticSession,
} from '../../../backtest/synthetic/index.ts';
import { D, type Dec, parseDecimal } from '../../../core/model/index.ts';
import { readAll, tempDir } from '../../kit/recording-files.ts';

const OPTIONS = { seed: 11, startTime: EXAMPLE_SESSION_OPTIONS.startTime, durationMs: 4 * 60_000 };

interface Push {
  readonly arg: { readonly channel: string; readonly sym: string };
  readonly data: Record<string, string | number | boolean>;
}

let dir: { dir: string; remove: () => void };
let records: RecordedMessage[];
beforeAll(async () => {
  dir = tempDir();
  await writeSyntheticSession(join(dir.dir, 'a.jsonl'), OPTIONS);
  records = (await readAll(join(dir.dir, 'a.jsonl'))).records;
});
afterAll(() => dir.remove());

const pushes = (): Push[] => records.map((r) => r.msg as Push);
const onGrid = (text: string | number | boolean, step: Dec): boolean =>
  parseDecimal(String(text)).mod(step).isZero();

describe('synthetic session generator', () => {
  it('writes byte-identical files for the same seed, and different ones for another seed', async () => {
    const again = join(dir.dir, 'b.jsonl.gz');
    const once = join(dir.dir, 'c.jsonl.gz');
    const other = join(dir.dir, 'd.jsonl.gz');
    await writeSyntheticSession(once, OPTIONS);
    await writeSyntheticSession(again, OPTIONS);
    await writeSyntheticSession(other, { ...OPTIONS, seed: 12 });
    expect(readFileSync(again).equals(readFileSync(once))).toBe(true);
    expect(readFileSync(other).equals(readFileSync(once))).toBe(false);
  });

  it('marks the session synthetic in its header', async () => {
    const header = await readSessionHeader(join(dir.dir, 'a.jsonl'));
    expect(header.synthetic).toBe(true);
    expect(header.description).toMatch(/SYNTHETIC/);
    expect(header.symbols).toEqual(['BINANCE_PERP_BTC_USDT', 'OKX_SPOT_ETH_USDT', 'US_EQUITY_AAPL']);
  });

  it('puts every price on the tick grid and every size on the lot grid', () => {
    for (const { arg, data } of pushes()) {
      const spec = SYNTHETIC_INSTRUMENTS[arg.sym]!;
      const prices =
        arg.channel === 'BBO'
          ? [data.bid, data.ask]
          : arg.channel === 'TRADE'
            ? [data.price]
            : [data.open, data.high, data.low, data.close];
      const sizes =
        arg.channel === 'BBO'
          ? [data.bidqty, data.askqty]
          : arg.channel === 'TRADE'
            ? [data.qty]
            : [data.volume];
      for (const p of prices) expect(onGrid(p!, spec.tickSize), `${arg.sym} price ${p}`).toBe(true);
      for (const q of sizes) expect(onGrid(q!, spec.lotSize), `${arg.sym} size ${q}`).toBe(true);
    }
  });

  it('quotes positive spreads of one to four ticks with positive sizes', () => {
    for (const { arg, data } of pushes().filter((p) => p.arg.channel === 'BBO')) {
      const ticks = parseDecimal(String(data.ask))
        .minus(parseDecimal(String(data.bid)))
        .div(SYNTHETIC_INSTRUMENTS[arg.sym]!.tickSize);
      expect(ticks.gte(1) && ticks.lte(4), `${arg.sym} spread ${ticks}`).toBe(true);
      expect(Number(data.bidqty) > 0 && Number(data.askqty) > 0).toBe(true);
    }
  });

  it('prints trades at or inside the quote in force, and never more than the touch size at the touch', () => {
    const quotes = new Map<string, Push['data']>();
    let inside = 0;
    for (const { arg, data } of pushes()) {
      if (arg.channel === 'BBO') quotes.set(arg.sym, data);
      if (arg.channel !== 'TRADE') continue;
      const q = quotes.get(arg.sym);
      expect(q, `a quote precedes the first ${arg.sym} trade`).toBeDefined();
      const price = parseDecimal(String(data.price));
      expect(price.gte(String(q!.bid)) && price.lte(String(q!.ask))).toBe(true);
      if (price.eq(String(q!.ask)) && data.side === 'BUY')
        expect(D(String(data.qty)).lte(String(q!.askqty))).toBe(true);
      if (price.gt(String(q!.bid)) && price.lt(String(q!.ask))) inside++;
    }
    expect(inside).toBeGreaterThan(0);
  });

  it('builds each 1-minute kline from exactly the trades of its minute', () => {
    const trades = pushes().filter((p) => p.arg.channel === 'TRADE');
    const klines = pushes().filter((p) => p.arg.channel === 'KLINE');
    expect(klines).toHaveLength(3 * 4);
    for (const { arg, data } of klines) {
      const open = Number(data.openTime);
      const inBar = trades.filter(
        (t) => t.arg.sym === arg.sym && Number(t.data.ts) >= open && Number(t.data.ts) < open + 60_000,
      );
      expect(inBar.length).toBeGreaterThan(0);
      const prices = inBar.map((t) => parseDecimal(String(t.data.price)));
      expect(parseDecimal(String(data.open)).eq(prices[0]!)).toBe(true);
      expect(parseDecimal(String(data.close)).eq(prices.at(-1)!)).toBe(true);
      expect(parseDecimal(String(data.high)).eq(D.max(...prices))).toBe(true);
      expect(parseDecimal(String(data.low)).eq(D.min(...prices))).toBe(true);
      const volume = inBar.reduce((sum, t) => sum.plus(String(t.data.qty)), D(0));
      expect(parseDecimal(String(data.volume)).eq(volume)).toBe(true);
      expect(data.ts).toBe(open + 60_000);
    }
  });

  it('clusters volatility: large 1-second moves follow large ones, unlike a constant-volatility walk', async () => {
    // Mean autocorrelation of |1 s mid returns| at lags 1-10: about 0 (within 0.015 over seeds
    // 1, 2, 3, 11, 99) for a constant-volatility walk, 0.04-0.14 with the GARCH of SYNTHETIC_MARKETS.
    const clustering = async (garch: SyntheticMarketParams['garch']): Promise<number> => {
      const path = join(dir.dir, `garch-${garch.alpha}.jsonl`);
      const btc = { ...SYNTHETIC_MARKETS[0]!, garch };
      await writeSyntheticSession(path, {
        seed: 1,
        startTime: OPTIONS.startTime,
        durationMs: 20 * 60_000,
        markets: [btc],
      });
      const mids: number[] = [];
      let lastSecond = -1;
      for (const r of (await readAll(path)).records) {
        const { arg, data } = r.msg as Push;
        const second = Math.floor(Number(data.ts) / 1000);
        if (arg.channel !== 'BBO' || second === lastSecond) continue;
        mids.push((Number(data.bid) + Number(data.ask)) / 2);
        lastSecond = second;
      }
      const moves = mids.slice(1).map((m, i) => Math.abs(Math.log(m / mids[i]!)));
      const mean = moves.reduce((a, b) => a + b, 0) / moves.length;
      const variance = moves.reduce((a, m) => a + (m - mean) ** 2, 0);
      let sum = 0;
      for (let lag = 1; lag <= 10; lag++) {
        let cov = 0;
        for (let i = lag; i < moves.length; i++) cov += (moves[i]! - mean) * (moves[i - lag]! - mean);
        sum += cov / variance;
      }
      return sum / 10;
    };
    expect(await clustering(SYNTHETIC_MARKETS[0]!.garch)).toBeGreaterThan(0.08);
    expect(Math.abs(await clustering({ annualVol: 0.55, alpha: 0, beta: 0 }))).toBeLessThan(0.03);
  });

  it('receives messages in order, a few milliseconds after their venue time', () => {
    let last = 0;
    for (const r of records) {
      const ts = Number((r.msg as Push).data.ts);
      expect(r.recvTs).toBeGreaterThanOrEqual(last);
      expect(r.recvTs).toBeGreaterThan(ts);
      last = r.recvTs;
    }
  });
});

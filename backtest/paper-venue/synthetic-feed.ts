import { seededRandom } from '../../core/kernel/index.ts';
import { InstrumentSimulator, SYNTHETIC_MARKETS, type SyntheticMarketParams } from '../synthetic/index.ts';
import { type FeedItem, type FeedSource, feedItemOf } from './market-feed.ts';

/** Options of the live SYNTHETIC generator. */
export interface SyntheticFeedOptions {
  readonly seed: number;
  /** Session start, epoch ms (rounded down to the minute). */
  readonly startTime: number;
  /** Venue-time length; omitted = endless. */
  readonly durationMs?: number;
  readonly markets?: readonly SyntheticMarketParams[];
}

const MINUTE = 60_000;

/**
 * SYNTHETIC market data generated live by backtest/synthetic's seeded simulators (the same
 * stepping as `writeSyntheticSession`, without latency: recvTs = venue time). Not real prices.
 * @param options - seed, start, length, markets
 * @returns the source
 */
export function syntheticFeed(options: SyntheticFeedOptions): FeedSource {
  return async function* () {
    const markets = options.markets ?? SYNTHETIC_MARKETS;
    const start = Math.floor(options.startTime / MINUTE) * MINUTE;
    const end = options.durationMs === undefined ? Number.POSITIVE_INFINITY : start + options.durationMs;
    const sims = markets.map(
      (m, i) =>
        new InstrumentSimulator(m, seededRandom((options.seed ^ Math.imul(i + 1, 0x9e3779b9)) >>> 0), start),
    );
    const out: FeedItem[] = [];
    const sink = (ts: number, json: string): void => {
      const item = feedItemOf(JSON.parse(json), ts);
      if (item) out.push(item);
    };
    let boundary = start + MINUTE;
    for (;;) {
      let next = 0;
      for (let i = 1; i < sims.length; i++)
        if ((sims[i] as InstrumentSimulator).nextTs < (sims[next] as InstrumentSimulator).nextTs) next = i;
      const sim = sims[next] as InstrumentSimulator;
      if (boundary <= sim.nextTs && boundary <= end) {
        for (const s of sims) s.closeBar(boundary, sink);
        boundary += MINUTE;
      } else if (sim.nextTs >= end) {
        return;
      } else {
        sim.step(sink);
      }
      yield* out.splice(0);
    }
  };
}

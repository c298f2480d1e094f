import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type PaperVenue, startPaperVenue, syntheticFeed } from '../../../backtest/paper-venue/index.ts';
import { createSimVenue, type LatencyOptions, ZERO_LATENCY } from '../../../backtest/sim/index.ts';
import { SYNTHETIC_BTC_PERP, SYNTHETIC_MARKETS } from '../../../backtest/synthetic/index.ts';
import { seededRandom } from '../../../core/kernel/index.ts';
import { D, type MarketEvent, parseDecimal } from '../../../core/model/index.ts';
import { decodeMarketMessage } from '../../../core/venue/index.ts';
import { approved } from '../../kit/approved-intents.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const FEED = {
  seed: 11,
  startTime: Date.UTC(2026, 0, 5),
  durationMs: 90_000,
  markets: [SYNTHETIC_MARKETS[0]!],
};
let venue: PaperVenue | undefined;

afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

/** The strategy: on every 25th BTC quote, rest one lot at the touch, alternating buy at the bid and sell at the ask. */
function decide(n: number, bid: string, ask: string) {
  if (n % 25 !== 0) return undefined;
  const buy = (n / 25) % 2 === 1;
  return { ref: `s-${n}`, side: buy ? ('BUY' as const) : ('SELL' as const), price: buy ? bid : ask };
}

type Fill = string;

async function backtestFills(latency: LatencyOptions): Promise<Fill[]> {
  const sim = createSimVenue({
    instruments: [SYNTHETIC_BTC_PERP],
    fillModel: 'touch',
    latency,
    startingBalances: { USDT: D(100_000) },
    random: seededRandom(1),
    portfolioId: 'PAPER-MAIN',
  });
  const fills: Fill[] = [];
  sim.events.subscribe((e) => {
    if (e.kind === 'execution')
      fills.push(
        `${e.execution.clientOrderId} ${e.execution.side} ${e.execution.quantity} @ ${e.execution.price} t=${e.execution.timestamp}`,
      );
  });
  const source = syntheticFeed(FEED)();
  let quotes = 0;
  for (let next = await source.next(); !next.done; next = await source.next()) {
    const event: MarketEvent = next.value.event;
    sim.onMarket(event);
    if (event.kind !== 'quote' || event.sym !== BTC) continue;
    const data = (next.value.wire as { data: { bid: string; ask: string } }).data;
    const decision = decide(++quotes, data.bid, data.ask);
    if (!decision) continue;
    sim.submit(
      approved({
        kind: 'placeOrder',
        ref: decision.ref,
        sym: BTC,
        side: decision.side,
        orderType: 'LIMIT',
        qty: D('0.001'),
        price: parseDecimal(decision.price),
        timeInForce: 'GTC',
        reduceOnly: false,
        positionSide: 'NONE',
      }),
    );
    sim.advanceTo(sim.now());
  }
  return fills;
}

function opened(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/**
 * The same strategy against the paper venue in lockstep. Without latency it waits for each reply
 * before acknowledging the event; with one the reply comes only once the venue's time reached the
 * arrival, so it acknowledges on the private socket right after the command (same socket: the
 * command is in before the ack) and never waits for the reply.
 */
async function paperFills(latency?: LatencyOptions): Promise<Fill[]> {
  const v = await startPaperVenue({
    instruments: [SYNTHETIC_BTC_PERP],
    startingBalances: { USDT: D(100_000) },
    fillModel: 'touch',
    feed: syntheticFeed(FEED),
    pacing: { mode: 'lockstep' },
    ...(latency === undefined ? {} : { latency }),
  });
  venue = v;
  const fills: Fill[] = [];
  const priv = await opened(v.privateWsUrl);
  const replies = new Map<string, () => void>();
  priv.on('message', (raw) => {
    const frame = JSON.parse(String(raw));
    if (frame.channel === 'Trades') {
      for (const t of frame.data)
        fills.push(`${t.clientOrderId} ${t.side} ${t.quantity} @ ${t.price} t=${t.createAt}`);
    }
    if (typeof frame.id === 'string') replies.get(frame.id)?.();
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const sign = createHmac('sha256', v.apiSecret).update(`${timestamp}GET/users/self/verify`).digest('hex');
  const loggedIn = new Promise<void>((resolve) => priv.once('message', () => resolve()));
  priv.send(
    JSON.stringify({ action: 'login', args: { apiKey: v.apiKey, timestamp, sign, onlyTrade: false } }),
  );
  await loggedIn;
  const md = await opened(`${v.marketDataWsUrl}?binary=false`);
  let quotes = 0;
  const ended = new Promise<void>((resolve) => {
    md.on('message', async (raw) => {
      const frame = JSON.parse(String(raw));
      if (frame.event === 'subscribe') {
        md.send(JSON.stringify({ event: 'lockstep_ack', seq: 0 }));
        return;
      }
      if (frame.arg?.channel !== 'BBO') return;
      const event = decodeMarketMessage(frame, 0);
      if (event === null || event instanceof Error) throw new Error('undecodable push');
      const decision = decide(++quotes, frame.data.bid, frame.data.ask);
      if (decision) {
        const replied = new Promise<void>((resolve) => replies.set(decision.ref, resolve));
        priv.send(
          JSON.stringify({
            action: 'place_order',
            id: decision.ref,
            args: {
              sym: BTC,
              side: decision.side,
              orderType: 'LIMIT',
              orderQty: '0.001',
              limitPrice: decision.price,
              clientOrderId: decision.ref,
            },
          }),
        );
        if (latency !== undefined) {
          priv.send(JSON.stringify({ action: 'lockstep_ack', args: { seq: frame.seq } }));
          return;
        }
        await replied;
      }
      md.send(JSON.stringify({ event: 'lockstep_ack', seq: frame.seq }));
    });
    const poll = setInterval(() => {
      if (v.feed.ended) {
        clearInterval(poll);
        resolve();
      }
    }, 10);
  });
  md.send(JSON.stringify({ event: 'subscribe', arg: [{ channel: 'BBO', sym: BTC }] }));
  await ended;
  await new Promise((resolve) => setTimeout(resolve, 50));
  priv.terminate();
  md.terminate();
  return fills;
}

function diffOf(expected: readonly Fill[], actual: readonly Fill[]): string[] {
  return expected
    .map((line, i) =>
      line === actual[i] ? undefined : `#${i}: backtest ${line} | paper ${actual[i] ?? '(none)'}`,
    )
    .filter((line) => line !== undefined);
}

describe('paper venue lockstep parity', () => {
  it('with a 200 ms order-entry latency gives the same fills as a backtest with that latency', async () => {
    const latency: LatencyOptions = {
      orderEntry: { fixedMs: 200, jitterMs: 0 },
      marketData: ZERO_LATENCY.marketData,
    };
    const expected = await backtestFills(latency);
    const actual = await paperFills(latency);
    expect(expected.length).toBeGreaterThan(3);
    // The latency shows: a backtest without it fills differently.
    expect(diffOf(await backtestFills(ZERO_LATENCY), actual)).not.toEqual([]);
    const diff = diffOf(expected, actual);
    expect(diff, diff.join('\n')).toEqual([]);
    expect(actual).toHaveLength(expected.length);
  }, 30_000);

  it('gives the same fills, in the same order, as a backtest of the same SYNTHETIC session and strategy', async () => {
    const expected = await backtestFills(ZERO_LATENCY);
    const actual = await paperFills();
    expect(expected.length).toBeGreaterThan(3);
    const diff = expected
      .map((line, i) =>
        line === actual[i] ? undefined : `#${i}: backtest ${line} | paper ${actual[i] ?? '(none)'}`,
      )
      .filter((line) => line !== undefined);
    expect(diff, diff.join('\n')).toEqual([]);
    expect(actual).toHaveLength(expected.length);
  }, 30_000);
});

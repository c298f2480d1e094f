import { performance } from 'node:perf_hooks';
import { createSimVenue, ZERO_LATENCY } from '../backtest/sim/index.ts';
import { seededRandom } from '../core/kernel/index.ts';
import { D, type Intent, type OrderSide, type QuoteEvent } from '../core/model/index.ts';
import type { ApprovedIntent } from '../core/risk/index.ts';
import { anInstrument } from '../test/kit/instrument-builders.ts';

// The simulated venue alone on 1M SYNTHETIC BBO events (a seeded random walk, not market data):
// two resting quotes re-placed every 100 events, an open position, the queue fill model. Prints
// events/s of onMarket with the quoting, of the per-event path alone (no fills), and of a bare loop.

const EVENTS = 1_000_000;
const SYM = 'BINANCE_PERP_BTC_USDT';
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const instrument = anInstrument(SYM);

function events(): QuoteEvent[] {
  const random = seededRandom(1);
  const out: QuoteEvent[] = [];
  let mid = 40_000;
  for (let i = 0; i < EVENTS; i++) {
    mid = Math.round((mid + (random.next() - 0.5) * 2) * 10) / 10;
    out.push({
      kind: 'quote',
      sym: SYM,
      ts: i,
      recvTs: i,
      bid: mid,
      bidQty: 1.5,
      ask: Math.round((mid + 0.1) * 10) / 10,
      askQty: 2,
    });
  }
  return out;
}

const data = events();
const bareStart = performance.now();
let checksum = 0;
for (const e of data) checksum += e.bid;
const bareMs = performance.now() - bareStart;

/**
 * A queue-fill venue holding a long of 1 BTC (bought at market), and a way to send it intents.
 * @param seed - the venue's random seed
 * @param onUserEvent - counts the venue's User Data events from the first one on, when given
 * @returns the venue and its sender
 */
function venueHoldingALong(seed: number, onUserEvent?: () => void) {
  const venue = createSimVenue({
    instruments: [instrument],
    startingBalances: { USDT: D('1000000') },
    random: seededRandom(seed),
    latency: ZERO_LATENCY,
    fillModel: 'queue',
  });
  if (onUserEvent !== undefined) venue.events.subscribe(onUserEvent);
  const send = (intent: Intent) => venue.submit({ strategyId: 'bench', intent } as ApprovedIntent);
  send({
    kind: 'placeOrder',
    ref: 'pos',
    sym: SYM,
    side: 'BUY',
    orderType: 'MARKET',
    qty: D('1'),
    timeInForce: 'IOC',
    reduceOnly: false,
    positionSide: 'NONE',
  });
  return { venue, send };
}

/**
 * A resting GTC limit order of 0.01 BTC.
 * @param ref - its reference
 * @param side - BUY or SELL
 * @param price - its price, as the venue's decimal text
 * @returns the intent
 */
function restingLimit(ref: string, side: OrderSide, price: string): Intent {
  return {
    kind: 'placeOrder',
    ref,
    sym: SYM,
    side,
    orderType: 'LIMIT',
    qty: D('0.01'),
    price: D(price),
    timeInForce: 'GTC',
    reduceOnly: false,
    positionSide: 'NONE',
  };
}

let userEvents = 0;
const { venue: sim, send } = venueHoldingALong(2, () => userEvents++);
const start = performance.now();
let n = 0;
for (const e of data) {
  if (n % 100 === 0) {
    const k = n / 100;
    send({ kind: 'cancelOrders', ref: `x${k}`, sym: SYM });
    for (const [side, px] of [
      ['BUY', e.bid - 0.5],
      ['SELL', e.ask + 0.5],
    ] as const) {
      send(restingLimit(`${side}${k}`, side, px.toFixed(1)));
    }
  }
  sim.onMarket(e);
  n++;
}
const ms = performance.now() - start;

// The per-event path alone: one open position and two resting orders far from the market, no fills.
const { venue: quiet, send: sendQuiet } = venueHoldingALong(3);
for (const [side, px] of [
  ['BUY', '1000'],
  ['SELL', '90000'],
] as const) {
  sendQuiet(restingLimit(side, side, px));
}
const quietStart = performance.now();
for (const e of data) quiet.onMarket(e);
const quietMs = performance.now() - quietStart;
console.log(`bare loop:   ${fmt(EVENTS / (bareMs / 1000))} events/s (checksum ${checksum > 0})`);
console.log(
  `sim, quoting:  ${fmt(EVENTS / (ms / 1000))} events/s, ${fmt(userEvents)} User Data events, ${fmt(sim.ledger().tradingFees.toNumber())} USDT fees`,
);
console.log(
  `sim, no fills: ${fmt(EVENTS / (quietMs / 1000))} events/s (position + 2 resting orders: matching and margin check only)`,
);
console.log(`peak RSS:    ${fmt(process.resourceUsage().maxRSS / 1024)} MB`);

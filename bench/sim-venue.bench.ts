import { performance } from 'node:perf_hooks';
import { createSimVenue, ZERO_LATENCY } from '../backtest/sim/index.ts';
import { seededRandom } from '../core/kernel/index.ts';
import { D, type Intent, type QuoteEvent } from '../core/model/index.ts';
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

const sim = createSimVenue({
  instruments: [instrument],
  startingBalances: { USDT: D('1000000') },
  random: seededRandom(2),
  latency: ZERO_LATENCY,
  fillModel: 'queue',
});
let userEvents = 0;
sim.events.subscribe(() => userEvents++);
const send = (intent: Intent) => sim.submit({ strategyId: 'bench', intent } as ApprovedIntent);
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
      send({
        kind: 'placeOrder',
        ref: `${side}${k}`,
        sym: SYM,
        side,
        orderType: 'LIMIT',
        qty: D('0.01'),
        price: D(px.toFixed(1)),
        timeInForce: 'GTC',
        reduceOnly: false,
        positionSide: 'NONE',
      });
    }
  }
  sim.onMarket(e);
  n++;
}
const ms = performance.now() - start;

// The per-event path alone: one open position and two resting orders far from the market, no fills.
const quiet = createSimVenue({
  instruments: [instrument],
  startingBalances: { USDT: D('1000000') },
  random: seededRandom(3),
  latency: ZERO_LATENCY,
  fillModel: 'queue',
});
const sendQuiet = (intent: Intent) => quiet.submit({ strategyId: 'bench', intent } as ApprovedIntent);
sendQuiet({
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
for (const [side, px] of [
  ['BUY', '1000'],
  ['SELL', '90000'],
] as const) {
  sendQuiet({
    kind: 'placeOrder',
    ref: side,
    sym: SYM,
    side,
    orderType: 'LIMIT',
    qty: D('0.01'),
    price: D(px),
    timeInForce: 'GTC',
    reduceOnly: false,
    positionSide: 'NONE',
  });
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

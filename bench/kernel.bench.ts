import { from, Subject } from 'rxjs';
import { z } from 'zod';
import type { ExecutionPort } from '../core/execution/index.ts';
import { defineStrategy, Kernel, seededRandom, virtualScheduler } from '../core/kernel/index.ts';
import type { MarketEvent, QuoteEvent, UserEvent } from '../core/model/index.ts';
import { D } from '../core/model/index.ts';
import { RiskGate } from '../core/risk/index.ts';
import { anInstrument } from '../test/kit/instrument-builders.ts';

// Kernel overhead per market event: 1M synthetic BBO events (built in memory, labelled synthetic)
// through kernel + risk gate with a no-op strategy and no execution, against a bare loop over the
// same events; then intent-to-approval latency (strategy hook -> kernel checks -> risk gate ->
// execution port) for IOC orders. Target: <= 300 ns per event.

const EVENTS = 1_000_000;
const ROUNDS = 5;
const SYMS = ['BINANCE_PERP_BTC_USDT', 'BINANCE_PERP_ETH_USDT', 'OKX_PERP_SOL_USDT', 'OKX_SPOT_BTC_USDT'];

/** Synthetic BBO events: a seeded random walk per sym, one event per millisecond. */
function syntheticQuotes(count: number): QuoteEvent[] {
  const rng = seededRandom(42);
  const mids = SYMS.map((_, i) => 1000 * (i + 1));
  const events: QuoteEvent[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const s = i % SYMS.length;
    const mid = Math.round(((mids[s] as number) + (rng.next() - 0.5)) * 10) / 10;
    mids[s] = mid;
    const ts = 1_767_225_600_000 + i;
    events[i] = {
      kind: 'quote',
      sym: SYMS[s] as string,
      ts,
      recvTs: ts,
      bid: mid,
      bidQty: 1,
      ask: mid + 0.1,
      askQty: 2,
    };
  }
  return events;
}

function discardingPort(onSubmit: () => void = () => {}): ExecutionPort {
  return {
    events: new Subject<UserEvent>(),
    submit: onSubmit,
    lookupOrder: () => Promise.resolve(undefined),
    snapshot: () => Promise.resolve({ ts: 0, openOrders: [], openAlgoOrders: [], positions: [], assets: [] }),
  };
}

const noop = defineStrategy({ name: 'no-op', params: z.object({}), onQuote: () => undefined });

function kernelOver(events: readonly MarketEvent[], execution = discardingPort()): Kernel {
  return new Kernel({
    instruments: SYMS.map((sym) => anInstrument(sym)),
    market: from(events),
    execution,
    gate: new RiskGate({ limits: { maxNotionalPerOrder: '1000000', maxOpenOrders: 100, priceBand: 0.05 } }),
    scheduler: virtualScheduler(),
    strategies: [{ id: 'noop', strategy: noop }],
  });
}

function bareLoop(events: readonly QuoteEvent[]): number {
  let sum = 0;
  for (let i = 0; i < events.length; i++) sum += (events[i] as QuoteEvent).bid;
  return sum;
}

async function timeKernel(events: readonly QuoteEvent[]): Promise<number> {
  const kernel = kernelOver(events);
  const started = performance.now();
  await kernel.start();
  const elapsed = performance.now() - started;
  kernel.stop();
  return elapsed;
}

function timePush(events: readonly QuoteEvent[]): number {
  const kernel = kernelOver([]);
  void kernel.start();
  const started = performance.now();
  for (let i = 0; i < events.length; i++) kernel.push(events[i] as QuoteEvent);
  return performance.now() - started;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const events = syntheticQuotes(EVENTS);
// Warm-up so the JIT has compiled both paths before anything is timed.
bareLoop(events);
await timeKernel(events.slice(0, 200_000));
timePush(events.slice(0, 200_000));

const bare: number[] = [];
const viaRx: number[] = [];
const viaPush: number[] = [];
let guard = 0;
for (let round = 0; round < ROUNDS; round++) {
  let t = performance.now();
  guard += bareLoop(events);
  bare.push(performance.now() - t);
  viaRx.push(await timeKernel(events));
  t = performance.now();
  viaPush.push(timePush(events));
}
const nsPer = (ms: number): number => (ms * 1e6) / EVENTS;
const rate = (ms: number): string => `${(((EVENTS / ms) * 1000) / 1e6).toFixed(2)} M events/s`;
const bareMs = median(bare);
const rxMs = median(viaRx);
const pushMs = median(viaPush);
console.log(
  `${EVENTS.toLocaleString('en-US')} synthetic BBO events over ${SYMS.length} syms, median of ${ROUNDS} rounds`,
);
console.log(
  `  bare loop                            ${bareMs.toFixed(1).padStart(8)} ms  ${rate(bareMs)}  (${nsPer(bareMs).toFixed(1)} ns/event)`,
);
console.log(
  `  kernel + risk, no-op strategy (RxJS) ${rxMs.toFixed(1).padStart(8)} ms  ${rate(rxMs)}  overhead ${nsPer(rxMs - bareMs).toFixed(1)} ns/event`,
);
console.log(
  `  kernel + risk, no-op strategy (push) ${pushMs.toFixed(1).padStart(8)} ms  ${rate(pushMs)}  overhead ${nsPer(pushMs - bareMs).toFixed(1)} ns/event`,
);
console.log(`  target <= 300 ns/event: ${nsPer(rxMs - bareMs) <= 300 ? 'met' : 'NOT met'}`);

// Intent-to-approval: every 10th quote the strategy sends an IOC bid at the bid; the port notes
// the time it receives the approved command. Nothing fills (no venue answers), and IOC orders
// are closed right away by a synthetic CANCELLED update so open orders do not pile up.
const SAMPLES = 100_000;
const latencies = new Float64Array(SAMPLES);
let sampled = 0;
let sentAt = 0;
const user = new Subject<UserEvent>();
const port: ExecutionPort = {
  ...discardingPort(),
  events: user,
  submit: (command) => {
    if (sampled < SAMPLES) latencies[sampled++] = performance.now() - sentAt;
    const intent = command.intent;
    if (intent.kind !== 'placeOrder') return;
    const ts = 0;
    user.next({
      kind: 'order',
      ts,
      recvTs: ts,
      order: {
        orderId: intent.ref,
        clientOrderId: intent.ref,
        portfolioId: 'synthetic',
        sym: intent.sym,
        side: intent.side,
        orderType: intent.orderType,
        timeInForce: intent.timeInForce,
        orderState: 'CANCELLED',
        orderQty: intent.qty,
        limitPrice: intent.price ?? D(0),
        executedQty: D(0),
        executedAmount: D(0),
        executedAvgPrice: D(0),
        fee: D(0),
        feeCoin: 'USDT',
        reduceOnly: false,
        positionSide: intent.positionSide,
        createAt: ts,
        updateAt: ts,
      },
    });
  },
};
let n = 0;
const sender = defineStrategy({
  name: 'ioc-sender',
  params: z.object({}),
  onQuote: (ctx, quote) => {
    if (++n % 10 !== 0) return;
    sentAt = performance.now();
    return ctx.order.ioc({ sym: quote.sym, side: 'BUY', qty: '0.01', price: quote.bid });
  },
});
const latencyKernel = new Kernel({
  instruments: SYMS.map((sym) => anInstrument(sym)),
  market: from(events),
  execution: port,
  gate: new RiskGate({ limits: { maxNotionalPerOrder: '1000000', maxOpenOrders: 100, priceBand: 0.05 } }),
  scheduler: virtualScheduler(),
  strategies: [{ id: 'lat', strategy: sender }],
});
let faults = 0;
latencyKernel.faults.subscribe(() => faults++);
let denied = 0;
latencyKernel.denials.subscribe(() => denied++);
await latencyKernel.start();
const sorted = Array.from(latencies.subarray(0, sampled)).sort((a, b) => a - b);
const pct = (p: number): string =>
  `${((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 1000).toFixed(1)} µs`;
console.log(
  `intent-to-approval over ${sampled.toLocaleString('en-US')} IOC intents (${denied} denied, ${faults} faults): p50 ${pct(0.5)}, p99 ${pct(0.99)}, max ${pct(1)}`,
);
if (guard === 0) console.log('(guard)');

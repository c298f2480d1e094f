import type { Clock } from '../core/kernel/index.ts';
import { KernelState } from '../core/kernel/kernel-state.ts';
import { D, type Dec, type Intent, type Order, type StrategyIntent, ZERO } from '../core/model/index.ts';
import { RiskGate, type RiskView } from '../core/risk/index.ts';
import { anInstrument } from '../test/kit/instrument-builders.ts';

// Intent-to-approval latency of the risk gate with every limit switched on, over an open position
// and the kernel's own order state (its OrderRegistry) holding 20 open orders, then 190 on the
// traded sym (its maxNumOrders is 200) and 300 on another, half of them each strategy's: the
// per-intent cost a strategy pays before its command reaches the execution port, and whether it
// grows with the open orders (grid strategies keep hundreds). Timed one intent at a time with
// hrtime (ns).

const SYM = 'BINANCE_PERP_BTC_USDT';
const OTHER_SYM = 'BINANCE_PERP_ETH_USDT';
const spec = anInstrument(SYM);
const owners = ['mm', 'other'] as const;

function anOpenOrder(i: number, sym: string): Order {
  return {
    orderId: `o-${i}`,
    clientOrderId: `c-${i}`,
    portfolioId: 'p',
    sym,
    side: i % 2 === 0 ? 'BUY' : 'SELL',
    orderType: 'LIMIT',
    timeInForce: 'GTC',
    orderState: 'OPEN',
    orderQty: D('0.01'),
    limitPrice: D(i % 2 === 0 ? '49990' : '50010'),
    executedQty: ZERO,
    executedAmount: ZERO,
    executedAvgPrice: ZERO,
    fee: ZERO,
    feeCoin: 'USDT',
    reduceOnly: false,
    positionSide: 'NONE',
    createAt: 0,
    updateAt: 0,
  };
}

let now = 1_700_000_000_000;
const clock: Clock = { now: () => now };
const position: Dec = D('0.5');
const equity: Dec = D('100000');
const gross: Dec = D('25000');

/** Orders come from a real KernelState; prices, position and equity are fixed by hand. */
function viewWith(onSym: number, elsewhere: number): RiskView {
  const state = new KernelState(clock, [spec]);
  for (let i = 0; i < onSym + elsewhere; i++) {
    state.orders.own(`c-${i}`, owners[i % 2] as string);
    state.orders.applyVenue(anOpenOrder(i, i < onSym ? SYM : OTHER_SYM));
  }
  return {
    now: () => now,
    instrument: (sym) => (sym === SYM ? spec : undefined),
    referencePrice: () => 50_000,
    positionQty: () => position,
    positionMode: () => 'NET',
    openOrders: (strategyId) => state.openOrders(strategyId),
    countOpenOrders: (filter) => state.countOpenOrders(filter),
    openOrdersOn: (sym, strategyId) => state.openOrdersOn(sym, strategyId),
    ownerOf: (ref) => state.ownerOf(ref),
    orderByRef: (ref) => state.orderByRef(ref),
    inFlightModifyQty: (order) => state.inFlightModifyQty(order),
    inFlightModifyPrice: (order) => state.inFlightModifyPrice(order),
    closingPositionQty: (sym, side, strategyId) => state.closingPositionQty(sym, side, strategyId),
    legMayGrow: (sym, side) => state.legMayGrow(sym, side),
    algoOrderByRef: (ref) => state.algoOrderByRef(ref),
    inFlightAlgoOrder: (ref) => state.inFlightAlgoOrder(ref),
    inFlightAlgoReplaces: (ref) => state.inFlightAlgoReplaces(ref),
    forEachOpenOrder: (strategyId, visit) => state.forEachOpenOrder(strategyId, visit),
    countOpenAlgoOrders: (strategyId) => state.countOpenAlgoOrders(strategyId),
    forEachOpenAlgoOrder: (strategyId, visit) => state.forEachOpenAlgoOrder(strategyId, visit),
    countHeldTrailingStops: (strategyId) => state.countHeldTrailingStops(strategyId),
    equity: () => equity,
    grossExposure: () => gross,
  };
}

const gate = new RiskGate({
  limits: {
    maxNotionalPerOrder: '100000',
    maxPositionQty: '10',
    maxGrossExposure: '1000000',
    maxOpenOrders: 1000,
    priceBand: 0.05,
    submitRate: { limit: 1_000_000, intervalMs: 1000 },
    modifyRate: { limit: 1_000_000, intervalMs: 1000 },
  },
  strategies: { mm: { maxOpenOrders: 500, maxNotionalPerOrder: '50000' } },
  killSwitch: { dailyLossLimit: '5000', maxDrawdown: 0.2 },
});

// Modifies and cancels target the first 20 orders; c-k belongs to owners[k % 2], so a modify
// (always of an odd k) comes from 'other' and a cancel (even k) from 'mm'.
const intents: StrategyIntent[] = [];
for (let i = 0; i < 1000; i++) {
  const price = D(49_900 + (i % 200));
  const intent: Intent =
    i % 10 === 9
      ? { kind: 'modifyOrder', ref: `m-${i}`, target: `c-${i % 20}`, sym: SYM, price }
      : i % 10 === 8
        ? { kind: 'cancelOrder', ref: `x-${i}`, target: `c-${i % 20}`, sym: SYM }
        : {
            kind: 'placeOrder',
            ref: `r-${i}`,
            sym: SYM,
            side: i % 2 === 0 ? 'BUY' : 'SELL',
            orderType: i % 7 === 0 ? 'MARKET' : 'LIMIT',
            qty: D('0.012'),
            ...(i % 7 === 0 ? {} : { price }),
            timeInForce: i % 7 === 0 ? 'IOC' : 'GTC',
            reduceOnly: false,
            positionSide: 'NONE',
          };
  intents.push({ strategyId: i % 10 === 9 ? 'other' : 'mm', intent });
}

function run(view: RiskView, count: number, samples: Float64Array | undefined): number {
  let approved = 0;
  for (let i = 0; i < count; i++) {
    const si = intents[i % intents.length] as StrategyIntent;
    now += 1;
    const start = process.hrtime.bigint();
    const decision = gate.evaluate(si, view);
    const end = process.hrtime.bigint();
    if (samples !== undefined) samples[i] = Number(end - start);
    if (decision.kind === 'approved') approved++;
  }
  return approved;
}

const N = 200_000;
process.stdout.write(
  `risk gate, every limit on, open position, orders in the kernel's state: ${N} intents per line (70 % new orders, 10 % cancels, 10 % modifies)\n`,
);
for (const [onSym, elsewhere] of [
  [20, 0],
  [190, 300],
] as const) {
  const view = viewWith(onSym, elsewhere);
  run(view, 20_000, undefined);
  const samples = new Float64Array(N);
  const t0 = process.hrtime.bigint();
  const approved = run(view, N, samples);
  const totalNs = Number(process.hrtime.bigint() - t0);
  samples.sort();
  const pct = (p: number): string =>
    ((samples[Math.min(N - 1, Math.floor(N * p))] as number) / 1000).toFixed(2);
  process.stdout.write(
    `${`${onSym} open orders on the sym, ${elsewhere} elsewhere`.padEnd(40)}: p50 ${pct(0.5)} µs, p99 ${pct(0.99)} µs, p99.9 ${pct(0.999)} µs, max ${pct(1)} µs; ` +
      `${Math.round(N / (totalNs / 1e9)).toLocaleString('en-US')} decisions/s (timer overhead included), ${approved} approved\n`,
  );
}

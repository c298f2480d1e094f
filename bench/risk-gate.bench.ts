import { D, type Dec, type Intent, type Order, type StrategyIntent, ZERO } from '../core/model/index.ts';
import { RiskGate, type RiskView } from '../core/risk/index.ts';
import { anInstrument } from '../test/kit/instrument-builders.ts';

// Intent-to-approval latency of the risk gate with every limit switched on, over a state with
// 20 open orders and an open position: the per-intent cost a strategy pays before its command
// reaches the execution port. Timed one intent at a time with hrtime (ns).

const SYM = 'BINANCE_PERP_BTC_USDT';
const spec = anInstrument(SYM);

const openOrders: Order[] = Array.from({ length: 20 }, (_, i) => ({
  orderId: `o-${i}`,
  clientOrderId: `c-${i}`,
  portfolioId: 'p',
  sym: SYM,
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
}));

let now = 1_700_000_000_000;
const position: Dec = D('0.5');
const equity: Dec = D('100000');
const gross: Dec = D('25000');
const view: RiskView = {
  now: () => now,
  instrument: (sym) => (sym === SYM ? spec : undefined),
  referencePrice: () => 50_000,
  positionQty: () => position,
  positionMode: () => 'NET',
  openOrders: () => openOrders,
  orderByRef: (ref) => openOrders.find((o) => o.clientOrderId === ref),
  equity: () => equity,
  grossExposure: () => gross,
};

const gate = new RiskGate({
  limits: {
    maxNotionalPerOrder: '100000',
    maxPositionQty: '10',
    maxGrossExposure: '1000000',
    maxOpenOrders: 500,
    priceBand: 0.05,
    submitRate: { limit: 1_000_000, intervalMs: 1000 },
    modifyRate: { limit: 1_000_000, intervalMs: 1000 },
  },
  strategies: { mm: { maxOpenOrders: 100, maxNotionalPerOrder: '50000' } },
  killSwitch: { dailyLossLimit: '5000', maxDrawdown: 0.2 },
});

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

function run(count: number, samples: Float64Array | undefined): number {
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

run(20_000, undefined);
const N = 200_000;
const samples = new Float64Array(N);
const t0 = process.hrtime.bigint();
const approved = run(N, samples);
const totalNs = Number(process.hrtime.bigint() - t0);
samples.sort();
const pct = (p: number): string =>
  ((samples[Math.min(N - 1, Math.floor(N * p))] as number) / 1000).toFixed(2);
process.stdout.write(
  `risk gate, every limit on, 20 open orders: ${N} intents (70 % new orders, 10 % cancels, 10 % modifies), ${approved} approved\n` +
    `intent-to-approval latency: p50 ${pct(0.5)} µs, p99 ${pct(0.99)} µs, p99.9 ${pct(0.999)} µs, max ${pct(1)} µs\n` +
    `throughput: ${Math.round(N / (totalNs / 1e9)).toLocaleString('en-US')} decisions/s (timer overhead included)\n`,
);

import { join } from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import type { RecordedMessage } from '../../backtest/recording/index.ts';
import { type BacktestResult, resultToJson } from '../../backtest/report/index.ts';
import { runBacktest } from '../../backtest/runner/index.ts';
import { SIM_ERRORS } from '../../backtest/sim/index.ts';
import { defineStrategy } from '../../core/kernel/index.ts';
import { D, type Dec, type Intent, type PositionMode, ZERO } from '../../core/model/index.ts';
import { RISK_CHECK_NAMES, RiskGate } from '../../core/risk/index.ts';
import { decodeMarketRecord } from './bar-recordings.ts';
import { type Step, session } from './fuzz-sessions.ts';
import { anInstrument } from './instrument-builders.ts';
import { writeRecording } from './recording-files.ts';
import { BTC } from './sim-builders.ts';

const ETH = 'BINANCE_PERP_ETH_USDT';
const T0 = Date.UTC(2025, 0, 6);

/** Some market orders become Keel-emulated trailing stops (chosen by their quantity's digits). */
function withTrailing(intent: Intent): Intent {
  if (intent.kind !== 'placeOrder' || intent.orderType !== 'MARKET') return intent;
  const n = intent.qty.mul(1000).toNumber();
  if (n % 3 === 0) return intent;
  const offsetType = (['PRICE', 'TICKS', 'BPS'] as const)[n % 3];
  const offset = offsetType === 'PRICE' ? D((n % 50) + 1).div(10) : D((n % 40) + 1);
  const triggerOn = (['last', 'mark', 'bidAsk'] as const)[(n % 7) % 3];
  return {
    ...intent,
    trailingStop: {
      offsetType,
      offset,
      triggerOn,
      ...(n % 5 === 0 ? { activationPrice: D(intent.sym.includes('BTC') ? 100 : 50) } : {}),
    },
  } as Intent;
}

/** A fuzz session turned into records (wire form) and a script: intents per quote/trade hook call. */
export function toRecordsAndScript(steps: readonly Step[]) {
  const records: RecordedMessage[] = [];
  const script: Intent[][] = [];
  const range = new Map<string, [number, number]>();
  let t = T0;
  let hookCalls = 0;
  let pending: Intent[] = [];
  for (const step of steps) {
    t += 100;
    if ('wait' in step) {
      t += Math.min(step.wait, 3_600_000);
      continue;
    }
    if ('intent' in step) {
      pending.push(process.env.FUZZ_TRAIL === '1' ? withTrailing(step.intent) : step.intent);
      continue;
    }
    const e = step.event as { kind: string; sym: string; [k: string]: unknown };
    const seen = (p: number) => {
      const [lo, hi] = range.get(e.sym) ?? [p, p];
      range.set(e.sym, [Math.min(lo, p), Math.max(hi, p)]);
    };
    let data: Record<string, unknown>;
    let channel: string;
    if (e.kind === 'quote') {
      channel = 'BBO';
      seen(e.bid as number);
      seen(e.ask as number);
      data = {
        bid: String(e.bid),
        bidqty: String(e.bidQty),
        ask: String(e.ask),
        askqty: String(e.askQty),
        ts: t,
      };
    } else if (e.kind === 'trade') {
      channel = 'TRADE';
      seen(e.price as number);
      data = { tradeId: `t${t}`, price: String(e.price), qty: String(e.qty), side: e.side, ts: t };
    } else {
      channel = 'MARK_PRICE';
      seen(e.markPrice as number);
      data = {
        markPrice: String(e.markPrice),
        ts: t,
        ...(e.fundingRate === undefined
          ? {}
          : { fundingRate: String(e.fundingRate), nextFundingTime: t + 150 }),
      };
    }
    records.push({ recvTs: t, source: 'market-data', msg: { arg: { channel, sym: e.sym }, data } });
    if (channel !== 'MARK_PRICE') {
      // intents gathered so far go out on this event's hook call
      script[hookCalls++] = pending;
      pending = [];
    }
  }
  return { records, script, range };
}

function checkNet(net: Map<string, Dec>, netQty: (sym: string) => Dec, seen: string[], where: string): void {
  for (const sym of [BTC, ETH]) {
    const fills = net.get(sym) ?? ZERO;
    if (!netQty(sym).eq(fills))
      seen.push(`${where}: ctx.netQty(${sym}) ${netQty(sym)} != sum of fills ${fills}`);
  }
}

const FINAL_STATES = new Set(['FILLED', 'CANCELLED', 'REJECTED']);

const scriptedStrategy = (script: readonly Intent[][], seen: string[]) =>
  defineStrategy<
    Record<string, never>,
    { calls: number; last: Map<string, { state: string; executed: Dec }>; net: Map<string, Dec> }
  >({
    name: 'fuzz-script',
    params: z.object({}),
    syms: () => [BTC, ETH],
    state: () => ({ calls: 0, last: new Map(), net: new Map() }),
    onOrder: (ctx, order) => {
      const before = ctx.state.last.get(order.clientOrderId);
      if (before && FINAL_STATES.has(before.state) && order.synthesized !== true)
        seen.push(`onOrder ${order.clientOrderId}: ${before.state} -> ${order.orderState}`);
      if (before && order.executedQty.lt(before.executed))
        seen.push(`onOrder ${order.clientOrderId}: executed ${before.executed} -> ${order.executedQty}`);
      if (order.executedQty.gt(order.orderQty)) seen.push(`onOrder ${order.clientOrderId}: executed > qty`);
      ctx.state.last.set(order.clientOrderId, { state: order.orderState, executed: order.executedQty });
    },
    onFill: (ctx, fill) => {
      const signed = fill.side === 'BUY' ? fill.quantity : fill.quantity.neg();
      const net = (ctx.state.net.get(fill.sym) ?? ZERO).plus(signed);
      ctx.state.net.set(fill.sym, net);
      if (!ctx.netQty(fill.sym).eq(net))
        seen.push(`onFill ${fill.clientOrderId}: ctx.netQty ${ctx.netQty(fill.sym)} != sum of fills ${net}`);
    },
    onQuote: (ctx) => {
      if (ctx.liquidation() === undefined)
        checkNet(ctx.state.net, (sym) => ctx.netQty(sym), seen, `onQuote ${ctx.state.calls}`);
      return resolveAuto(script[ctx.state.calls++] ?? [], ctx.positionMode());
    },
    onTrade: (ctx) => {
      if (ctx.liquidation() === undefined)
        checkNet(ctx.state.net, (sym) => ctx.netQty(sym), seen, `onTrade ${ctx.state.calls}`);
      return resolveAuto(script[ctx.state.calls++] ?? [], ctx.positionMode());
    },
  });

function resolveAuto(intents: readonly Intent[], mode: PositionMode): Intent[] {
  return intents.map((intent) => {
    if (!('positionSide' in intent) || (intent.positionSide as string) !== 'AUTO') return intent;
    const side = 'side' in intent ? intent.side : 'BUY';
    const ro = 'reduceOnly' in intent && intent.reduceOnly;
    const positionSide = mode === 'NET' ? 'NONE' : (side === 'BUY') !== ro ? 'LONG' : 'SHORT';
    return { ...intent, positionSide } as Intent;
  });
}

const CODES = new Set<number>(Object.values(SIM_ERRORS).map((e) => e.code));

export async function runScripted(
  dir: string,
  steps: readonly Step[],
  mode: PositionMode,
  fillModel: 'touch' | 'through' | 'queue',
  name: string,
) {
  const { records, script, range } = toRecordsAndScript(steps);
  const seen: string[] = [];
  const path = join(dir, `${name}.jsonl`);
  await writeRecording(path, records);
  const result = await runBacktest({
    recordings: [path],
    decode: decodeMarketRecord,
    instruments: [anInstrument(BTC), anInstrument(ETH)],
    strategies: [{ id: 's', strategy: scriptedStrategy(script, seen) }],
    gate: new RiskGate(),
    startingCash: D(process.env.FUZZ_BAL ?? '10000'),
    fillModel,
    seed: 1,
    latency:
      process.env.FUZZ_LATENCY === '1'
        ? {
            orderEntry: { fixedMs: 40, jitterMs: 120 },
            marketData: { fixedMs: 10, jitterMs: 90 },
            ...(process.env.FUZZ_UD === '0' ? {} : { userData: { fixedMs: 5, jitterMs: 60 } }),
          }
        : { orderEntry: { fixedMs: 0, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    sim: {
      positionMode: mode,
      loans: {
        assets: { 'BINANCE:USDT': { annualRate: D('0.0876'), userQuota: D('5000'), pool: D('3000') } },
      },
    },
  });
  return { result, range, seen };
}

export function problemsOf(result: BacktestResult, range: Map<string, [number, number]>): string[] {
  const problems: string[] = [];
  for (const f of result.faults ?? []) problems.push(`fault in ${f.hook}: ${f.error}`);
  const fills = [...result.fills];
  for (const f of fills) {
    const [lo, hi] = range.get(f.sym) ?? [Number.NaN, Number.NaN];
    const p = f.price.toNumber();
    if (!(p >= lo - 0.1 - 1e-9 && p <= hi + 0.1 + 1e-9))
      problems.push(`fill ${f.clientOrderId} ${f.execType} at ${p} outside [${lo}, ${hi}]`);
  }
  for (const o of result.orders) {
    if (o.executedQty.gt(o.orderQty))
      problems.push(`${o.clientOrderId} executed ${o.executedQty} > ${o.orderQty}`);
    if (o.executedQty.lt(0)) problems.push(`${o.clientOrderId} negative executed`);
    if (o.orderState === 'FILLED' && !o.executedQty.eq(o.orderQty))
      problems.push(`${o.clientOrderId} FILLED with ${o.executedQty}/${o.orderQty}`);
  }
  for (const d of result.denials ?? []) {
    const venue = /^venue\.(-?\d+)$/.exec(d.check);
    if (
      venue
        ? !CODES.has(Number(venue[1])) && Number(venue[1]) >= 0
        : !/^kernel\.[A-Za-z]/.test(d.check) && !(RISK_CHECK_NAMES as readonly string[]).includes(d.check)
    )
      problems.push(`denial with unknown check ${d.check}: ${d.reason}`);
  }
  const sum = (v: Dec[]) => v.reduce((a, b) => a.plus(b), ZERO);
  const realized = sum(fills.map((f) => f.rpnl));
  const fees = sum(fills.map((f) => f.fee.minus(f.rebate)));
  const flows = sum(
    (result.cashFlows ?? []).filter((c) => c.kind !== 'BORROW' && c.kind !== 'REPAY').map((c) => c.amount),
  );
  const expected = D(process.env.FUZZ_BAL ?? '10000')
    .plus(realized)
    .minus(fees)
    .plus(flows);
  const open = result.openTrades.length;
  if (open === 0 && !result.metrics.equityFinal.eq(expected))
    problems.push(
      `equityFinal ${result.metrics.equityFinal.toFixed()} != start + realized - fees + flows ${expected.toFixed()} (flows ${(result.cashFlows ?? []).map((c) => `${c.kind}:${c.amount}`).join(',')})`,
    );
  return problems;
}

export { fc, resultToJson, session };

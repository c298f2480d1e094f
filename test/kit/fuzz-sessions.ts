import fc from 'fast-check';
import { type FillModelName, type LoanOptions, SIM_ERRORS } from '../../backtest/sim/index.ts';
import {
  D,
  type Dec,
  type Intent,
  type MarketEvent,
  type Order,
  type PositionSide,
  type TpSl,
  type UserEvent,
  ZERO,
} from '../../core/model/index.ts';
import { anInstrument } from './instrument-builders.ts';
import { aSim, BTC } from './sim-builders.ts';

export const ETH = 'BINANCE_PERP_ETH_USDT';
const SYMS = [BTC, ETH] as const;
const BASE: Record<string, number> = { [BTC]: 1000, [ETH]: 500 }; // in ticks of 0.1
const HOUR = 3_600_000;
const SWING = Number(process.env.FUZZ_SWING ?? 80);
const START = process.env.FUZZ_BAL ?? '10000';
const LOANS: LoanOptions = {
  assets: { 'BINANCE:USDT': { annualRate: D('0.0876'), userQuota: D('5000'), pool: D('3000') } },
  maxBorrowLtv: D('0.5'),
  maintenanceMarginRate: D('0.05'),
};

export type Step =
  | { readonly event: Omit<MarketEvent, 'ts' | 'recvTs'> & { sym: string } }
  | { readonly intent: Intent }
  | { readonly wait: number };

const tick = (units: number) => Math.round(units) / 10;
const symA = fc.constantFrom(...SYMS);

function barEvent(): fc.Arbitrary<Step> {
  const off = fc.integer({ min: -SWING, max: SWING });
  return fc
    .record({
      sym: symA,
      o: off,
      up: fc.integer({ min: 0, max: 30 }),
      down: fc.integer({ min: 0, max: 30 }),
      c: fc.integer({ min: 0, max: 1000 }),
    })
    .map(({ sym, o, up, down, c }) => {
      const open = (BASE[sym] ?? 0) + o;
      const high = open + up;
      const low = open - down;
      return {
        event: {
          kind: 'bar',
          sym,
          interval: '1m',
          open: tick(open),
          high: tick(high),
          low: tick(low),
          close: tick(low + ((high - low) * c) / 1000),
          volume: 10,
          closed: true,
        } as never,
      };
    });
}

function marketEvent(): fc.Arbitrary<Step> {
  const size = fc.integer({ min: 1, max: 3000 }).map((n) => n / 1000);
  const off = fc.integer({ min: -SWING, max: SWING });
  if (process.env.FUZZ_BARS === '1')
    return fc.oneof(
      { weight: 3, arbitrary: barEvent() },
      {
        weight: 1,
        arbitrary: fc
          .record({ sym: symA, off, rate: fc.option(fc.integer({ min: -50, max: 50 }), { nil: undefined }) })
          .map(({ sym, off, rate }) => ({
            event: {
              kind: 'markPrice',
              sym,
              markPrice: tick((BASE[sym] ?? 0) + off),
              ...(rate === undefined ? {} : { fundingRate: rate / 10_000, nextFundingTime: -1 }),
            } as never,
          })),
      },
    );
  return fc.oneof(
    fc
      .record({ sym: symA, off, spread: fc.integer({ min: 1, max: 5 }), bq: size, aq: size })
      .map(({ sym, off, spread, bq, aq }) => ({
        event: {
          kind: 'quote',
          sym,
          bid: tick((BASE[sym] ?? 0) + off),
          bidQty: bq,
          ask: tick((BASE[sym] ?? 0) + off + spread),
          askQty: aq,
        } as never,
      })),
    fc.record({ sym: symA, off, qty: size, buy: fc.boolean() }).map(({ sym, off, qty, buy }) => ({
      event: {
        kind: 'trade',
        sym,
        tradeId: 'x',
        price: tick((BASE[sym] ?? 0) + off),
        qty,
        side: buy ? 'BUY' : 'SELL',
      } as never,
    })),
    fc
      .record({ sym: symA, off, rate: fc.option(fc.integer({ min: -50, max: 50 }), { nil: undefined }) })
      .map(({ sym, off, rate }) => ({
        event: {
          kind: 'markPrice',
          sym,
          markPrice: tick((BASE[sym] ?? 0) + off),
          ...(rate === undefined ? {} : { fundingRate: rate / 10_000, nextFundingTime: -1 }),
        } as never,
      })),
  );
}

function command(ref: string, known: number): fc.Arbitrary<Intent> {
  const qty = fc.integer({ min: 50, max: 3000 }).map((n) => D(n).div(1000));
  const side = fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL');
  const ps = fc.constantFrom<PositionSide | 'AUTO'>(
    'AUTO',
    'AUTO',
    'AUTO',
    'AUTO',
    'NONE',
    'LONG',
    'SHORT',
  ) as fc.Arbitrary<PositionSide>;
  const target = fc.integer({ min: 0, max: Math.max(0, known - 1) }).map((i) => `o${i}`);
  const priceOf = (sym: string) =>
    fc.integer({ min: -100, max: 100 }).map((o) => D((BASE[sym] ?? 0) + o).div(10));
  const tpsl = (sym: string): fc.Arbitrary<TpSl | undefined> =>
    fc.option(
      fc.record({
        triggerPrice: priceOf(sym),
        triggerType: fc.constantFrom('MarkPrice', 'LastPrice' as const),
        price: fc.oneof(fc.constant(D(0)), priceOf(sym)),
      }),
      { nil: undefined },
    );
  const place = symA.chain((sym) =>
    fc
      .record({
        side,
        qty,
        price: priceOf(sym),
        market: fc.boolean(),
        tif: fc.constantFrom('GTC', 'IOC', 'FOK', 'GTX' as const),
        ro: fc.boolean(),
        ps,
        tp: tpsl(sym),
        sl: tpsl(sym),
      })
      .map(
        ({ side, qty, price, market, tif, ro, ps, tp, sl }): Intent => ({
          kind: 'placeOrder',
          ref,
          sym,
          side,
          qty,
          orderType: market ? 'MARKET' : 'LIMIT',
          ...(market ? {} : { price }),
          timeInForce: market ? 'IOC' : tif,
          reduceOnly: ro,
          positionSide: ps,
          ...(tp ? { tp } : {}),
          ...(sl ? { sl } : {}),
        }),
      ),
  );
  const algo = symA.chain((sym) =>
    fc
      .record({
        side,
        qty,
        type: fc.constantFrom('TRIGGER', 'TP_SL' as const),
        cond: fc.constantFrom('GTE', 'LTE' as const),
        tt: fc.constantFrom('MarkPrice', 'LastPrice' as const),
        trig: priceOf(sym),
        price: fc.oneof(fc.constant(D(0)), priceOf(sym)),
        ro: fc.boolean(),
        ps,
      })
      .map(
        (a): Intent => ({
          kind: 'placeAlgoOrder',
          ref,
          sym,
          side: a.side,
          algoOrderType: a.type,
          conditionType: a.cond,
          triggerType: a.tt,
          triggerPrice: a.trig,
          price: a.price,
          qty: a.qty,
          reduceOnly: a.ro,
          positionSide: a.ps,
        }),
      ),
  );
  return fc.oneof(
    { weight: 6, arbitrary: place },
    { weight: 2, arbitrary: algo },
    {
      weight: 2,
      arbitrary: fc
        .record({ t: target, sym: symA })
        .map(({ t, sym }): Intent => ({ kind: 'cancelOrder', ref: `c-${ref}`, target: t, sym })),
    },
    {
      weight: 2,
      arbitrary: symA.chain((sym) =>
        fc.record({ t: target, price: fc.option(priceOf(sym)), qty: fc.option(qty) }).map(
          ({ t, price, qty }): Intent => ({
            kind: 'modifyOrder',
            ref: `m-${ref}`,
            target: t,
            sym,
            ...(price ? { price } : {}),
            ...(qty ? { qty } : {}),
          }),
        ),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.record({ ts: fc.option(fc.array(target, { maxLength: 3 })), sym: fc.option(symA) }).map(
        ({ ts, sym }): Intent => ({
          kind: 'cancelOrders',
          ref: `cm-${ref}`,
          ...(ts ? { targets: ts } : {}),
          ...(sym ? { sym } : {}),
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ sym: symA, ps })
        .map(({ sym, ps }): Intent => ({ kind: 'closePosition', ref: `cp-${ref}`, sym, positionSide: ps })),
    },
    {
      weight: 1,
      arbitrary: fc
        .subarray([...SYMS], { minLength: 1 })
        .map((symList): Intent => ({ kind: 'closePositions', ref: `cps-${ref}`, symList })),
    },
    {
      weight: 1,
      arbitrary: fc.record({ t: target, sym: symA, trig: fc.option(priceOf(BTC)), qty: fc.option(qty) }).map(
        ({ t, sym, trig, qty }): Intent => ({
          kind: 'replaceAlgoOrder',
          ref: `ra-${ref}`,
          target: t,
          sym,
          ...(trig ? { triggerPrice: trig } : {}),
          ...(qty ? { qty } : {}),
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ t: target, sym: symA })
        .map(({ t, sym }): Intent => ({ kind: 'cancelAlgoOrder', ref: `ca-${ref}`, target: t, sym })),
    },
    {
      weight: 1,
      arbitrary: fc
        .option(symA)
        .map((sym): Intent => ({ kind: 'cancelAllAlgoOrders', ref: `caa-${ref}`, ...(sym ? { sym } : {}) })),
    },
    {
      weight: 1,
      arbitrary: fc.record({ borrow: fc.boolean(), amount: fc.integer({ min: 1, max: 4000 }) }).map(
        ({ borrow, amount }): Intent => ({
          kind: borrow ? 'borrow' : 'repay',
          ref: `l-${ref}`,
          exchange: 'BINANCE',
          coin: 'USDT',
          amount: D(amount),
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('NET', 'BOTH' as const)
        .map((positionMode): Intent => ({ kind: 'setPositionMode', ref: `pm-${ref}`, positionMode })),
    },
  );
}

export function session(maxSteps = 80): fc.Arbitrary<Step[]> {
  return fc
    .array(fc.constantFrom('e', 'e', 'c', 'c', 'w'), { minLength: 20, maxLength: maxSteps })
    .chain((kinds) => {
      let orders = 0;
      const steps = kinds.map((k, i): fc.Arbitrary<Step> => {
        if (i === 0 || k === 'e') return marketEvent();
        if (k === 'w') return fc.constantFrom(1, 10, 1000, HOUR, 8 * HOUR).map((wait) => ({ wait }));
        const ref = `o${orders++}`;
        return command(ref, orders).map((intent) => ({ intent }));
      });
      return fc.tuple(...steps);
    });
}

const CODES = new Set<number>(Object.values(SIM_ERRORS).map((e) => e.code));
const FINAL = new Set(['FILLED', 'CANCELLED', 'REJECTED']);

export interface Outcome {
  readonly problems: string[];
  readonly events: UserEvent[];
  readonly fingerprint: string;
}

export async function run(steps: readonly Step[], fillModel: FillModelName, positionMode: 'NET' | 'BOTH') {
  const t = aSim({
    fillModel,
    positionMode,
    loans: LOANS,
    instruments: [anInstrument(BTC), anInstrument(ETH)],
    startingBalances: { USDT: D(START) },
  });
  const problems: string[] = [];
  const lo = new Map<string, number>();
  const hi = new Map<string, number>();
  let now = 0;
  let checked = 0;
  const last = new Map<string, Order>();
  const bars = process.env.FUZZ_BARS === '1';
  for (const step of steps) {
    now += bars ? 60_000 : 1;
    try {
      if ('wait' in step) {
        now += step.wait;
        t.sim.advanceTo(now);
      } else if ('event' in step) {
        const e = { ...step.event, ts: now, recvTs: now } as MarketEvent & { sym: string };
        if (e.kind === 'trade') (e as { tradeId: string }).tradeId = `t${now}`;
        if (e.kind === 'bar') (e as { openTime: number }).openTime = now - 60_000;
        if (e.kind === 'markPrice' && e.nextFundingTime !== undefined)
          (e as { nextFundingTime: number }).nextFundingTime = now + 2;
        const prices =
          e.kind === 'quote'
            ? [e.bid, e.ask]
            : e.kind === 'trade'
              ? [e.price]
              : e.kind === 'markPrice'
                ? [e.markPrice]
                : e.kind === 'bar'
                  ? [e.high, e.low]
                  : [];
        for (const p of prices) {
          lo.set(e.sym, Math.min(lo.get(e.sym) ?? Number.POSITIVE_INFINITY, p));
          hi.set(e.sym, Math.max(hi.get(e.sym) ?? Number.NEGATIVE_INFINITY, p));
        }
        t.sim.onMarket(e);
      } else {
        let intent = step.intent;
        if ('positionSide' in intent && (intent.positionSide as string) === 'AUTO') {
          const mode = t.of('account').at(-1)?.account.positionMode ?? positionMode;
          const side = 'side' in intent ? intent.side : 'BUY';
          const ro = 'reduceOnly' in intent && intent.reduceOnly;
          const ps: PositionSide = mode === 'NET' ? 'NONE' : (side === 'BUY') !== ro ? 'LONG' : 'SHORT';
          intent = { ...intent, positionSide: ps } as Intent;
        }
        t.send(intent);
        t.sim.advanceTo(now);
      }
    } catch (err) {
      problems.push(`threw at step ${JSON.stringify(step)}: ${(err as Error).stack}`);
      break;
    }
    for (const ev of t.events.slice(checked)) {
      if (ev.kind === 'execution') {
        const x = ev.execution;
        const p = x.price.toNumber();
        const slack = 0.1 + 1e-9;
        const l = lo.get(x.sym) ?? Number.NaN;
        const h = hi.get(x.sym) ?? Number.NaN;
        if (!(p >= l - slack && p <= h + slack))
          problems.push(`fill ${x.clientOrderId} ${x.execType} at ${p} outside [${l}, ${h}] on ${x.sym}`);
      } else if (ev.kind === 'order') {
        const o = ev.order;
        const prev = last.get(o.clientOrderId);
        if (prev && FINAL.has(prev.orderState))
          problems.push(`${o.clientOrderId}: ${prev.orderState} -> ${o.orderState}`);
        if (o.executedQty.gt(o.orderQty))
          problems.push(`${o.clientOrderId}: executed ${o.executedQty} > qty ${o.orderQty}`);
        if (o.executedQty.lt(0) || o.orderQty.lt(0)) problems.push(`${o.clientOrderId}: negative qty`);
        if (prev && o.executedQty.lt(prev.executedQty))
          problems.push(`${o.clientOrderId}: executed went back ${prev.executedQty} -> ${o.executedQty}`);
        if (o.orderState === 'REJECTED') {
          const code = Number(/^(-?\d+)/.exec(o.reason ?? '')?.[1]);
          if (!CODES.has(code)) problems.push(`${o.clientOrderId}: REJECTED without a code: ${o.reason}`);
        }
        last.set(o.clientOrderId, o);
      } else if (ev.kind === 'commandRejected') {
        if (!CODES.has(ev.code) && ev.code >= 0)
          problems.push(`${ev.ref} ${ev.intentKind}: rejected with unknown code ${ev.code} ${ev.message}`);
      }
    }
    checked = t.events.length;
  }
  // accounting
  const snap = await t.sim.snapshot();
  const fills = t.of('execution').map((e) => e.execution);
  const sum = (v: Dec[]) => v.reduce((a, b) => a.plus(b), ZERO);
  const realized = sum(fills.map((f) => f.rpnl));
  const fees = sum(fills.map((f) => f.fee.minus(f.rebate)));
  const cash = snap.assets.find((a) => a.coin === 'USDT')?.balance ?? ZERO;
  const flows = t.sim.statement();
  const nonFill = sum(flows.filter((f) => f.type !== 'LIQUIDATION_FEE').map((f) => f.amount));
  const expectCash = D(START).plus(realized).minus(fees).plus(nonFill);
  if (!cash.eq(expectCash))
    problems.push(
      `cash ${cash.toFixed()} != start + realized - fees + flows ${expectCash.toFixed()} (flows ${flows.map((f) => `${f.type}:${f.amount}`).join(',')})`,
    );
  // User Data vs the sim's own state
  const lastPos = new Map<string, Dec>();
  for (const { position: p } of t.of('position')) lastPos.set(`${p.sym}/${p.positionSide}`, p.positionQty);
  const snapPos = new Map(snap.positions.map((p) => [`${p.sym}/${p.positionSide}`, p.positionQty]));
  for (const [k, q] of lastPos)
    if (!(snapPos.get(k) ?? ZERO).eq(q))
      problems.push(
        `position ${k}: stream says ${q.toFixed()}, snapshot ${(snapPos.get(k) ?? ZERO).toFixed()}`,
      );
  for (const [k, q] of snapPos)
    if (!(lastPos.get(k) ?? ZERO).eq(q))
      problems.push(`position ${k}: snapshot ${q.toFixed()} never streamed`);
  const lastAsset = t.of('asset').at(-1)?.asset;
  if (lastAsset && !lastAsset.balance.eq(cash))
    problems.push(`asset stream ${lastAsset.balance.toFixed()} vs snapshot ${cash.toFixed()}`);
  // open orders on the stream == snapshot open orders
  const openStream = [...last.values()]
    .filter((o) => !FINAL.has(o.orderState))
    .map((o) => o.clientOrderId)
    .sort();
  const openSnap = snap.openOrders.map((o) => o.clientOrderId).sort();
  if (JSON.stringify(openStream) !== JSON.stringify(openSnap))
    problems.push(`open orders: stream ${openStream} vs snapshot ${openSnap}`);
  const fingerprint = JSON.stringify(t.events);
  return { problems, events: t.events, fingerprint };
}

import fc from 'fast-check';
import type { Intent, MarketEvent } from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';
import { aLimit, aMarket, BTC } from './sim-builders.ts';

/** One step of a random session: a market event or a command (sent at the current time). */
export type SimStep = { readonly event: MarketEvent } | { readonly intent: Intent };

const tick = (units: number) => Math.round(units) / 10;

/**
 * A random market event on BTC around 100 (prices on the 0.1 tick between 80 and 120, sizes on the
 * 0.001 lot), at `ts`.
 * @param ts - event time
 * @returns an arbitrary quote, trade or mark event
 */
export function arbitraryMarketEvent(ts: number): fc.Arbitrary<MarketEvent> {
  const size = fc.integer({ min: 1, max: 3000 }).map((n) => n / 1000);
  return fc.oneof(
    fc
      .record({
        mid: fc.integer({ min: 801, max: 1199 }),
        spread: fc.integer({ min: 1, max: 5 }),
        bq: size,
        aq: size,
      })
      .map(
        ({ mid, spread, bq, aq }): MarketEvent => ({
          kind: 'quote',
          sym: BTC,
          ts,
          recvTs: ts,
          bid: tick(mid),
          bidQty: bq,
          ask: tick(mid + spread),
          askQty: aq,
        }),
      ),
    fc.record({ price: fc.integer({ min: 800, max: 1200 }), qty: size, buy: fc.boolean() }).map(
      ({ price, qty, buy }): MarketEvent => ({
        kind: 'trade',
        sym: BTC,
        ts,
        recvTs: ts,
        tradeId: `t${ts}`,
        price: tick(price),
        qty,
        side: buy ? 'BUY' : 'SELL',
      }),
    ),
    fc
      .integer({ min: 800, max: 1200 })
      .map((price): MarketEvent => ({ kind: 'markPrice', sym: BTC, ts, recvTs: ts, markPrice: tick(price) })),
  );
}

/**
 * A random command on BTC: limit (any time in force, maybe reduce-only), market, cancel or modify of
 * one of the refs `o0..o{n}`.
 * @param ref - the new command's reference
 * @param known - how many order refs exist so far
 * @returns an arbitrary intent
 */
export function arbitraryCommand(ref: string, known: number): fc.Arbitrary<Intent> {
  const qty = fc.integer({ min: 1, max: 2000 }).map((n) => D(n).div(1000).toFixed());
  const price = fc.integer({ min: 800, max: 1200 }).map((n) => D(n).div(10).toFixed());
  const side = fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL');
  const target = fc.integer({ min: 0, max: Math.max(0, known - 1) }).map((i) => `o${i}`);
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .record({
          side,
          qty,
          price,
          tif: fc.constantFrom('GTC', 'IOC', 'FOK', 'GTX', 'DAY' as const),
          ro: fc.boolean(),
        })
        .map(({ side, qty, price, tif, ro }) =>
          aLimit(ref, side, qty, price, { timeInForce: tif, reduceOnly: ro }),
        ),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({ side, qty, ro: fc.boolean() })
        .map(({ side, qty, ro }) => aMarket(ref, side, qty, { reduceOnly: ro })),
    },
    {
      weight: 1,
      arbitrary: target.map((t): Intent => ({ kind: 'cancelOrder', ref: `c-${ref}`, target: t, sym: BTC })),
    },
    {
      weight: 1,
      arbitrary: fc.record({ t: target, price }).map(
        ({ t, price }): Intent => ({
          kind: 'modifyOrder',
          ref: `m-${ref}`,
          target: t,
          sym: BTC,
          price: D(price),
        }),
      ),
    },
  );
}

/**
 * A random session: a quote first, then up to `maxSteps` events and commands, time advancing 1 ms
 * per step.
 * @param maxSteps - longest session
 * @returns an arbitrary list of steps
 */
export function arbitrarySession(maxSteps = 60): fc.Arbitrary<SimStep[]> {
  return fc.array(fc.boolean(), { minLength: 1, maxLength: maxSteps }).chain((kinds) => {
    let orders = 0;
    const steps = kinds.map((isEvent, i): fc.Arbitrary<SimStep> => {
      if (isEvent || i === 0) return arbitraryMarketEvent(i + 1).map((event) => ({ event }));
      const ref = `o${orders++}`;
      return arbitraryCommand(ref, orders).map((intent) => ({ intent }));
    });
    return fc.tuple(...steps);
  });
}

/**
 * A random bar session on BTC: 1m bars (prices on the 0.1 tick, high >= open, close >= low) and
 * commands (limits, markets, some with tp / sl) between them.
 * @param maxSteps - longest session
 * @returns an arbitrary list of steps; bar i closes at (i + 1) minutes
 */
export function arbitraryBarSession(maxSteps = 40): fc.Arbitrary<SimStep[]> {
  const bar = (ts: number) =>
    fc
      .record({
        open: fc.integer({ min: 900, max: 1100 }),
        up: fc.integer({ min: 0, max: 30 }),
        down: fc.integer({ min: 0, max: 30 }),
        close: fc.integer({ min: 0, max: 1000 }),
      })
      .map(({ open, up, down, close }): MarketEvent => {
        const high = open + up;
        const low = open - down;
        return {
          kind: 'bar',
          sym: BTC,
          ts,
          recvTs: ts,
          interval: '1m',
          openTime: ts - 60_000,
          open: tick(open),
          high: tick(high),
          low: tick(low),
          close: tick(low + ((high - low) * close) / 1000),
          volume: 10,
          closed: true,
        };
      });
  const price = fc.integer({ min: 880, max: 1120 }).map((n) => D(n).div(10));
  const command = (ref: string) =>
    fc.oneof(
      fc
        .record({ side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'), price })
        .map(({ side, price }) => aLimit(ref, side, '0.5', price.toFixed())),
      fc
        .record({ side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'), tp: price, sl: price })
        .map(({ side, tp, sl }) =>
          aMarket(ref, side, '0.5', {
            tp: { triggerPrice: D.max(tp, sl), triggerType: 'LastPrice', price: D(0) },
            sl: { triggerPrice: D.min(tp, sl), triggerType: 'LastPrice', price: D(0) },
          }),
        ),
    );
  return fc.array(fc.boolean(), { minLength: 1, maxLength: maxSteps }).chain((kinds) => {
    let bars = 0;
    const steps = kinds.map((isBar, i): fc.Arbitrary<SimStep> => {
      if (isBar || i === 0) return bar(++bars * 60_000).map((event) => ({ event }));
      return command(`o${i}`).map((intent) => ({ intent }));
    });
    return fc.tuple(...steps);
  });
}

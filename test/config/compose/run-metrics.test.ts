import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { UserDataJournal } from '../../../config/compose/user-data-journal.ts';
import type { IntentDenied } from '../../../core/kernel/index.ts';
import { D, type Position, type StrategyIntent, type VenueStatus } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { createInboundCounters } from '../../../core/venue/index.ts';
import { anOrderUpdate } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';
import { spillDirectoriesDisposedAfterEach } from '../../kit/temp-dirs.ts';

const aSpillDirectory = spillDirectoriesDisposedAfterEach('keel-test-run-metrics-');

let metrics: RunMetrics | undefined;
afterEach(async () => {
  await metrics?.close();
  metrics = undefined;
});

const aPlaceOrder = (ref: string, qty: string) => ({
  strategyId: 's',
  intent: {
    kind: 'placeOrder' as const,
    ref,
    sym: 'BINANCE_PERP_BTC_USDT',
    side: 'BUY' as const,
    orderType: 'LIMIT' as const,
    qty: D(qty),
    price: D(100),
    timeInForce: 'GTC' as const,
    reduceOnly: false,
    positionSide: 'NONE' as const,
  },
});

describe('run metrics', () => {
  it('says whether the gate it counts for looks at equity, so the kernel values equity only for a kill switch', () => {
    metrics = new RunMetrics(() => 0);
    expect(metrics.timingGate(new RiskGate()).watchesEquity?.()).toBe(false);
    const armed = new RiskGate({ killSwitch: { dailyLossLimit: '2000' } });
    expect(metrics.timingGate(armed).watchesEquity?.()).toBe(true);
  });

  it("passes on the gate's trading status, so a session's halt sweep goes on while a strategy is HALTED", () => {
    metrics = new RunMetrics(() => 0);
    const gate = new RiskGate();
    gate.halt('operator', 'mm');
    const timed = metrics.timingGate(gate);
    expect(timed.status?.('mm').state).toBe('HALTED');
    expect(timed.status?.('other').state).toBe('ACTIVE');
  });

  it('forgets the send time of an approved order the venue rejected, so a long run holds only those awaiting an answer', async () => {
    let now = 1_000;
    metrics = new RunMetrics(() => now);
    const gate = metrics.timingGate(new RiskGate({ limits: { maxNotionalPerOrder: 1000 } }));
    const journal = new UserDataJournal(metrics, undefined, () => 's', { dir: aSpillDirectory() });
    for (let i = 0; i < 1_000; i++) {
      expect(gate.evaluate(aPlaceOrder(`r-${i}`, '1'), aRiskView()).kind).toBe('approved');
      now += 5;
      // Every other one refused by the venue, the rest acknowledged.
      const state = i % 2 === 0 ? 'REJECTED' : 'OPEN';
      journal.observe(
        anOrderUpdate(
          anOrder({ orderId: `O-${i}`, clientOrderId: `r-${i}`, orderState: state, updateAt: now }),
        ),
      );
    }
    expect(gate.evaluate(aPlaceOrder('pending', '1'), aRiskView()).kind).toBe('approved');
    expect(metrics.awaitingAcks).toBe(1);
    const url = await metrics.listen('127.0.0.1', 0);
    // Only the acknowledged ones have a latency.
    expect(await (await fetch(url)).text()).toContain('keel_order_latency_seconds_count 500');
  });

  it('notes no send time for a trailing stop approved when placed: the kernel holds it, its order is timed when it fires', () => {
    metrics = new RunMetrics(() => 0);
    const gate = metrics.timingGate(new RiskGate());
    const { strategyId, intent } = aPlaceOrder('trail-1', '1');
    const trailingStop = { offsetType: 'TICKS', offset: D(5), triggerOn: 'last' } as const;
    const { price: _price, ...market } = {
      ...intent,
      orderType: 'MARKET' as const,
      timeInForce: 'IOC' as const,
    };
    expect(gate.evaluate({ strategyId, intent: { ...market, trailingStop } }, aRiskView()).kind).toBe(
      'approved',
    );
    expect(metrics.awaitingAcks).toBe(0);
    expect(gate.evaluate({ strategyId, intent: market }, aRiskView()).kind).toBe('approved');
    expect(metrics.awaitingAcks).toBe(1);
  });

  it('serves intents and denials as the kernel reports them, order latency and equity on /metrics', async () => {
    let now = 1_000;
    metrics = new RunMetrics(() => now);
    const gate = metrics.timingGate(new RiskGate({ limits: { maxNotionalPerOrder: 1000 } }));
    const intents = new Subject<StrategyIntent>();
    const denials = new Subject<IntentDenied>();
    metrics.countIntents(intents);
    metrics.countDenials(denials);
    const view = aRiskView();
    const order = (ref: string, qty: string) => ({
      strategyId: 's',
      intent: {
        kind: 'placeOrder' as const,
        ref,
        sym: 'BINANCE_PERP_BTC_USDT',
        side: 'BUY' as const,
        orderType: 'LIMIT' as const,
        qty: D(qty),
        price: D(100),
        timeInForce: 'GTC' as const,
        reduceOnly: false,
        positionSide: 'NONE' as const,
      },
    });
    for (const [ref, qty] of [
      ['small', '1'],
      ['big', '100'],
    ] as const)
      intents.next(order(ref, qty));
    expect(gate.evaluate(order('small', '1'), view).kind).toBe('approved');
    const decision = gate.evaluate(order('big', '100'), view);
    expect(decision.kind).toBe('denied');
    if (decision.kind === 'denied') denials.next({ ...aDenial('risk', decision.check), ref: 'big' });
    // Keel's own cancel sweep goes through the gate, but is no strategy's intent.
    gate.evaluate(
      { strategyId: 'keel', intent: { kind: 'cancelOrders', ref: 'k-1', targets: ['small'] } },
      view,
    );
    now += 25;
    metrics.acknowledged('small');
    const url = await metrics.listen('127.0.0.1', 0);
    // Unknown until the first reconciliation: absent, not a 0 an alert reads as a total loss.
    expect(await (await fetch(url)).text()).not.toMatch(/^keel_equity /m);
    metrics.observeEquity(100_000);
    const text = await (await fetch(url)).text();
    expect(text).toContain('keel_intents_total{kind="placeOrder"} 2');
    expect(text).not.toContain('keel_intents_total{kind="cancelOrders"}');
    expect(text).toMatch(/keel_denials_total\{check="maxNotional\w*"\} 1/);
    expect(text).toContain('keel_order_latency_seconds_count 1');
    expect(text).toContain('keel_order_latency_seconds_bucket{le="0.025"} 1');
    expect(text).toContain('keel_equity 100000');
    expect(metrics.intentTotal).toBe(2);
  });

  it("counts the kernel's denials and the venue's refusals by check, and the gate's once", async () => {
    metrics = new RunMetrics(() => 0);
    const gate = metrics.timingGate(new RiskGate({ limits: { maxNotionalPerOrder: 1000 } }));
    const denials = new Subject<IntentDenied>();
    metrics.countDenials(denials);
    const denial = aDenial;
    // The gate's denial reaches the kernel's denials too: it counts once.
    const decision = gate.evaluate(aPlaceOrder('big', '100'), aRiskView());
    expect(decision.kind).toBe('denied');
    if (decision.kind === 'denied') denials.next(denial('risk', decision.check));
    denials.next(denial('venue', 'venue.401058'));
    denials.next(denial('venue', 'venue.401058'));
    denials.next(denial('venue', 'venue.-1'));
    denials.next(denial('kernel', 'kernel.ownership'));
    const text = await metrics.scrape();
    expect(text).toMatch(/keel_denials_total\{check="maxNotional\w*"\} 1\n/);
    expect(text).toContain('keel_denials_total{check="venue.401058"} 2\n');
    expect(text).toContain('keel_denials_total{check="venue.-1"} 1\n');
    expect(text).toContain('keel_denials_total{check="kernel.ownership"} 1\n');
  });

  it('serves the positions by sym and leg and the open orders by sym, as the kernel holds them when scraped', async () => {
    metrics = new RunMetrics(() => 0);
    const position = (sym: string, side: 'NONE' | 'LONG' | 'SHORT', qty: string) =>
      ({ sym, positionSide: side, positionQty: D(qty) }) as Position;
    const positions = new Map([
      ['a', position('BINANCE_PERP_BTC_USDT', 'NONE', '-0.5')],
      ['b', position('BINANCE_PERP_ETH_USDT', 'SHORT', '2')],
    ]);
    let orders = [anOrder({ clientOrderId: 'x' }), anOrder({ clientOrderId: 'y' })];
    metrics.watchBook({ positions, openOrders: () => orders }, [
      'BINANCE_PERP_BTC_USDT',
      'BINANCE_PERP_ETH_USDT',
    ]);
    let text = await metrics.scrape();
    expect(text).toContain('keel_position_qty{sym="BINANCE_PERP_BTC_USDT",side="NONE"} -0.5\n');
    expect(text).toContain('keel_position_qty{sym="BINANCE_PERP_ETH_USDT",side="SHORT"} -2\n');
    expect(text).toContain(`keel_open_orders{sym="${orders[0]?.sym}"} 2\n`);
    expect(text).toContain('keel_open_orders{sym="BINANCE_PERP_ETH_USDT"} 0\n');
    positions.delete('b');
    orders = [];
    text = await metrics.scrape();
    expect(text).not.toContain('keel_position_qty{sym="BINANCE_PERP_ETH_USDT"');
    // A sym with no open order left reads 0: its series does not vanish.
    expect(text).toContain('keel_open_orders{sym="BINANCE_PERP_BTC_USDT"} 0\n');
    expect(text).toContain('keel_open_orders{sym="BINANCE_PERP_ETH_USDT"} 0\n');
  });

  it("serves the process's memory, CPU, event-loop lag and heap beside Keel's own metrics", async () => {
    metrics = new RunMetrics(() => 0);
    const url = await metrics.listen('127.0.0.1', 0);
    const text = await (await fetch(url)).text();
    for (const name of [
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ])
      expect(text).toMatch(new RegExp(`^${name} \\d`, 'm'));
  });

  it('serves the venue connection per stream, reconnects, reconciliation and the inbound malformed and unexpected counts', async () => {
    metrics = new RunMetrics(() => 0);
    const status = new Subject<VenueStatus>();
    const counters = {
      private: createInboundCounters(),
      market: createInboundCounters(),
      rest: createInboundCounters(),
    };
    metrics.watchVenue(status, counters);
    status.next({ stream: 'private', state: 'up', ts: 0 });
    status.next({ stream: 'private', state: 'reconciled', ts: 0 });
    status.next({ stream: 'market', state: 'up', ts: 0 });
    status.next({ stream: 'private', state: 'down', ts: 1 });
    status.next({ stream: 'market', state: 'down', ts: 1 });
    status.next({ stream: 'market', state: 'up', ts: 2 });
    counters.private.malformed = 3;
    counters.market.unexpected = 2;
    const url = await metrics.listen('127.0.0.1', 0);
    const text = await (await fetch(url)).text();
    expect(text).toContain('keel_venue_connected{stream="private"} 0');
    expect(text).toContain('keel_venue_connected{stream="market"} 1');
    expect(text).toContain('keel_venue_reconciled 0');
    expect(text).toContain('keel_venue_reconnects_total{stream="market"} 1');
    expect(text).not.toContain('keel_venue_reconnects_total{stream="private"} 1');
    expect(text).toContain('keel_venue_inbound_total{source="private",outcome="malformed"} 3');
    expect(text).toContain('keel_venue_inbound_total{source="market",outcome="unexpected"} 2');
    expect(text).toContain('keel_venue_inbound_total{source="rest",outcome="malformed"} 0');
    counters.private.malformed = 4;
    status.next({ stream: 'private', state: 'up', ts: 3 });
    status.next({ stream: 'private', state: 'reconciled', ts: 4 });
    const again = await (await fetch(url)).text();
    expect(again).toContain('keel_venue_inbound_total{source="private",outcome="malformed"} 4');
    expect(again).toContain('keel_venue_reconnects_total{stream="private"} 1');
    expect(again).toContain('keel_venue_reconciled 1');
  });

  // They were absent until their first increment: a rate or an alert on them read no data, not 0.
  it('serves the counters whose label values are known from the start at 0', async () => {
    metrics = new RunMetrics(() => 0);
    metrics.watchVenue(new Subject<VenueStatus>(), {
      private: createInboundCounters(),
      market: createInboundCounters(),
      rest: createInboundCounters(),
    });
    metrics.watchStrategies(['mm', 'sma']);
    const text = await metrics.scrape();
    for (const series of [
      'keel_venue_reconnects_total{stream="private"} 0',
      'keel_venue_reconnects_total{stream="market"} 0',
      'keel_kill_switch_trips_total{state="HALTED"} 0',
      'keel_kill_switch_trips_total{state="REDUCING"} 0',
      'keel_strategy_faults_total{strategy="mm"} 0',
      'keel_strategy_faults_total{strategy="sma"} 0',
      'keel_liquidations_total{type="PARTIAL_LIQUIDATION"} 0',
      'keel_liquidations_total{type="FULL_LIQUIDATION"} 0',
    ])
      expect(text).toContain(`${series}\n`);
    expect(text).not.toContain('keel_venue_reconnects_total{stream="rest"}');
  });

  it('is ready on /readyz only while the private stream is reconciled and the market stream up, as keel_venue_reconciled and keel_venue_connected read', async () => {
    metrics = new RunMetrics(() => 0);
    const status = new Subject<VenueStatus>();
    metrics.watchVenue(status, {
      private: createInboundCounters(),
      market: createInboundCounters(),
      rest: createInboundCounters(),
    });
    const url = await metrics.listen('127.0.0.1', 0);
    const probe = async (path: string) => {
      const response = await fetch(new URL(path, url));
      return `${response.status} ${await response.text()}`;
    };
    expect(await probe('/readyz')).toBe(
      '503 not ready: the private stream has not connected yet; the market stream has not connected yet\n',
    );
    status.next({ stream: 'market', state: 'up', ts: 0 });
    status.next({ stream: 'private', state: 'up', ts: 0 });
    expect(await probe('/readyz')).toBe(
      '503 not ready: the private stream is not reconciled yet: new orders are denied\n',
    );
    status.next({ stream: 'private', state: 'reconciled', ts: 1 });
    expect(await probe('/readyz')).toBe('200 ready\n');
    expect(await (await fetch(url)).text()).toContain('keel_venue_reconciled 1');
    status.next({ stream: 'private', state: 'down', ts: 2, reason: 'closed with code 1006' });
    expect(await probe('/readyz')).toBe(
      '503 not ready: the private stream is down (closed with code 1006)\n',
    );
    status.next({ stream: 'private', state: 'up', ts: 3, reason: 'the execution history cannot be read' });
    expect(await probe('/readyz')).toBe(
      '503 not ready: the private stream is not reconciled yet (the execution history cannot be read): new orders are denied\n',
    );
    expect(await probe('/healthz')).toBe('200 ok\n');
  });
});

/** A denial as the kernel reports it. */
function aDenial(source: IntentDenied['source'], check: string): IntentDenied {
  return {
    kind: 'denied',
    strategyId: 's',
    ref: 'r',
    intentKind: 'placeOrder',
    source,
    check,
    reason: 'why',
    ts: 0,
  };
}

import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { MarkPriceEvent, PositionUpdateEvent, UserEvent } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { anAccountUpdate, aPositionUpdate, aTrade } from '../../kit/kernel-events.ts';
import { tempDir, writeRecording } from '../../kit/recording-files.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'BINANCE_PERP_ETH_USDT';
const T0 = Date.UTC(2025, 0, 7);
const MIN = 60_000;
const FAR = T0 + 8 * 3_600_000;

function bbo(t: number, sym: string, bid: string, ask: string): RecordedMessage {
  return {
    recvTs: t,
    source: 'market-data',
    msg: { arg: { channel: 'BBO', sym }, data: { bid, bidqty: '50', ask, askqty: '50', ts: t } },
  };
}
function mark(
  t: number,
  sym: string,
  markPrice: string,
  fundingRate: string,
  nextFundingTime: number,
): RecordedMessage {
  return {
    recvTs: t,
    source: 'market-data',
    msg: { arg: { channel: 'MARK_PRICE', sym }, data: { markPrice, ts: t, fundingRate, nextFundingTime } },
  };
}

const seen: { ts: number; equity: string }[] = [];
const pair = defineStrategy<Record<string, never>, { opened: boolean }>({
  name: 'pair',
  params: z.object({}).strict(),
  state: () => ({ opened: false }),
  onStart: (ctx) => {
    ctx.every(30_000, 'tick');
  },
  onTimer: (ctx) => {
    seen.push({ ts: ctx.now(), equity: ctx.equity().toFixed() });
    if (ctx.state.opened) return undefined;
    ctx.state.opened = true;
    return [
      ctx.order.market({ sym: BTC, side: 'BUY', qty: D(1) }),
      ctx.order.market({ sym: ETH, side: 'SELL', qty: D(10) }),
    ];
  },
});

const dirs: (() => void)[] = [];
afterEach(() => {
  for (const remove of dirs.splice(0)) remove();
});

describe('ctx.equity() in a backtest between the venue’s reports (hand-computed)', () => {
  it('equals the venue’s equity after a liqPrice republish and a funding payment (hand-computed)', async () => {
    const { dir, remove } = tempDir();
    dirs.push(remove);
    const path = join(dir, 'two-perps.jsonl');
    const records: RecordedMessage[] = [
      mark(T0 + 1, BTC, '100000', '0', FAR),
      mark(T0 + 1, ETH, '3000', '0.0001', T0 + 3 * MIN),
      bbo(T0 + 2, BTC, '99999.9', '100000.0'),
      bbo(T0 + 2, ETH, '3000.0', '3000.1'),
      // ETH up 50: the BTC leg's liqPrice moves ~0.6 %, the venue republishes BTC (a position report alone).
      mark(T0 + MIN, ETH, '3050', '0.0001', T0 + 3 * MIN),
      bbo(T0 + MIN + 1, ETH, '3050.0', '3050.1'),
      // BTC down 1000: the ETH leg's liqPrice moves, the venue republishes ETH.
      mark(T0 + 2 * MIN, BTC, '99000', '0', FAR),
      bbo(T0 + 2 * MIN + 1, BTC, '98999.9', '99000.0'),
      // ETH funding at T0+3m, mark 3050, +0.01 %: the short 10 receives 10 x 3050 x 0.0001 = 3.05.
      mark(T0 + 3 * MIN + 1, ETH, '3050', '0.0001', FAR),
      bbo(T0 + 4 * MIN, BTC, '98999.9', '99000.0'),
      bbo(T0 + 5 * MIN, BTC, '98999.9', '99000.0'),
    ];
    await writeRecording(path, records);
    const zeroFees = { maker: D('0'), taker: D('0'), markup: D('0'), fixedPerFill: D('0') };
    const result = await runBacktest({
      recordings: [path],
      decode: decodeMarketRecord,
      instruments: [
        anInstrument(BTC, { fees: zeroFees, defaultLeverage: D('20') }),
        anInstrument(ETH, {
          fees: zeroFees,
          defaultLeverage: D('20'),
          tickSize: D('0.1'),
          lotSize: D('0.01'),
          minSize: D('0.01'),
        }),
      ],
      strategies: [{ id: 'p', strategy: pair, params: {} }],
      gate: new RiskGate(),
      startingCash: D(20_000),
      closeAtEnd: false,
      fillModel: 'touch',
      latency: { orderEntry: { fixedMs: 0, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    // Bought 1 BTC at 100000.0, sold 10 ETH at 3000.0, no fees.
    expect(
      [...result.fills].map((f) => `${f.side} ${f.quantity.toFixed()} ${f.sym} @ ${f.price.toFixed()}`),
    ).toEqual([`BUY 1 ${BTC} @ 100000`, `SELL 10 ${ETH} @ 3000`]);
    expect((result.cashFlows ?? []).map((f) => `${f.kind} ${f.amount.toFixed()}`)).toEqual([
      'FUNDING_FEE 3.05',
    ]);
    // 20000 + (99000 - 100000) - 10 x (3050 - 3000) + 3.05
    const truth = '18503.05';
    expect(result.equityCurve.at(-1)?.equity.toFixed()).toBe(truth);
    const afterFunding = seen.filter((s) => s.ts > T0 + 3 * MIN + 1);
    expect(afterFunding.length).toBeGreaterThan(0);
    expect(afterFunding.map((s) => s.equity)).toEqual(afterFunding.map(() => truth));
  });

  it('equals the venue’s equity after the account enters MARGIN_CALL on a mark (hand-computed)', async () => {
    const { dir, remove } = tempDir();
    dirs.push(remove);
    const path = join(dir, 'margin-call.jsonl');
    seen.length = 0;
    const shortOnly = defineStrategy<Record<string, never>, { opened: boolean }>({
      name: 'short-eth',
      params: z.object({}).strict(),
      state: () => ({ opened: false }),
      onStart: (ctx) => {
        ctx.every(30_000, 'tick');
      },
      onTimer: (ctx) => {
        seen.push({ ts: ctx.now(), equity: ctx.equity().toFixed() });
        if (ctx.state.opened) return undefined;
        ctx.state.opened = true;
        return ctx.order.market({ sym: ETH, side: 'SELL', qty: D(10) });
      },
    });
    // Short 10 ETH at 3000 on 1600 USDT: equity 31600 - 10p, maintenance 0.05p. MARGIN_CALL (0.8)
    // from p = 3140.37, liquidation from p = 3144.28: the mark 3142 enters MARGIN_CALL only.
    await writeRecording(path, [
      mark(T0 + 1, ETH, '3000', '0', FAR),
      bbo(T0 + 2, ETH, '3000.0', '3000.1'),
      mark(T0 + MIN, ETH, '3100', '0', FAR),
      mark(T0 + 2 * MIN, ETH, '3130', '0', FAR),
      mark(T0 + 3 * MIN, ETH, '3142', '0', FAR),
      bbo(T0 + 4 * MIN, ETH, '3141.9', '3142.0'),
      bbo(T0 + 5 * MIN, ETH, '3141.9', '3142.0'),
    ]);
    const zeroFees = { maker: D('0'), taker: D('0'), markup: D('0'), fixedPerFill: D('0') };
    const result = await runBacktest({
      recordings: [path],
      decode: decodeMarketRecord,
      instruments: [
        anInstrument(ETH, {
          fees: zeroFees,
          defaultLeverage: D('20'),
          tickSize: D('0.1'),
          lotSize: D('0.01'),
          minSize: D('0.01'),
        }),
      ],
      strategies: [{ id: 's', strategy: shortOnly, params: {} }],
      gate: new RiskGate(),
      startingCash: D(1600),
      closeAtEnd: false,
      fillModel: 'touch',
      latency: { orderEntry: { fixedMs: 0, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    expect([...result.fills].map((f) => `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()}`)).toEqual([
      'SELL 10 @ 3000',
    ]);
    expect(result.liquidations).toEqual([]);
    const truth = '180'; // 1600 - 10 x (3142 - 3000)
    expect(result.equityCurve.at(-1)?.equity.toFixed()).toBe(truth);
    const afterCall = seen.filter((s) => s.ts > T0 + 3 * MIN);
    expect(afterCall.map((s) => s.equity)).toEqual(afterCall.map(() => truth));
  });
});

/** A mark of BTC (the kit's default sym) stamped and received at `ts`. */
function aMark(ts: number, markPrice: number): MarkPriceEvent {
  return { kind: 'markPrice', ts, recvTs: ts, sym: 'BINANCE_PERP_BTC_USDT', markPrice };
}

/** The venue's position report of a NET leg of `qty` (signed) opened at 3000, valued at `mark`. */
function aLeg(ts: number, qty: number, mark: number): PositionUpdateEvent {
  return aPositionUpdate(ts, String(Math.abs(qty)), {
    positionQty: D(qty),
    avgPrice: D(3000),
    markPrice: D(mark),
    unrealizedPNL: D(qty * (mark - 3000)),
  });
}

describe('venue equity marks: an account report sent alone, before or after the mark of its instant', () => {
  // Short 10 @ 3000 on 1600: the venue's equity at mark p is 1600 - 10 (p - 3000).
  const opened = (): UserEvent[] => [aLeg(30, -10, 3000), anAccountUpdate(30, '1600')];

  it('does not count the move to the mark that caused a margin call twice when the report comes first', () => {
    const { kernel } = aKernelRig([]);
    for (const event of [...opened(), aMark(60, 3100), aMark(120, 3130)]) kernel.push(event);
    expect(kernel.state.equity().toFixed()).toBe('300');
    // The venue marks 3142 at 180 and enters MARGIN_CALL: its account report overtakes the mark.
    kernel.push(anAccountUpdate(180, '180'));
    expect(kernel.state.equity().toFixed()).toBe('180');
    kernel.push(aMark(180, 3142));
    expect(kernel.state.equity().toFixed()).toBe('180');
    expect(kernel.state.equityEstimate()?.value).toBeCloseTo(180, 9);
    // Later marks move it from there.
    kernel.push(aMark(240, 3140));
    expect(kernel.state.equity().toFixed()).toBe('200');
  });

  it('values the same when the mark comes first', () => {
    const { kernel } = aKernelRig([]);
    for (const event of [...opened(), aMark(60, 3100), aMark(120, 3130), aMark(180, 3142)])
      kernel.push(event);
    kernel.push(anAccountUpdate(180, '180'));
    expect(kernel.state.equity().toFixed()).toBe('180');
    kernel.push(aMark(240, 3140));
    expect(kernel.state.equity().toFixed()).toBe('200');
  });

  it('values a leg at the latest price rather than a position report older than it (a liqPrice republish, then interest)', () => {
    const { kernel } = aKernelRig([]);
    for (const event of opened()) kernel.push(event);
    kernel.push(aMark(60, 3100));
    // The venue republishes the leg alone at 3100 (its liqPrice moved), then the mark falls to 3050.
    kernel.push(aLeg(60, -10, 3100));
    kernel.push(aMark(120, 3050));
    // Interest of 1 at 150: the venue reports 1600 - 500 - 1 = 1099, at its mark 3050.
    kernel.push(anAccountUpdate(150, '1099'));
    expect(kernel.state.equity().toFixed()).toBe('1099');
    kernel.push(aMark(180, 3000));
    expect(kernel.state.equity().toFixed()).toBe('1599');
  });

  it('takes a position report sent with the account at its time over any price of that instant', () => {
    const { kernel } = aKernelRig([]);
    for (const event of [...opened(), aMark(60, 3100)]) kernel.push(event);
    // The venue sends the leg with its report at 90, at marks of 3115 and 3120 Keel has not seen.
    kernel.push(aLeg(90, -10, 3120));
    kernel.push(anAccountUpdate(90, '400'));
    // The mark of that instant, stamped before the report, and one stamped at it: both the report's.
    kernel.push(aMark(80, 3115));
    kernel.push(aMark(90, 3120));
    expect(kernel.state.equity().toFixed()).toBe('400');
    kernel.push(aMark(100, 3110));
    expect(kernel.state.equity().toFixed()).toBe('500');
  });

  it('holds a leg as a position report stamped at the account’s time that arrives after it (a fill)', () => {
    const { kernel } = aKernelRig([]);
    for (const event of [...opened(), aMark(60, 3100)]) kernel.push(event);
    // BUY 4 @ 3100 at 90: realized -400, cash 1200, short 6 at the mark 3100: equity 600. The
    // venue sends the account first, then the position.
    kernel.push(anAccountUpdate(90, '600'));
    kernel.push(aLeg(90, -6, 3100));
    expect(kernel.state.equity().toFixed()).toBe('600');
    kernel.push(aMark(120, 3200));
    expect(kernel.state.equity().toFixed()).toBe('0');
  });

  it('holds a leg as a position report stamped at the account’s time that arrives after it, market data ahead', () => {
    const { kernel } = aKernelRig([]);
    for (const event of [...opened(), aMark(60, 3100)]) kernel.push(event);
    // The same fill at 90 (equity 600, short 6), but the mark of 95 (3105) reaches Keel before the
    // account report of 90, and the position report of 90 comes last.
    kernel.push(aMark(95, 3105));
    kernel.push(anAccountUpdate(90, '600'));
    kernel.push(aLeg(90, -6, 3100));
    // 1200 - 6 x (3105 - 3000)
    expect(kernel.state.equity().toFixed()).toBe('570');
  });

  it('values a leg at its fill’s reports rather than at an older price (the fill traded later)', () => {
    const { kernel } = aKernelRig([]);
    for (const event of [...opened(), aMark(60, 3100)]) kernel.push(event);
    // BUY 4 @ 3130 at 90, above the mark 3100 of 60, the latest Keel has: realized 4 x -130 = -520,
    // cash 1080, short 6 at the fill's price: equity 1080 - 6 x 130 = 300, as the venue reports.
    kernel.push(aLeg(90, -6, 3130));
    kernel.push(anAccountUpdate(90, '300'));
    // Re-marked to 3100, an older price than the fill's, it would read 480: a gain that never was.
    expect(kernel.state.equity().toFixed()).toBe('300');
    expect(kernel.state.equityEstimate()?.value).toBeCloseTo(300, 9);
    // A newer price moves it: 1080 - 6 x 200.
    kernel.push(aMark(120, 3200));
    expect(kernel.state.equity().toFixed()).toBe('-120');
  });

  it('property: once the marks up to the latest report arrived, equity is the venue’s, whatever the order', () => {
    // Each instant k the venue marks m_k; at some instants it also reports the account (its cash,
    // changed by a charge, plus q (m_k - 3000)), sometimes with the position, before or after the
    // mark reaches Keel. Keel's equity is the venue's at the latest instant it has heard of.
    const instant = fc.record({
      mark: fc.integer({ min: 2500, max: 3500 }),
      report: fc.constantFrom('none', 'before', 'after', 'withPosition'),
      charge: fc.integer({ min: -50, max: 50 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }).filter((q) => q !== 0),
        fc.array(instant, { minLength: 1, maxLength: 12 }),
        (qty, instants) => {
          const { kernel } = aKernelRig([]);
          let cash = 100_000;
          kernel.push(aLeg(1, qty, 3000));
          kernel.push(anAccountUpdate(1, String(cash)));
          const venueEquity = (mark: number) => String(cash + qty * (mark - 3000));
          instants.forEach(({ mark, report, charge }, i) => {
            const ts = 1000 * (i + 1);
            if (report !== 'none') cash += charge;
            const account = anAccountUpdate(ts, venueEquity(mark));
            if (report === 'withPosition') kernel.push(aLeg(ts, qty, mark));
            if (report === 'before' || report === 'withPosition') kernel.push(account);
            // Sent alone, the report is the venue's word until its mark arrives.
            if (report === 'before') expect(kernel.state.equity().toFixed()).toBe(venueEquity(mark));
            kernel.push(aMark(ts, mark));
            if (report === 'after') kernel.push(account);
            expect(kernel.state.equity().toFixed()).toBe(venueEquity(mark));
          });
        },
      ),
    );
  });
});

describe('venue equity marks: fills and market data ahead of the venue’s reports', () => {
  // Per instant, the order the events reach Keel: P the position report of the instant (a fill's,
  // of a new size), A the account report, M the mark of the instant, N a mark half an instant
  // later (market data ahead). An account report alone (no P) never comes after N: Keel keeps only
  // the latest price, and would hold the leg at N's.
  const orders = [
    ...['PAMN', 'PMAN', 'PMNA', 'MPAN', 'MPNA', 'MNPA', 'APMN', 'AMPN', 'AMNP', 'MAPN', 'MANP', 'MNAP'],
    ...['PAM', 'PMA', 'APM', 'AMP', 'MPA', 'MAP'],
    ...['M', 'MN', 'AM', 'AMN', 'MA', 'MAN'],
  ];

  it('property: once an instant’s events arrived, equity is the venue’s at the latest mark, whatever the order', () => {
    const instant = fc.record({
      order: fc.constantFrom(...orders),
      mark: fc.integer({ min: 2500, max: 3500 }),
      ahead: fc.integer({ min: 2500, max: 3500 }),
      qty: fc.integer({ min: -20, max: 20 }),
      charge: fc.integer({ min: -50, max: 50 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }).filter((q) => q !== 0),
        fc.array(instant, { minLength: 1, maxLength: 12 }),
        (opening, instants) => {
          const { kernel } = aKernelRig([]);
          let cash = 100_000;
          let qty = opening;
          let latest = 3000;
          kernel.push(aLeg(1, qty, 3000));
          kernel.push(anAccountUpdate(1, String(cash)));
          const venueEquity = (price: number) => String(cash + qty * (price - 3000));
          instants.forEach(({ order, mark, ahead, qty: filled, charge }, i) => {
            const ts = 1000 * (i + 1);
            if (order.includes('A')) cash += charge;
            if (order.includes('P')) qty = filled;
            for (const step of order) {
              if (step === 'P') kernel.push(aLeg(ts, qty, mark));
              if (step === 'M') latest = mark;
              if (step === 'M') kernel.push(aMark(ts, mark));
              if (step === 'N') latest = ahead;
              if (step === 'N') kernel.push(aMark(ts + 500, ahead));
              if (step === 'A') kernel.push(anAccountUpdate(ts, venueEquity(mark)));
              // Sent alone, the report is the venue's word until its mark arrives.
              if (step === 'A' && (order === 'AM' || order === 'AMN'))
                expect(kernel.state.equity().toFixed()).toBe(venueEquity(mark));
            }
            expect(kernel.state.equity().toFixed()).toBe(venueEquity(latest));
          });
        },
      ),
    );
  });
});

describe('venue equity marks: prices without a mark channel', () => {
  it('holds the leg at the last trade stamped at or before the report, arriving after it', () => {
    const { kernel } = aKernelRig([]);
    kernel.push(aPositionUpdate(1, '2'));
    kernel.push(anAccountUpdate(1, '10000'));
    kernel.push(aTrade(2, 110));
    // The venue reports at 3 (funding -5) at its last price 120, a trade Keel receives after.
    kernel.push(anAccountUpdate(3, '10035'));
    kernel.push(aTrade(3, 120));
    expect(kernel.state.equity().toFixed()).toBe('10035');
    kernel.push(aTrade(4, 125));
    expect(kernel.state.equity().toFixed()).toBe('10045');
  });
});

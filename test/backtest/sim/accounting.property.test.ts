import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FillModelName, LoanOptions } from '../../../backtest/sim/index.ts';
import {
  D,
  type Dec,
  decimalOf,
  type InstrumentSpec,
  type Intent,
  type MarketEvent,
  ZERO,
} from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { arbitrarySession, type SimStep } from '../../kit/sim-arbitraries.ts';
import { aMarket, aSim, BTC } from '../../kit/sim-builders.ts';

const ETH = 'OKX_SPOT_ETH_USDT';

function replay(
  steps: readonly SimStep[],
  fillModel: FillModelName,
  balance: string,
  instruments?: InstrumentSpec[],
  startingCoins: Readonly<Record<string, Dec>> = {},
) {
  const t = aSim({
    fillModel,
    startingBalances: { USDT: D(balance), ...startingCoins },
    ...(instruments ? { instruments } : {}),
  });
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  const outOfRange: string[] = [];
  let checked = 0;
  const checkFills = () => {
    for (const { execution } of t.of('execution').slice(checked)) {
      const price = execution.price.toNumber();
      // market orders may walk one tick beyond the displayed book (beyondBookTicks = 1)
      const slack = execution.execType === 'TAKER' ? 0.1 + 1e-9 : 1e-9;
      if (price < lo - slack || price > hi + slack)
        outOfRange.push(`${execution.clientOrderId} at ${price} outside [${lo}, ${hi}]`);
    }
    checked = t.of('execution').length;
  };
  for (const step of steps) {
    if ('event' in step) {
      const e = step.event;
      const prices =
        e.kind === 'quote'
          ? [e.bid, e.ask]
          : e.kind === 'trade'
            ? [e.price]
            : e.kind === 'markPrice'
              ? [e.markPrice]
              : [];
      for (const p of prices) {
        lo = Math.min(lo, p);
        hi = Math.max(hi, p);
      }
      t.sim.onMarket(e);
    } else {
      t.send(step.intent);
      t.sim.advanceTo(t.sim.now());
    }
    checkFills();
  }
  return { t, outOfRange };
}

/**
 * The session with funding: every mark carries a funding rate (between -0.5 % and +0.5 %) and a
 * funding time two steps ahead, so positions held across it pay or receive funding.
 */
function withFunding(steps: readonly SimStep[], rates: readonly number[]): SimStep[] {
  let marks = 0;
  return steps.map((step) => {
    if (!('event' in step) || step.event.kind !== 'markPrice') return step;
    const rate = rates[marks++ % rates.length] ?? 0;
    return { event: { ...step.event, fundingRate: rate, nextFundingTime: step.event.ts + 2 } };
  });
}

async function identityHolds(
  steps: readonly SimStep[],
  fillModel: FillModelName,
  balance: string,
): Promise<void> {
  const { t, outOfRange } = replay(steps, fillModel, balance);
  expect(outOfRange).toEqual([]);
  const fills = t.of('execution').map((e) => e.execution);
  const snapshot = await t.sim.snapshot();
  const ledger = t.sim.ledger();
  const sum = (values: Dec[]) => values.reduce((a, b) => a.plus(b), ZERO);
  const realized = sum(fills.map((f) => f.rpnl));
  const fees = sum(fills.map((f) => f.fee.minus(f.rebate)));
  const unrealized = sum(snapshot.positions.map((p) => p.unrealizedPNL));
  const cash = snapshot.assets.find((a) => a.coin === 'USDT')?.balance ?? ZERO;
  const marked = sum(snapshot.positions.map((p) => p.positionQty.mul(p.markPrice)));
  // cash + positions marked to market == starting cash + realized + unrealized - fees, exactly:
  // realized and unrealized PnL are taken from the positions' costs, never their rounded averages
  const close = (a: Dec, b: Dec) => expect(a.eq(b), `${a.toFixed()} vs ${b.toFixed()}`).toBe(true);
  // Funding (received - paid) is the one balance change outside the fills: every FUNDING_FEE of the statement.
  const funding = sum(t.sim.statement().flatMap((f) => (f.type === 'FUNDING_FEE' ? [f.amount] : [])));
  close(cash.plus(unrealized), D(balance).plus(realized).plus(unrealized).minus(fees).plus(funding));
  close(t.sim.equity(), cash.plus(unrealized));
  expect(ledger.realizedPnl.toFixed()).toBe(realized.toFixed());
  expect(ledger.tradingFees.plus(ledger.liquidationFees).toFixed()).toBe(fees.toFixed());
  expect(ledger.funding.toFixed()).toBe(funding.toFixed());
  // Independent of the position bookkeeping: realized + unrealized == -(signed cash of every fill) + qty x mark
  const tradeCash = sum(fills.map((f) => f.quantity.mul(f.price).mul(f.side === 'BUY' ? -1 : 1)));
  close(realized.plus(unrealized), tradeCash.plus(marked));
  // orders never overfill
  for (const { order } of t.of('order')) expect(order.executedQty.lte(order.orderQty)).toBe(true);
}

describe('sim venue: accounting identity (property)', () => {
  for (const model of ['touch', 'through', 'queue'] as const) {
    it(`keeps cash + marked positions = start + realized + unrealized - fees + funding, fills inside the data's range (${model})`, async () => {
      const rates = fc.array(
        fc.integer({ min: -50, max: 50 }).map((r) => r / 10_000),
        { minLength: 1, maxLength: 4 },
      );
      await fc.assert(
        fc.asyncProperty(arbitrarySession(), rates, fc.constantFrom('1000', '1000000'), (steps, r, balance) =>
          identityHolds(withFunding(steps, r), model, balance),
        ),
        { numRuns: 150 },
      );
    });
  }
});

/** The session on ETH/USDT spot instead of the BTC perpetual: every event and command moved to ETH. */
function onSpot(steps: readonly SimStep[]): SimStep[] {
  return steps.map((step) => {
    if ('event' in step) return { event: { ...step.event, sym: ETH } };
    const intent = step.intent;
    return 'sym' in intent && intent.sym === BTC ? { intent: { ...intent, sym: ETH } } : step;
  });
}

async function spotIdentityHolds(steps: readonly SimStep[], fillModel: FillModelName, balance: string) {
  const { t, outOfRange } = replay(onSpot(steps), fillModel, balance, [
    anInstrument(ETH, { defaultLeverage: D(1) }),
  ]);
  expect(outOfRange).toEqual([]);
  const fills = t.of('execution').map((e) => e.execution);
  const snapshot = await t.sim.snapshot();
  const sum = (values: Dec[]) => values.reduce((a, b) => a.plus(b), ZERO);
  const realized = sum(fills.map((f) => f.rpnl));
  const fees = sum(fills.map((f) => f.fee.minus(f.rebate)));
  const unrealized = sum(snapshot.positions.map((p) => p.unrealizedPNL));
  const coin = (name: string) => snapshot.assets.find((a) => a.coin === name)?.balance ?? ZERO;
  const held = sum(snapshot.positions.map((p) => p.positionQty));
  const marked = sum(snapshot.positions.map((p) => p.positionQty.mul(p.markPrice)));
  const close = (a: Dec, b: Dec) => expect(a.eq(b), `${a.toFixed()} vs ${b.toFixed()}`).toBe(true);
  // the ETH balance is what the fills bought, never sold short; the holding reports it
  expect(coin('ETH').toFixed()).toBe(held.toFixed());
  expect(coin('ETH').gte(0)).toBe(true);
  // no margin on spot: no liquidation price, nothing locked
  for (const p of snapshot.positions) expect(p.liqPrice.isZero() && p.positionMargin.isZero()).toBe(true);
  // USDT + ETH at the mark == starting USDT + realized + unrealized - fees, and that is the equity
  close(coin('USDT').plus(marked), D(balance).plus(realized).plus(unrealized).minus(fees));
  close(t.sim.equity(), coin('USDT').plus(marked));
  expect(t.sim.ledger().realizedPnl.toFixed()).toBe(realized.toFixed());
  // the USDT moved by the fills alone: -(signed cost of every fill) - fees
  const tradeCash = sum(fills.map((f) => f.quantity.mul(f.price).mul(f.side === 'BUY' ? -1 : 1)));
  close(coin('USDT'), D(balance).plus(tradeCash).minus(fees));
  for (const { order } of t.of('order')) expect(order.executedQty.lte(order.orderQty)).toBe(true);
}

describe('sim venue: accounting identity on spot holdings (property)', () => {
  for (const model of ['touch', 'queue'] as const) {
    it(`keeps USDT + ETH held at the mark = start + realized + unrealized - fees, never short ETH (${model})`, async () => {
      await fc.assert(
        fc.asyncProperty(arbitrarySession(), fc.constantFrom('1000', '1000000'), (steps, balance) =>
          spotIdentityHolds(steps, model, balance),
        ),
        { numRuns: 150 },
      );
    });
  }
});

/** As {@link spotIdentityHolds}, for an account starting with ETH besides its USDT (a run's starting coins). */
async function spotIdentityWithStartingEth(
  steps: readonly SimStep[],
  fillModel: FillModelName,
  balance: string,
  startEth: string,
) {
  const { t, outOfRange } = replay(
    onSpot(steps),
    fillModel,
    balance,
    [anInstrument(ETH, { defaultLeverage: D(1) })],
    { ETH: D(startEth) },
  );
  expect(outOfRange).toEqual([]);
  const fills = t.of('execution').map((e) => e.execution);
  const snapshot = await t.sim.snapshot();
  const sum = (values: Dec[]) => values.reduce((a, b) => a.plus(b), ZERO);
  const realized = sum(fills.map((f) => f.rpnl));
  const fees = sum(fills.map((f) => f.fee.minus(f.rebate)));
  const unrealized = sum(snapshot.positions.map((p) => p.unrealizedPNL));
  const coin = (name: string) => snapshot.assets.find((a) => a.coin === name)?.balance ?? ZERO;
  const held = sum(snapshot.positions.map((p) => p.positionQty));
  const close = (a: Dec, b: Dec) => expect(a.eq(b), `${a.toFixed()} vs ${b.toFixed()}`).toBe(true);
  // the ETH balance is the starting ETH plus what the run's trades bought (the holding may be
  // short of the start, down to selling every starting coin), never below zero
  expect(coin('ETH').toFixed()).toBe(D(startEth).plus(held).toFixed());
  expect(coin('ETH').gte(0)).toBe(true);
  const mark = snapshot.positions[0]?.markPrice;
  if (mark !== undefined && !mark.isZero()) {
    // USDT + ETH at the mark == starting USDT + starting ETH at the mark + realized + unrealized - fees
    const start = D(balance).plus(D(startEth).mul(mark));
    close(coin('USDT').plus(coin('ETH').mul(mark)), start.plus(realized).plus(unrealized).minus(fees));
    close(t.sim.equity(), coin('USDT').plus(coin('ETH').mul(mark)));
  }
  const tradeCash = sum(fills.map((f) => f.quantity.mul(f.price).mul(f.side === 'BUY' ? -1 : 1)));
  close(coin('USDT'), D(balance).plus(tradeCash).minus(fees));
  for (const { order } of t.of('order')) expect(order.executedQty.lte(order.orderQty)).toBe(true);
}

describe('sim venue: accounting identity on spot holdings with starting coins (property)', () => {
  for (const model of ['touch', 'queue'] as const) {
    it(`keeps USDT + ETH at the mark = start (ETH at the mark) + realized + unrealized - fees, selling starting ETH but never more (${model})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          arbitrarySession(),
          fc.constantFrom('1000', '1000000'),
          fc.constantFrom('0.5', '3', '50'),
          (steps, balance, startEth) => spotIdentityWithStartingEth(steps, model, balance, startEth),
        ),
        { numRuns: 150 },
      );
    });
  }
});

/** Loans of ETH and USDT at a high LTV limit, so that random sessions reach liquidation. */
const LOANS: LoanOptions = {
  assets: {
    'OKX:ETH': { annualRate: D('0.876'), userQuota: D('1000000'), pool: D('1000000') },
    'OKX:USDT': { annualRate: D('0.0876'), userQuota: D('100000000'), pool: D('100000000') },
  },
  maxBorrowLtv: D('0.95'),
  ltvWarningLevel: D('0.95'),
  maintenanceMarginRate: D('0.05'),
};

/** Ten minutes between steps, so the hourly interest is charged inside a session. */
const STEP_MS = 600_000;

/** The ETH mark as the sim takes it: the last mark price, else the last trade, else the quote mid. */
function markTracker() {
  let mark: number | undefined;
  let trade: number | undefined;
  let mid: number | undefined;
  return {
    see(event: MarketEvent): void {
      if (event.kind === 'markPrice') mark = event.markPrice;
      else if (event.kind === 'trade') trade = event.price;
      else if (event.kind === 'quote') mid = Number(((event.bid + event.ask) / 2).toPrecision(15));
    },
    get: (): Dec | undefined => {
      const price = mark ?? trade ?? mid;
      return price === undefined ? undefined : decimalOf(price);
    },
  };
}

async function spotLoanIdentityHolds(
  steps: readonly SimStep[],
  fillModel: FillModelName,
  balance: string,
  opening: readonly Intent[],
): Promise<void> {
  const t = aSim({
    fillModel,
    startingBalances: { USDT: D(balance) },
    instruments: [anInstrument(ETH, { defaultLeverage: D(1) })],
    loans: LOANS,
  });
  const marks = markTracker();
  const sum = (values: Dec[]) => values.reduce((a, b) => a.plus(b), ZERO);
  const missed: string[] = [];
  for (const [index, step] of onSpot(steps).entries()) {
    if ('event' in step) {
      const event = { ...step.event, ts: step.event.ts * STEP_MS, recvTs: step.event.recvTs * STEP_MS };
      marks.see(event);
      t.sim.onMarket(event);
      // after every market event the account is above the loans' maintenance margin (5 % of their
      // value), or the liquidation has taken every loan over
      const risk = t.sim.loanRisk();
      if (risk.totalLoanValue.gt(0) && risk.netMarginValue.lt(risk.totalLoanValue.mul('0.05')))
        missed.push(
          `${event.ts}: equity ${risk.netMarginValue.toFixed()} for loans ${risk.totalLoanValue.toFixed()}`,
        );
    } else {
      t.send(step.intent);
      t.sim.advanceTo(t.sim.now());
    }
    if (index === 0) {
      t.send(...opening);
      t.sim.advanceTo(t.sim.now());
    }
  }
  expect(missed).toEqual([]);
  const fills = t.of('execution').map((e) => e.execution);
  const snapshot = await t.sim.snapshot();
  const fees = sum(fills.map((f) => f.fee.minus(f.rebate)));
  const coin = (name: string) => snapshot.assets.find((a) => a.coin === name)?.balance ?? ZERO;
  // borrows, repays (the liquidation's too) and interest, per coin; liquidation fees are in the fills
  const flows = (name: string) =>
    sum(
      t.sim.statement().flatMap((f) => (f.coin === name && f.type !== 'LIQUIDATION_FEE' ? [f.amount] : [])),
    );
  const close = (a: Dec, b: Dec) => expect(a.eq(b), `${a.toFixed()} vs ${b.toFixed()}`).toBe(true);
  const tradeCash = sum(fills.map((f) => f.quantity.mul(f.price).mul(f.side === 'BUY' ? -1 : 1)));
  const tradeEth = sum(fills.map((f) => f.quantity.mul(f.side === 'BUY' ? 1 : -1)));
  close(coin('USDT'), D(balance).plus(tradeCash).minus(fees).plus(flows('USDT')));
  close(coin('ETH'), tradeEth.plus(flows('ETH')));
  // the ETH holding is what the account holds beyond its ETH loan: the interest charged in ETH
  // left the holding as it left the balance, so a close of the holding sells no ETH it lacks
  const held = sum(snapshot.positions.map((p) => p.positionQty));
  const ethLoan = snapshot.assets.find((a) => a.coin === 'ETH')?.borrow ?? ZERO;
  expect(held.toFixed()).toBe(coin('ETH').minus(ethLoan).toFixed());
  // every liquidation fee is a fill's fee and a LIQUIDATION_FEE entry of the statement
  const liquidationFees = sum(
    t.sim.statement().flatMap((f) => (f.type === 'LIQUIDATION_FEE' ? [f.amount.neg()] : [])),
  );
  expect(t.sim.ledger().liquidationFees.toFixed()).toBe(liquidationFees.toFixed());
  expect(t.sim.ledger().tradingFees.plus(liquidationFees).toFixed()).toBe(fees.toFixed());
  // equity = USDT + ETH at the mark - loans at their value
  const mark = marks.get();
  if (mark !== undefined) {
    const loans = sum(snapshot.assets.map((a) => a.borrow.mul(a.coin === 'ETH' ? mark : 1)));
    close(t.sim.loanRisk().totalLoanValue, loans);
    close(t.sim.equity(), coin('USDT').plus(coin('ETH').mul(mark)).minus(loans));
  }
  for (const { order } of t.of('order')) expect(order.executedQty.lte(order.orderQty)).toBe(true);
}

describe('sim venue: accounting identity on spot with loans, through liquidation (property)', () => {
  for (const model of ['touch', 'queue'] as const) {
    it(`keeps USDT and ETH = start + fills - fees + borrows - repays - interest, the ETH holding = ETH - its loan, equity = coins - loans at the mark, and never leaves the loans' maintenance margin uncovered after an event (${model})`, async () => {
      // a short sale of 40 borrowed ETH, a purchase of 30 ETH with 4000 borrowed USDT, both or neither
      const borrow = (coin: string, amount: string): Intent => ({
        kind: 'borrow',
        ref: `loan-${coin}`,
        exchange: 'OKX',
        coin,
        amount: D(amount),
      });
      const short = [borrow('ETH', '40'), aMarket('short-sale', 'SELL', '40', { sym: ETH })];
      const long = [borrow('USDT', '4000'), aMarket('long-buy', 'BUY', '30', { sym: ETH })];
      await fc.assert(
        fc.asyncProperty(
          arbitrarySession(),
          fc.constantFrom('300', '1000'),
          fc.constantFrom([], short, long, [...short, ...long]),
          (steps, balance, opening) => spotLoanIdentityHolds(steps, model, balance, opening),
        ),
        { numRuns: 150 },
      );
    });
  }
});

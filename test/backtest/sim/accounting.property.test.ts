import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FillModelName } from '../../../backtest/sim/index.ts';
import { D, type Dec, ZERO } from '../../../core/model/index.ts';
import { arbitrarySession, type SimStep } from '../../kit/sim-arbitraries.ts';
import { aSim } from '../../kit/sim-builders.ts';

function replay(steps: readonly SimStep[], fillModel: FillModelName, balance: string) {
  const t = aSim({ fillModel, startingBalances: { USDT: D(balance) } });
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
  // cash + positions marked to market == starting cash + realized + unrealized - fees (average
  // prices are 40-digit roundings of a division, hence a 1e-20 tolerance wherever they enter)
  const close = (a: Dec, b: Dec) =>
    expect(a.minus(b).abs().lte('1e-20'), `${a.toFixed()} vs ${b.toFixed()}`).toBe(true);
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

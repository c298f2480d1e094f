import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { D, type PlaceAlgoOrderIntent } from '../../../core/model/index.ts';
import { isRiskReducing, RiskGate } from '../../../core/risk/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
import { aLimitOrder, aMarketOrder, aSellStop, from } from '../../kit/intent-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView, type FakeRiskView } from '../../kit/risk-view-builder.ts';
import { deniedIntents, maxAbsPosition, onTick, scriptedBacktest } from '../../kit/scripted-backtests.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

/** A GTE BUY trigger (not reduce-only) of `qty` at 101, market on trigger. */
function anAlgoBuy(ref: string, qty: string): PlaceAlgoOrderIntent {
  return aSellStop({
    ref,
    side: 'BUY',
    conditionType: 'GTE',
    triggerPrice: D('101'),
    qty: D(qty),
    reduceOnly: false,
  });
}

/** Sends algo orders through one gate in turn, each approved one recorded as sent (in flight). */
function sendAlgos(view: FakeRiskView, gate: RiskGate, algos: readonly PlaceAlgoOrderIntent[]): string[] {
  const passed: string[] = [];
  for (const algo of algos) {
    if (gate.evaluate(from(algo), view).kind !== 'approved') continue;
    passed.push(algo.ref);
    view.algosSent.push({ strategyId: 's1', intent: algo });
  }
  return passed;
}

describe('maxPositionQty counts algo orders not triggered yet that can add to a position', () => {
  it('passes only the first of four algo BUYs of 0.9 against maxPositionQty 1', () => {
    const view = aRiskView();
    const gate = new RiskGate({ limits: { maxPositionQty: '1' } });
    const algos = ['a1', 'a2', 'a3', 'a4'].map((ref) => anAlgoBuy(ref, '0.9'));
    expect(sendAlgos(view, gate, algos)).toEqual(['a1']);
  });

  it('denies a market BUY after an algo BUY, as it denies the algo BUY after the market BUY', () => {
    const view = aRiskView();
    view.algosSent.push({ strategyId: 's1', intent: anAlgoBuy('a1', '0.9') });
    expectDenied('maxPosition', aMarketOrder({ qty: D('0.9') }), view, { limits: { maxPositionQty: '1' } });
  });

  it("counts another strategy's acknowledged algo order at the portfolio's limit, not at the strategy's own", () => {
    const view = aRiskView();
    view.algoOrders = [
      {
        strategyId: 'a',
        algo: anAlgoOrder({ side: 'BUY', conditionType: 'GTE', qty: D('0.9'), reduceOnly: false }),
      },
    ];
    const intent = aMarketOrder({ qty: D('0.8') });
    expectDenied('maxPosition', intent, view, { limits: { maxPositionQty: '1' } });
    expectApproved(intent, view, { strategies: { s1: { maxPositionQty: '1' } } });
  });

  it('does not count reduce-only algo orders or attached take-profits and stop-losses', () => {
    const view = aRiskView();
    view.setPosition('BINANCE_PERP_BTC_USDT', '1');
    view.algoOrders = [
      { strategyId: 's1', algo: anAlgoOrder({ clientAlgoOrderId: 'sl', qty: D('1') }) },
      {
        strategyId: 's1',
        algo: anAlgoOrder({
          clientAlgoOrderId: 'tp',
          qty: D('1'),
          reduceOnly: false,
          attachedOrderId: 'O-1',
        }),
      },
    ];
    // A plain SELL of the whole long still reduces it: the stop and the take-profit are exits.
    expect(isRiskReducing(aLimitOrder({ side: 'SELL', qty: D('1') }), view)).toBe(true);
    expectApproved(aLimitOrder({ side: 'SELL', qty: D('1') }), view, { limits: { maxPositionQty: '0.5' } });
  });

  it('counts a replaced algo order with its new qty only, not twice', () => {
    const view = aRiskView();
    view.algoOrders = [
      {
        strategyId: 's1',
        algo: anAlgoOrder({
          clientAlgoOrderId: 'a1',
          side: 'BUY',
          conditionType: 'GTE',
          qty: D('0.9'),
          reduceOnly: false,
        }),
      },
    ];
    const replace = {
      kind: 'replaceAlgoOrder',
      ref: 'r1',
      target: 'a1',
      sym: 'BINANCE_PERP_BTC_USDT',
    } as const;
    expectApproved({ ...replace, qty: D('1') }, view, { limits: { maxPositionQty: '1' } });
    expectDenied('maxPosition', { ...replace, qty: D('1.1') }, view, { limits: { maxPositionQty: '1' } });
  });

  it('property: the algo BUYs that pass in turn never add up past maxPositionQty', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 12 }), (tenths) => {
        const view = aRiskView();
        const gate = new RiskGate({ limits: { maxPositionQty: '1' } });
        const algos = tenths.map((n, i) => anAlgoBuy(`a${i}`, D(n).div(10).toFixed()));
        const passed = new Set(sendAlgos(view, gate, algos));
        const total = algos.filter((a) => passed.has(a.ref)).reduce((sum, a) => sum.add(a.qty), D(0));
        expect(total.lte(1)).toBe(true);
      }),
    );
  });
});

describe('maxGrossExposure counts algo orders not triggered yet that can add to a position', () => {
  it('denies a market BUY whose notional, with a resting algo BUY, is over the limit', () => {
    const view = aRiskView();
    view.algosSent.push({ strategyId: 's1', intent: anAlgoBuy('a1', '1') });
    // Reference 100: the algo BUY 1 adds 100, the order 100 more.
    expectDenied('maxGrossExposure', aMarketOrder({ qty: D('1') }), view, {
      limits: { maxGrossExposure: '150' },
    });
    expectApproved(aMarketOrder({ qty: D('0.5') }), view, { limits: { maxGrossExposure: '150' } });
  });

  it('values a limit algo order at its limit price', () => {
    const view = aRiskView();
    view.algosSent.push({ strategyId: 's1', intent: { ...anAlgoBuy('a1', '1'), price: D('140') } });
    expectDenied('maxGrossExposure', aMarketOrder({ qty: D('0.2') }), view, {
      limits: { maxGrossExposure: '150' },
    });
  });
});

describe('REDUCING state and algo orders not triggered yet', () => {
  it('takes only the first of four algo SELLs of 1 as reducing a long of 1', () => {
    const view = aRiskView();
    view.setPosition('BINANCE_PERP_BTC_USDT', '1');
    const sells = ['s1', 's2', 's3', 's4'].map((ref) => aSellStop({ ref, reduceOnly: false }));
    const reducing: string[] = [];
    for (const sell of sells) {
      if (!isRiskReducing(sell, view)) continue;
      reducing.push(sell.ref);
      view.algosSent.push({ strategyId: 's1', intent: sell });
    }
    expect(reducing).toEqual(['s1']);
  });
});

describe('algo orders not triggered yet in a backtest', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 3, file: 'session.jsonl.gz' });

  it('four algo BUYs of 0.9 from one hook fire into a position of at most maxPositionQty', async () => {
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx, mid) =>
          [0, 1, 2, 3].map(() =>
            ctx.order.algo({
              sym: SYNTHETIC_BTC_PERP.sym,
              side: 'BUY',
              qty: 0.9,
              triggerPrice: onTick(mid * 1.0001),
              condition: 'GTE',
            }),
          ),
      ],
      { limits: { maxPositionQty: 1 } },
    );
    expect(deniedIntents(result)).toEqual(Array(3).fill('placeAlgoOrder maxPosition'));
    expect(maxAbsPosition(result.fills).lte(1)).toBe(true);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Intent, isOnStep, type StrategyIntent } from '../../../core/model/index.ts';
import { type ApprovedIntent, RiskGate, riskGateConfigSchema, symsOf } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { arbitraryIntent } from '../../kit/intent-arbitraries.ts';
import { aLimitOrder, from } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const cancel: Intent = { kind: 'cancelOrder', ref: 'c', target: 'x', sym: 'NOWHERE' };

function verdict(gate: RiskGate, si: StrategyIntent, view = aRiskView()): string {
  const decision = gate.evaluate(si, view);
  return decision.kind === 'approved' ? 'approved' : `${decision.check}: ${decision.reason}`;
}

describe('risk gate', () => {
  it('always passes cancels, even unknown ones while HALTED', () => {
    const gate = new RiskGate();
    gate.halt('operator');
    expect(verdict(gate, from(cancel))).toBe('approved');
    expect(verdict(gate, from({ kind: 'cancelOrders', ref: 'all' }))).toBe('approved');
  });

  it('approves with the very intent object, branded', () => {
    const si = from(aLimitOrder());
    const decision = new RiskGate().evaluate(si, aRiskView());
    expect(decision.kind === 'approved' && decision.command).toBe(si);
  });

  describe('trading state', () => {
    it('denies everything but cancels when halted by hand, and passes again after resume', () => {
      const gate = new RiskGate();
      gate.halt('operator pressed the red button');
      expect(verdict(gate, from(aLimitOrder()))).toBe(
        'tradingState: placeOrder ref-1 refused: trading is HALTED (operator pressed the red button); only cancels pass',
      );
      gate.resume();
      expect(verdict(gate, from(aLimitOrder()))).toBe('approved');
    });

    it('passes only risk-reducing intents while REDUCING', () => {
      const gate = new RiskGate();
      gate.reduceOnly('end of session');
      const view = aRiskView();
      view.setPosition(BTC, '2');
      expect(verdict(gate, from(aLimitOrder()), view)).toMatch(/^tradingState: .*REDUCING/);
      expect(verdict(gate, from(aLimitOrder({ side: 'SELL' })), view)).toBe('approved');
      expect(
        verdict(gate, from({ kind: 'closePosition', ref: 'cp', sym: BTC, positionSide: 'NONE' }), view),
      ).toBe('approved');
    });

    it('halts one strategy without touching the others', () => {
      const gate = new RiskGate();
      gate.halt('bad fills', 's1');
      expect(verdict(gate, from(aLimitOrder(), 's1'))).toMatch(/^tradingState/);
      expect(verdict(gate, from(aLimitOrder(), 's2'))).toBe('approved');
      expect(gate.status('s1').state).toBe('HALTED');
      expect(gate.status().state).toBe('ACTIVE');
    });

    it('trips the kill switch on the daily loss limit seen through view.equity() and stays tripped', () => {
      const gate = new RiskGate({ killSwitch: { dailyLossLimit: '500' } });
      const view = aRiskView();
      expect(verdict(gate, from(aLimitOrder()), view)).toBe('approved');
      view.equityValue = D('9400');
      expect(verdict(gate, from(aLimitOrder()), view)).toMatch(
        /^tradingState: .*HALTED \(kill switch: daily loss 600/,
      );
      view.equityValue = D('10000');
      expect(verdict(gate, from(aLimitOrder()), view)).toMatch(/^tradingState/);
      gate.resume();
      view.equityValue = D('9400');
      expect(verdict(gate, from(aLimitOrder()), view)).toBe('approved');
    });

    it('trips into REDUCING on drawdown when so configured, from equity the kernel reports', () => {
      const gate = new RiskGate({ killSwitch: { maxDrawdown: 0.2, tripTo: 'REDUCING' } });
      gate.observeEquity(0, D('10000'));
      expect(gate.observeEquity(1, D('8000')).state).toBe('REDUCING');
    });
  });

  describe('throttles', () => {
    it("denies a submit over the strategy's rate and passes again once the bucket refills", () => {
      const gate = new RiskGate({ strategies: { s1: { submitRate: { limit: 2, intervalMs: 1000 } } } });
      const view = aRiskView();
      expect(verdict(gate, from(aLimitOrder()), view)).toBe('approved');
      expect(verdict(gate, from(aLimitOrder()), view)).toBe('approved');
      expect(verdict(gate, from(aLimitOrder()), view)).toMatch(
        /^submitRate: .*strategy s1's submit rate of 2 per 1000 ms/,
      );
      expect(verdict(gate, from(aLimitOrder(), 's2'), view)).toBe('approved');
      view.time += 500;
      expect(verdict(gate, from(aLimitOrder()), view)).toBe('approved');
    });

    it('throttles modifications separately from submits, and denied intents take no token', () => {
      const gate = new RiskGate({
        limits: { modifyRate: { limit: 1, intervalMs: 1000 }, submitRate: { limit: 1, intervalMs: 1000 } },
      });
      const view = aRiskView();
      view.orders = [{ strategyId: 's1', order: anOrder({ clientOrderId: 'mine' }) }];
      const modify: Intent = { kind: 'modifyOrder', ref: 'm', target: 'mine', sym: BTC, price: D('99') };
      expect(verdict(gate, from(aLimitOrder({ price: D('100.05') })), view)).toMatch(/^priceOnTick/);
      expect(verdict(gate, from(aLimitOrder()), view)).toBe('approved');
      expect(verdict(gate, from(modify), view)).toBe('approved');
      expect(verdict(gate, from(modify), view)).toMatch(/^modifyRate/);
      expect(verdict(gate, from(aLimitOrder()), view)).toMatch(/^submitRate/);
    });
  });

  describe('configuration', () => {
    it('refuses an invalid config with a sentence naming the field', () => {
      expect(() => new RiskGate({ limits: { maxNotionalPerOrder: '-5' } })).toThrow(
        /risk config is invalid:[\s\S]*must be positive[\s\S]*limits\.maxNotionalPerOrder/,
      );
      expect(() => new RiskGate({ limits: { maxNotionalPerOrder: '1e5' } })).toThrow(/decimal string/);
    });

    it('skips a check listed in disabledChecks', () => {
      const offTick = from(aLimitOrder({ price: D('100.05') }));
      expect(verdict(new RiskGate(), offTick)).toMatch(/^priceOnTick/);
      expect(verdict(new RiskGate({ limits: { disabledChecks: ['priceOnTick'] } }), offTick)).toBe(
        'approved',
      );
    });

    it('takes an already parsed config, Decimals and all', () => {
      const parsed = riskGateConfigSchema.parse({
        limits: { maxNotionalPerOrder: '50' },
        strategies: { s1: { maxPositionQty: 2 } },
      });
      const gate = new RiskGate(parsed);
      expect(verdict(gate, from(aLimitOrder()))).toMatch(/^maxNotional: .*maxNotionalPerOrder 50$/);
    });

    it('takes strategy limits registered after construction', () => {
      const gate = new RiskGate();
      gate.configureStrategy('s1', { maxNotionalPerOrder: '50' });
      expect(verdict(gate, from(aLimitOrder()))).toMatch(/^maxNotional/);
    });
  });

  it('makes bypassing the gate a compile error: the port takes only approved commands', () => {
    const port = aRecordingPort();
    const plain = from(aLimitOrder());
    // @ts-expect-error a plain StrategyIntent is not an ApprovedIntent
    port.submit(plain);
    const decision = new RiskGate().evaluate(plain, aRiskView());
    if (decision.kind === 'approved') port.submit(decision.command);
    expect(port.submitted).toHaveLength(2);
  });

  it('lets no generated intent reach the execution port without an approval that an oracle agrees with', () => {
    type Step =
      | { readonly op: 'intent'; readonly intent: Intent; readonly strategyId: string }
      | { readonly op: 'advance'; readonly ms: number }
      | { readonly op: 'halt' }
      | { readonly op: 'resume' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          op: fc.constant('intent' as const),
          intent: arbitraryIntent(),
          strategyId: fc.constantFrom('s1', 's2'),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 2000 }) }),
      },
      { weight: 1, arbitrary: fc.constantFrom<Step>({ op: 'halt' }, { op: 'resume' }) },
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const view = aRiskView();
        view.instruments.set('OKX_PERP_ETH_USDT', anInstrument('OKX_PERP_ETH_USDT'));
        view.instruments.set('OKX_PERP_HALT_USDT', anInstrument('OKX_PERP_HALT_USDT', { state: 'HALTED' }));
        view.references.set('OKX_PERP_ETH_USDT', 100);
        view.orders = [{ strategyId: 's1', order: anOrder({ clientOrderId: 'open-1' }) }];
        view.setPosition(BTC, '3');
        const gate = new RiskGate({
          limits: { maxNotionalPerOrder: '1000', submitRate: { limit: 5, intervalMs: 1000 } },
        });
        const port = aRecordingPort();
        const approvedByGate = new Set<ApprovedIntent>();
        const submitTimes: number[] = [];
        let halted = false;
        let n = 0;
        for (const s of steps) {
          if (s.op === 'advance') view.time += s.ms;
          else if (s.op === 'halt') {
            gate.halt('test');
            halted = true;
          } else if (s.op === 'resume') {
            gate.resume();
            halted = false;
          } else {
            const intent = { ...s.intent, ref: `r${n++}` };
            const decision = gate.evaluate({ strategyId: s.strategyId, intent }, view);
            if (decision.kind === 'approved') {
              approvedByGate.add(decision.command);
              port.submit(decision.command);
              if (intent.kind !== 'cancelOrder' && intent.kind !== 'modifyOrder') {
                expect(halted).toBe(false);
                submitTimes.push(view.time);
              }
            }
          }
        }
        for (const command of port.submitted) {
          expect(approvedByGate.has(command)).toBe(true);
          const { intent } = command;
          if (intent.kind === 'cancelOrder') continue;
          for (const sym of symsOf(intent)) expect(view.instrument(sym)?.state).toBe('TRADING');
          if (intent.kind === 'placeOrder') {
            expect(isOnStep(intent.qty, D('0.001')) && intent.qty.greaterThan(0)).toBe(true);
            if (intent.orderType === 'LIMIT') expect(isOnStep(intent.price ?? D(1), D('0.1'))).toBe(true);
            const price = intent.price ?? D(100);
            expect(intent.qty.mul(price).lessThanOrEqualTo(1000)).toBe(true);
          }
          if (intent.kind === 'closePositions') expect(intent.symList.length).toBeLessThanOrEqual(20);
        }
        for (let i = 0; i < submitTimes.length; i++) {
          for (let j = i; j < submitTimes.length; j++) {
            const span = (submitTimes[j] as number) - (submitTimes[i] as number);
            expect(j - i + 1).toBeLessThanOrEqual(5 + (span * 5) / 1000);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

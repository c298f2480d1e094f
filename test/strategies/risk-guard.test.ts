import { describe, expect, it } from 'vitest';
import { D } from '../../core/model/index.ts';
import { riskGuard } from '../../strategies/index.ts';
import { BTC, ETH } from '../kit/kernel-events.ts';
import { aMark, aMarket, aQuote, asApproved } from '../kit/sim-builders.ts';
import { aStrategyRig, type StrategyRig, type StrategyRigOptions } from '../kit/strategy-rig.ts';

const base = { adlRankThreshold: 4, reduceFraction: 0.5, cooldownMs: 60_000, checkEveryMs: 1000 };

function aGuard(params: object = {}, options: StrategyRigOptions = {}) {
  return aStrategyRig([{ id: 'guard', strategy: riskGuard, params: { ...base, ...params } }], options);
}

let handOrders = 0;

/** A position opened outside the guard (another strategy, or by hand), at market. */
function open(rig: StrategyRig, ts: number, side: 'BUY' | 'SELL', qty: string, sym = BTC): void {
  handOrders += 1;
  rig.sim.submit(asApproved({ ...aMarket(`hand-${handOrders}`, side, qty), sym }, 'hand'));
  rig.advance(ts);
}

function guardOrders(rig: StrategyRig): string[] {
  return rig
    .sentOf('placeOrder')
    .map((p) => `${p.side} ${p.orderType} ${p.qty.toFixed()}${p.reduceOnly ? ' reduceOnly' : ''}`);
}

/** ADL score thresholds low enough for a 20 % gain at half leverage to rank 5 (Keel's sim setting). */
const lowAdlThresholds: StrategyRigOptions = { sim: { adlScoreThresholds: [0, 0.01, 0.02, 0.03] } };

describe('risk-guard strategy', () => {
  it('leaves a position alone while its ADL rank is below the threshold', async () => {
    const rig = await aGuard();
    rig.push(aQuote(1000, 99.9, 100, 100, 100), aMark(1000, 100));
    open(rig, 1000, 'BUY', '50');
    rig.advance(5000);
    expect(rig.kernel.state.adlRanks.get(`${BTC}|NONE`)).toBeLessThan(4);
    expect(guardOrders(rig)).toEqual([]);
  });

  it('cuts reduceFraction of a position with a reduce-only market order once its ADL rank reaches the threshold', async () => {
    const rig = await aGuard({}, lowAdlThresholds);
    rig.push(aQuote(1000, 99.9, 100, 100, 100), aMark(1000, 100));
    open(rig, 1000, 'BUY', '50'); // 50 @ 100, rank 1 (no gain yet)
    expect(guardOrders(rig)).toEqual([]);
    rig.push(aQuote(2000, 120, 100, 120.1, 100), aMark(2000, 120));
    open(rig, 2000, 'BUY', '0.1'); // the venue re-ranks on this fill: +20 % at ~0.55x -> rank 5
    expect(guardOrders(rig)).toEqual(['SELL MARKET 25.05 reduceOnly']);
    expect((await rig.venueQty()).toFixed()).toBe('25.05');
  });

  it('waits cooldownMs before cutting the same position again', async () => {
    const rig = await aGuard({}, lowAdlThresholds);
    rig.push(aQuote(1000, 99.9, 100, 100, 100), aMark(1000, 100));
    open(rig, 1000, 'BUY', '50');
    rig.push(aQuote(2000, 120, 100, 120.1, 100), aMark(2000, 120));
    open(rig, 2000, 'BUY', '0.1'); // first cut at 2000; still ranked >= 4 after it
    expect(rig.kernel.state.adlRanks.get(`${BTC}|NONE`)).toBeGreaterThanOrEqual(4);
    rig.advance(61_999);
    expect(guardOrders(rig)).toHaveLength(1);
    rig.advance(62_000);
    expect(guardOrders(rig)).toEqual(['SELL MARKET 25.05 reduceOnly', 'SELL MARKET 12.525 reduceOnly']);
  });

  it('cuts a short by buying back', async () => {
    const rig = await aGuard({}, lowAdlThresholds);
    rig.push(aQuote(1000, 100, 100, 100.1, 100), aMark(1000, 100));
    open(rig, 1000, 'SELL', '50'); // 50 short @ 100
    rig.push(aQuote(2000, 79.9, 100, 80, 100), aMark(2000, 80));
    open(rig, 2000, 'SELL', '0.1');
    expect(guardOrders(rig)).toEqual(['BUY MARKET 25.05 reduceOnly']);
  });

  it('closes every position when the account enters MARGIN_CALL', async () => {
    const rig = await aGuard({}, { sim: { marginCallRatio: D('0.0001') } }); // any position is a margin call
    rig.push(aQuote(1000, 99.9, 100, 100, 100), aMark(1000, 100));
    rig.push(aQuote(1000, 99.9, 100, 100, 100, ETH), aMark(1000, 100, undefined, ETH));
    open(rig, 1000, 'BUY', '10');
    expect(rig.kernel.state.account?.accountStatus).toBe('MARGIN_CALL');
    expect(rig.sentOf('closePositions')).toEqual([]); // the position update came before the account's
    open(rig, 1000, 'SELL', '5', ETH); // the next check (here: this position update) closes both
    expect(rig.sentOf('closePositions').map((c) => [...c.symList].sort())).toEqual([[BTC, ETH].sort()]);
    expect((await rig.venueQty(BTC)).isZero()).toBe(true);
    expect((await rig.venueQty(ETH)).isZero()).toBe(true);
    rig.advance(5000);
    expect(rig.sentOf('closePositions')).toHaveLength(1);
  });

  it('closes the positions a liquidation left open, once per liquidation event', async () => {
    // 1000 USDT, maintenance 1 %, liquidation fee 0.5 %: ETH 60 and BTC 30 bought at 100 (fees 4.5).
    const rig = await aGuard({}, { cash: 1000, sim: { maintenanceMarginRate: D('0.01') } });
    rig.push(aQuote(1000, 99.9, 100, 100, 100), aMark(1000, 100));
    rig.push(aQuote(1000, 99.9, 100, 100, 100, ETH), aMark(1000, 100, undefined, ETH));
    open(rig, 1000, 'BUY', '60', ETH);
    open(rig, 1000, 'BUY', '30');
    // BTC marked at 69: equity 995.5 - 930 = 65.5 < maintenance 60 + 20.7. The venue liquidates ETH
    // (largest margin first): 65.5 - fee 30 = 35.5 covers BTC's 20.7, so BTC survives.
    rig.push(aQuote(3000, 68.9, 100, 69, 100), aMark(3000, 69));
    expect(rig.eventsOf('liquidationEvent').length).toBeGreaterThan(0);
    expect(rig.sentOf('closePositions').map((c) => c.symList)).toHaveLength(1);
    expect(rig.sentOf('closePositions')[0]?.symList).toContain(BTC);
    expect((await rig.venueQty(BTC)).isZero()).toBe(true);
    expect((await rig.venueQty(ETH)).isZero()).toBe(true);
    rig.advance(10_000);
    expect(rig.sentOf('closePositions')).toHaveLength(1);
  });

  it('does not close anything on a liquidation when closeAllOnLiquidation is false', async () => {
    const rig = await aGuard(
      { closeAllOnLiquidation: false },
      { cash: 1000, sim: { maintenanceMarginRate: D('0.01') } },
    );
    rig.push(aQuote(1000, 99.9, 100, 100, 100), aMark(1000, 100));
    rig.push(aQuote(1000, 99.9, 100, 100, 100, ETH), aMark(1000, 100, undefined, ETH));
    open(rig, 1000, 'BUY', '60', ETH);
    open(rig, 1000, 'BUY', '30');
    rig.push(aQuote(3000, 68.9, 100, 69, 100), aMark(3000, 69));
    rig.advance(10_000);
    expect(rig.sentOf('closePositions')).toEqual([]);
    expect((await rig.venueQty(BTC)).toFixed()).toBe('30');
  });

  it('rejects nonsense parameters', () => {
    const parse = (p: object) => riskGuard.params.safeParse({ ...base, ...p }).success;
    expect(parse({})).toBe(true);
    expect(parse({ adlRankThreshold: 0 })).toBe(false);
    expect(parse({ adlRankThreshold: 6 })).toBe(false);
    expect(parse({ reduceFraction: 0 })).toBe(false);
    expect(parse({ reduceFraction: 1.5 })).toBe(false);
    expect(parse({ cooldownMs: -1 })).toBe(false);
    expect(parse({ checkEveryMs: 0 })).toBe(false);
    expect(parse({ adlRank: 3 })).toBe(false);
  });
});

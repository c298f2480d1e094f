import { describe, expect, it } from 'vitest';
import { bracket } from '../../strategies/index.ts';
import { BTC } from '../kit/kernel-events.ts';
import { aBar, aTrade } from '../kit/sim-builders.ts';
import { aStrategyRig } from '../kit/strategy-rig.ts';

const MINUTE = 60_000;
/** 1 BTC entries above the 2-bar SMA; take profit 10 % up, stop 5 % down. */
const base = { sym: BTC, qty: 1, trendBars: 2, takeProfit: 0.1, stopLoss: 0.05 };

/** Bars at 1000 then 1010: the second closes above its SMA (1005) and enters at 1010. */
async function anEnteredBracket(params: object) {
  const rig = await aStrategyRig([{ id: 'br', strategy: bracket, params: { ...base, ...params } }]);
  rig.push(aBar(MINUTE, 1000, 1000, 1000, 1000));
  rig.push(aBar(2 * MINUTE, 1010, 1010, 1010, 1010));
  return rig;
}

describe('bracket strategy', () => {
  it('enters with a market buy once a closed bar is above its SMA, and not while in a position', async () => {
    const rig = await anEnteredBracket({ exits: 'algo' });
    expect(rig.sentOf('placeOrder').map((p) => `${p.side} ${p.orderType} ${p.qty}`)).toEqual([
      'BUY MARKET 1',
    ]);
    expect((await rig.venueQty()).toFixed()).toBe('1');
    rig.push(aBar(3 * MINUTE, 1020, 1020, 1020, 1020));
    expect(rig.sentOf('placeOrder')).toHaveLength(1);
  });

  it('attached mode: puts tp/sl trigger fields on the entry, which the venue opens on the fill', async () => {
    const rig = await anEnteredBracket({ exits: 'attached' });
    const entry = rig.sentOf('placeOrder')[0];
    expect(entry?.tp?.triggerPrice.toFixed()).toBe('1111');
    expect(entry?.sl?.triggerPrice.toFixed()).toBe('959.5');
    const algos = (await rig.sim.snapshot()).openAlgoOrders;
    expect(algos.map((a) => `${a.side} ${a.conditionType} ${a.triggerPrice} ${a.qty}`).sort()).toEqual([
      'SELL GTE 1111 1',
      'SELL LTE 959.5 1',
    ]);
    rig.push(aTrade(2 * MINUTE + 1, 1111, 1, 'BUY')); // take profit
    expect((await rig.venueQty()).isZero()).toBe(true);
    expect((await rig.sim.snapshot()).openAlgoOrders).toEqual([]);
    expect(rig.sentOf('placeAlgoOrder')).toEqual([]);
  });

  it('algo mode: places two reduce-only algo orders for the filled quantity after the fill', async () => {
    const rig = await anEnteredBracket({ exits: 'algo' });
    const exits = rig.sentOf('placeAlgoOrder');
    expect(
      exits.map((a) => `${a.side} ${a.conditionType} ${a.triggerPrice} ${a.qty} ${a.reduceOnly}`),
    ).toEqual(['SELL GTE 1111 1 true', 'SELL LTE 959.5 1 true']);
    expect((await rig.sim.snapshot()).openAlgoOrders).toHaveLength(2);
    expect(rig.denials).toEqual([]);
  });

  it('algo mode: cancels the surviving take-profit once the stop has closed the position', async () => {
    const rig = await anEnteredBracket({ exits: 'algo' });
    rig.push(aTrade(2 * MINUTE + 1, 959, 1, 'SELL')); // the stop triggers and closes
    expect((await rig.venueQty()).isZero()).toBe(true);
    expect(rig.sentOf('cancelAllAlgoOrders')).toHaveLength(1);
    expect((await rig.sim.snapshot()).openAlgoOrders).toEqual([]);
  });

  it('enters again after the exit, on the next bar above its SMA', async () => {
    const rig = await anEnteredBracket({ exits: 'algo' });
    rig.push(aTrade(2 * MINUTE + 1, 1112, 1, 'BUY')); // take profit
    expect((await rig.venueQty()).isZero()).toBe(true);
    rig.push(aBar(3 * MINUTE, 1112, 1112, 1112, 1112)); // SMA 1061 < 1112
    expect(rig.sentOf('placeOrder').filter((p) => p.side === 'BUY' && !p.reduceOnly)).toHaveLength(2);
    expect((await rig.venueQty()).toFixed()).toBe('1');
  });

  it('rejects nonsense parameters', () => {
    const parse = (p: object) => bracket.params.safeParse({ ...base, ...p }).success;
    expect(parse({})).toBe(true);
    expect(parse({ qty: 0 })).toBe(false);
    expect(parse({ takeProfit: 0 })).toBe(false);
    expect(parse({ stopLoss: 1 })).toBe(false);
    expect(parse({ trendBars: 1 })).toBe(false);
    expect(parse({ exits: 'oco' })).toBe(false);
    expect(parse({ target: 2 })).toBe(false);
  });
});

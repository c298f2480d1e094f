import { describe, expect, it } from 'vitest';
import { EntryBatches } from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';
import { aLimitOrder, aMarketOrder } from '../../../kit/intent-builders.ts';

describe('entry batches', () => {
  it('puts the orders one strategy sends in one hook call, alike but for quantity, in one batch', () => {
    const batches = new EntryBatches();
    batches.placed('s', aMarketOrder({ ref: 'a', qty: D(1) }), 5);
    batches.placed('s', aMarketOrder({ ref: 'b', qty: D('0.5') }), 5);
    expect(batches.batchOf('a')).toBeDefined();
    expect(batches.batchOf('b')).toBe(batches.batchOf('a'));
  });

  it('keeps apart orders at another price, of another type, side, strategy or hook call', () => {
    const batches = new EntryBatches();
    batches.placed('s', aLimitOrder({ ref: 'rung-100', price: D(100) }), 5);
    batches.placed('s', aLimitOrder({ ref: 'rung-99', price: D(99) }), 5);
    batches.placed('s', aMarketOrder({ ref: 'market', side: 'BUY' }), 5);
    batches.placed('s', aMarketOrder({ ref: 'sell', side: 'SELL' }), 5);
    batches.placed('t', aMarketOrder({ ref: 'other-strategy', side: 'BUY' }), 5);
    batches.placed('s', aMarketOrder({ ref: 'later', side: 'BUY' }), 6);
    const all = ['rung-100', 'rung-99', 'market', 'sell', 'other-strategy', 'later'].map((ref) =>
      batches.batchOf(ref),
    );
    expect(new Set(all).size).toBe(all.length);
  });

  it('keeps a hook call’s slices in one batch when a later call’s orders are sent between them (a live client sends one sym’s commands in turn)', () => {
    const batches = new EntryBatches();
    batches.placed('s', aMarketOrder({ ref: 'a1', sym: 'A' }), 5);
    batches.placed('s', aMarketOrder({ ref: 'b', sym: 'B' }), 6);
    batches.placed('s', aMarketOrder({ ref: 'a2', sym: 'A' }), 5);
    expect(batches.batchOf('a2')).toBe(batches.batchOf('a1'));
    expect(batches.batchOf('b')).not.toBe(batches.batchOf('a1'));
  });

  it('puts an order no hook call sent (no hookCall) in a batch of its own', () => {
    const batches = new EntryBatches();
    batches.placed('s', aMarketOrder({ ref: 'a' }), undefined);
    expect(batches.batchOf('a')).toBeUndefined();
  });

  it('knows no batch of an order it was not told of, and forgets the oldest past its bound', () => {
    const batches = new EntryBatches(3);
    expect(batches.batchOf('never')).toBeUndefined();
    for (let i = 0; i <= 3; i++) batches.placed('s', aMarketOrder({ ref: `o${i}` }), i);
    expect(batches.batchOf('o0')).toBeUndefined();
    expect(batches.batchOf('o1')).toBeDefined();
    expect(batches.batchOf('o3')).toBeDefined();
  });

  it('stops awaiting a hook call’s slices 10 000 batches later: a slice then starts a batch of its own', () => {
    const batches = new EntryBatches();
    batches.placed('s', aMarketOrder({ ref: 'first', sym: 'A' }), 1);
    batches.placed('s', aMarketOrder({ ref: 'first-b', sym: 'B' }), 1);
    for (let call = 2; call <= 9_999; call++) batches.placed('s', aMarketOrder({ ref: `o${call}` }), call);
    batches.placed('s', aMarketOrder({ ref: 'kept', sym: 'B' }), 1);
    batches.placed('s', aMarketOrder({ ref: 'last' }), 10_000);
    batches.placed('s', aMarketOrder({ ref: 'late', sym: 'A' }), 1);
    expect(batches.batchOf('kept')).toBe(batches.batchOf('first-b'));
    expect(batches.batchOf('late')).toBeDefined();
    expect(batches.batchOf('late')).not.toBe(batches.batchOf('first'));
  });
});

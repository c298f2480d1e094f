import { describe, expect, it } from 'vitest';
import { withOwner } from '../../../../backtest/report/index.ts';
import { anOrder } from '../../../kit/order-builders.ts';

describe('a venue record with its owner', () => {
  it('is a copy of the record with the owning strategy, the record itself untouched', () => {
    const order = anOrder();
    const owned = withOwner(order, 'mm');
    expect(owned).toEqual({ ...order, strategyId: 'mm' });
    expect(owned).not.toBe(order);
    expect('strategyId' in order).toBe(false);
  });

  it('names the owner given, over a strategyId the record already had', () => {
    const owned = withOwner({ ...anOrder(), strategyId: 'old' }, 'mm');
    expect(owned.strategyId).toBe('mm');
    expect(withOwner({ ...anOrder(), strategyId: undefined }, 'mm').strategyId).toBe('mm');
  });
});

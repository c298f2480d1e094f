import { describe, expect, it } from 'vitest';
import { limitPrice, orderQty } from '../../../core/kernel/order-amounts.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';

// decimalForStep took the 12-digit cleanup only when it moved the value by at most a millionth of a step. On a
// 1e-8 lot/tick that is 1e-14, less than one ulp of any number >= 64, so float noise on a value meant to be on
// the grid was not removed there and the floor lost a whole step.
const SYM = 'OKX_SPOT_BTC_USDT';
const satoshi = anInstrument(SYM, {
  tickSize: D('0.00000001'),
  lotSize: D('0.00000001'),
  minSize: D('0.00000001'),
});

describe('round: true on a 1e-8 grid, values >= 64 with float noise', () => {
  it('qty 2.84834476 * 90 (256.35102839999996) is 256.3510284, not a lot below', () => {
    expect(2.84834476 * 90).toBe(256.35102839999996);
    expect(orderQty(2.84834476 * 90, satoshi).toFixed()).toBe('256.3510284');
    expect(limitPrice(2.84834476 * 90, 'BUY', satoshi).toFixed()).toBe('256.3510284');
  });
});

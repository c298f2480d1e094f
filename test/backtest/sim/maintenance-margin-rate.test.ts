import { describe, expect, it } from 'vitest';
import { DEFAULT_MAINTENANCE_MARGIN_RATE, maintenanceMarginRateOf } from '../../../backtest/sim/index.ts';
import { D } from '../../../core/model/index.ts';

describe('maintenanceMarginRateOf (the rate the sim charges and the report names)', () => {
  it('takes one rate for all, a per-sym rate, or the default 0.005 for a sym the options leave out', () => {
    expect(DEFAULT_MAINTENANCE_MARGIN_RATE.toFixed()).toBe('0.005');
    expect(maintenanceMarginRateOf(undefined, 'BINANCE_PERP_BTC_USDT').toFixed()).toBe('0.005');
    expect(maintenanceMarginRateOf(D('0.01'), 'BINANCE_PERP_BTC_USDT').toFixed()).toBe('0.01');
    const perSym = { BINANCE_PERP_BTC_USDT: D('0.004') };
    expect(maintenanceMarginRateOf(perSym, 'BINANCE_PERP_BTC_USDT').toFixed()).toBe('0.004');
    expect(maintenanceMarginRateOf(perSym, 'BINANCE_PERP_ETH_USDT').toFixed()).toBe('0.005');
  });
});

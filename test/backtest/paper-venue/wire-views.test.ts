import { describe, expect, it } from 'vitest';
import { assetToWire } from '../../../backtest/paper-venue/wire-views.ts';
import { type Asset, D } from '../../../core/model/index.ts';

const usdt = (loan: string): Asset => ({
  coin: 'USDT',
  balance: D(1000),
  available: D(1000),
  frozen: D(0),
  equity: D(1000),
  borrow: D(0),
  upnl: D(0),
  loan: D(loan),
  loanValue: D(loan),
  netEquity: D(1000).sub(loan),
  netEquityValue: D(1000).sub(loan),
  netMarginValue: D(1000).sub(loan),
});

describe('paper venue wire views', () => {
  it('writes the loan fields of an asset only while its loan is above zero (spec)', () => {
    expect(assetToWire(usdt('250'))).toMatchObject({ loan: '250', netEquity: '750' });
    const repaid = assetToWire(usdt('0'));
    expect(repaid).not.toHaveProperty('loan');
    expect(repaid).not.toHaveProperty('netMarginValue');
    expect(repaid).toMatchObject({ coin: 'USDT', balance: '1000' });
  });
});

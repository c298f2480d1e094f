import { describe, expect, it } from 'vitest';
import {
  accountToWire,
  assetToWire,
  executionToWire,
  liquidationPositionToWire,
  positionToWire,
} from '../../../backtest/paper-venue/wire-views.ts';
import { type Asset, D, type Execution } from '../../../core/model/index.ts';
import { anAccountUpdate, aPositionUpdate } from '../../kit/kernel-events.ts';

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

  it("writes a position's avgPrice to 8 decimal places, or 8 significant digits below 1, as liqPrice", () => {
    const { position } = aPositionUpdate(1, '3', { avgPrice: D('300.2').div(3) });
    expect(position.avgPrice.toFixed().length).toBeGreaterThan(30);
    expect(positionToWire(position).avgPrice).toBe('100.06666667');
    const { position: tiny } = aPositionUpdate(1, '3', { avgPrice: D('0.00000002').div(3) });
    expect(positionToWire(tiny).avgPrice).toBe('0.0000000066666667');
  });

  it('writes riskRatio and liqPrice to 8 decimal places, not the sim\u2019s 40-digit quotients', () => {
    const ratio = D('0.00004750260688086548194733438150235838030636');
    const liq = D('89.48637074260189838079285315466219988833');
    const { account } = anAccountUpdate(1, '1000');
    expect(accountToWire({ ...account, riskRatio: ratio }).riskRatio).toBe('0.0000475');
    const { position } = aPositionUpdate(1, '90', { liqPrice: liq });
    expect(positionToWire(position).liqPrice).toBe('89.48637074');
    const record = liquidationPositionToWire({
      liquidationEventId: 'L-1',
      portfolioId: 'p-1',
      orderId: 'O-1',
      sym: position.sym,
      side: 'SELL',
      quantity: D(90),
      price: D(80),
      liquidationFee: D(1),
      position: {
        sym: position.sym,
        positionSide: 'NONE',
        positionQty: D(90),
        avgPrice: D(100),
        markPrice: D(80),
        liqPrice: liq,
      },
      timestamp: 1,
    });
    expect(record.position).toMatchObject({ liqPrice: '89.48637074' });
  });

  it('keeps 8 significant digits of a liqPrice below 1, so a coin quoted at 1e-8 keeps its liquidation price', () => {
    const { position } = aPositionUpdate(1, '100000000', { liqPrice: D('0.0000000108') });
    expect(positionToWire(position).liqPrice).toBe('0.0000000108');
    const { position: quotient } = aPositionUpdate(1, '1', {
      liqPrice: D('0.00000001083333333333333333333'),
    });
    expect(positionToWire(quotient).liqPrice).toBe('0.000000010833333');
  });

  it('writes exchangeType and businessType of a crypto execution, and neither for an equity (per public venue docs)', () => {
    const fill = (sym: string): Execution => ({
      transactionId: 't1',
      portfolioId: 'p-1',
      orderId: 'o1',
      clientOrderId: 'c1',
      sym,
      side: 'BUY',
      positionSide: 'NONE',
      quantity: D(1),
      price: D(100),
      fee: D('0.05'),
      feeCoin: 'USDT',
      rebate: D(0),
      rpnl: D(0),
      execType: 'TAKER',
      timestamp: 1,
    });
    expect(executionToWire(fill('OKX_SPOT_ETH_USDT'))).toMatchObject({
      exchangeType: 'OKX',
      businessType: 'SPOT',
      tradingFee: '0.05',
      createAt: 1,
    });
    const equity = executionToWire(fill('US_EQUITY_AAPL'));
    expect(equity).not.toHaveProperty('exchangeType');
    expect(equity).not.toHaveProperty('businessType');
  });
});

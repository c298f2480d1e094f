import { describe, expect, it } from 'vitest';
import { ordersCsvLines } from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';

describe('orders.csv', () => {
  it('shows a conditional order’s condition, so an OCO does not read as a plain order of its type', () => {
    const base = aBacktestResult(30);
    const [first] = [...base.orders];
    if (first === undefined) throw new Error('the result has no order');
    const oco = {
      ...first,
      clientOrderId: 'bk-OCO-1',
      orderType: 'MARKET' as const,
      condition: { code: 'OCO' as const, triggerPrice: D('110.5'), stopPrice: D('95.25') },
      actionMsg: 'released',
    };
    const lines = [...ordersCsvLines({ ...base, orders: [oco, first] })];
    const header = (lines[0] ?? '').trimEnd().split(',');
    const row = (line: string | undefined) => {
      const cells = (line ?? '').trimEnd().split(',');
      return Object.fromEntries(
        ['conditionCode', 'triggerPrice', 'stopPrice', 'timeToSend', 'actionMsg'].map((c) => [
          c,
          cells[header.indexOf(c)],
        ]),
      );
    };
    expect(row(lines[1])).toEqual({
      conditionCode: 'OCO',
      triggerPrice: '110.5',
      stopPrice: '95.25',
      timeToSend: '',
      actionMsg: 'released',
    });
    expect(row(lines[2])).toEqual({
      conditionCode: '',
      triggerPrice: '',
      stopPrice: '',
      timeToSend: '',
      actionMsg: '',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { D } from '../../../../core/model/index.ts';
import {
  cancelOrderRequest,
  cancelOrdersRequest,
  type PlaceOrderArgs,
  placeOrderArgsProblem,
  placeOrderRequest,
  RequestRuleError,
  replaceOrderRequest,
} from '../../../../core/venue/index.ts';
import { aLimitOrder, aMarketOrder } from '../../../kit/intent-builders.ts';

const uuid = () => '11111111-2222-4333-8444-555555555555';

const VALID: PlaceOrderArgs = {
  brokerClientId: 'acct-1',
  exchangeCode: 'US',
  productCode: 'AAPL',
  bsFlag: 'B',
  orderType: 'L',
  price: '190.5',
  qty: 10,
};

describe('PLACE_ORDER argument rules (spec table)', () => {
  it('accepts valid args with the defaults (Day, no condition)', () => {
    expect(placeOrderArgsProblem(VALID)).toBeUndefined();
  });

  it.each<[string, Partial<PlaceOrderArgs> & Record<string, unknown>, string]>([
    ['exchangeCode other than US', { exchangeCode: 'HK' as 'US' }, 'exchangeCode'],
    ['bsFlag other than B/S', { bsFlag: 'X' as 'B' }, 'bsFlag'],
    ['orderType other than L/M', { orderType: 'S' as 'L' }, 'orderType'],
    ['market order with a non-zero price', { orderType: 'M', price: '1' }, 'price'],
    ['fractional qty', { qty: 1.5 }, 'qty'],
    ['zero qty', { qty: 0 }, 'qty'],
    ['unknown orderValidity', { orderValidity: 'IOC' as 'Day' }, 'orderValidity'],
    ['GTD without orderExpiryDate', { orderValidity: 'GTD' }, 'orderExpiryDate'],
    [
      'GTD with a badly formatted date',
      { orderValidity: 'GTD', orderExpiryDate: '2026/12/01' },
      'orderExpiryDate',
    ],
    ['unknown conditionCode', { conditionCode: 'XX' as 'UT' }, 'conditionCode'],
    ['UT without triggerPrice', { conditionCode: 'UT' }, 'triggerPrice'],
    ['DT without triggerPrice', { conditionCode: 'DT' }, 'triggerPrice'],
    ['SL without triggerPrice', { conditionCode: 'SL' }, 'triggerPrice'],
    ['OCO without stopPrice', { conditionCode: 'OCO', triggerPrice: '200' }, 'stopPrice'],
    ['TIME without timeToSend', { conditionCode: 'TIME' }, 'timeToSend'],
    ['TIME with a date only', { conditionCode: 'TIME', timeToSend: '2026-12-01' }, 'timeToSend'],
    ['positionSide other than NONE/LONG/SHORT', { positionSide: 'BOTH' as 'NONE' }, 'positionSide'],
  ])('refuses %s', (_, change, field) => {
    expect(placeOrderArgsProblem({ ...VALID, ...change })?.field).toBe(`PLACE_ORDER args.${field}`);
  });

  it.each<Partial<PlaceOrderArgs>>([
    { orderType: 'M', price: '0' },
    { orderValidity: 'GTD', orderExpiryDate: '2026-12-01' },
    { conditionCode: 'OCO', triggerPrice: '200', stopPrice: '180' },
    { conditionCode: 'TIME', timeToSend: '2026-12-01 14:30:00' },
    { conditionCode: 'HOLD' },
    { conditionCode: '' },
  ])('accepts %o', (change) => {
    expect(placeOrderArgsProblem({ ...VALID, ...change })).toBeUndefined();
  });
});

describe('order entry requests', () => {
  it('sends PLACE_ORDER for a US equity, with the intent ref as reference and price "0" for market', () => {
    const request = placeOrderRequest(
      aMarketOrder({ sym: 'US_EQUITY_AAPL', qty: D('10'), timeInForce: 'DAY', ref: 'r-9' }),
      'acct-1',
      uuid,
    );
    expect(request).toEqual({
      action: 'PLACE_ORDER',
      clientOrderId: 'r-9',
      args: {
        brokerClientId: 'acct-1',
        exchangeCode: 'US',
        productCode: 'AAPL',
        bsFlag: 'B',
        orderType: 'M',
        price: '0',
        qty: 10,
        orderValidity: 'Day',
        reference: 'r-9',
        positionSide: 'NONE',
      },
    });
  });

  it('generates a UUID reference when the intent has none', () => {
    const request = placeOrderRequest(
      aLimitOrder({ sym: 'US_EQUITY_AAPL', ref: '', timeInForce: 'GTC' }),
      'a',
      uuid,
    );
    expect(request.clientOrderId).toBe(uuid());
    expect((request.args as PlaceOrderArgs).reference).toBe(uuid());
  });

  it('refuses a GTD equity order without expiry date before sending', () => {
    expect(() =>
      placeOrderRequest(aLimitOrder({ sym: 'US_EQUITY_AAPL', timeInForce: 'GTD' }), 'a', uuid),
    ).toThrow(/orderExpiryDate/);
  });

  it('sends the position side of an equity order, so a BOTH-mode sell can open a short', () => {
    const request = placeOrderRequest(
      aLimitOrder({
        sym: 'US_EQUITY_AAPL',
        side: 'SELL',
        qty: D('10'),
        timeInForce: 'DAY',
        positionSide: 'SHORT',
      }),
      'a',
      uuid,
    );
    expect(request.args).toMatchObject({ bsFlag: 'S', positionSide: 'SHORT' });
  });

  it('refuses a crypto DAY or GTD order before sending: the venue would rest it as GTC', () => {
    for (const timeInForce of ['DAY', 'GTD'] as const)
      expect(() =>
        placeOrderRequest(aLimitOrder({ timeInForce, expiryDate: '2026-12-31' }), 'a', uuid),
      ).toThrow(RequestRuleError);
  });

  it('refuses an equity order carrying a tp or sl rather than sending it without: PLACE_ORDER has no attachments', () => {
    const leg = { triggerPrice: D('200'), triggerType: 'LastPrice' as const, price: D('0') };
    for (const attachment of [{ tp: leg }, { sl: leg }]) {
      const intent = aLimitOrder({ sym: 'US_EQUITY_AAPL', qty: D('10'), timeInForce: 'DAY', ...attachment });
      expect(() => placeOrderRequest(intent, 'a', uuid)).toThrow(/carries no attachments.*conditional order/);
    }
  });

  it('refuses fractional shares', () => {
    expect(() => placeOrderRequest(aLimitOrder({ sym: 'US_EQUITY_AAPL', qty: D('1.5') }), 'a', uuid)).toThrow(
      /whole/,
    );
  });

  it('sends place_order with the REST body for a crypto sym', () => {
    const request = placeOrderRequest(
      aLimitOrder({ ref: 'c-1', price: D('60000.5'), qty: D('0.01') }),
      'a',
      uuid,
    );
    expect(request.action).toBe('place_order');
    expect(request.args).toMatchObject({
      sym: 'BINANCE_PERP_BTC_USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '0.01',
      limitPrice: '60000.5',
      clientOrderId: 'c-1',
      timeInForce: 'GTC',
      positionSide: 'NONE',
      reduceOnly: false,
    });
  });

  it('refuses a clientOrderId over 40 characters and a limit order without price', () => {
    expect(() => placeOrderRequest(aLimitOrder({ ref: 'x'.repeat(41) }), 'a', uuid)).toThrow(/40/);
    const { price: _p, ...noPrice } = aLimitOrder();
    expect(() => placeOrderRequest(noPrice, 'a', uuid)).toThrow(/positive price/);
  });

  it('builds replace_order, cancel_order and cancel_orders from intents', () => {
    expect(
      replaceOrderRequest({ kind: 'modifyOrder', ref: 'm', target: 'c-1', sym: 'S', price: D('2') }),
    ).toEqual({
      action: 'replace_order',
      clientOrderId: 'c-1',
      args: { clientOrderId: 'c-1', sym: 'S', limitPrice: '2' },
    });
    expect(cancelOrderRequest({ kind: 'cancelOrder', ref: 'k', target: 'c-1', sym: 'S' })).toEqual({
      action: 'cancel_order',
      clientOrderId: 'c-1',
      args: { clientOrderId: 'c-1', sym: 'S' },
    });
    expect(cancelOrdersRequest({ kind: 'cancelOrders', ref: 'k2', targets: ['a', 'b'] }).args).toEqual({
      clientOrderIds: ['a', 'b'],
    });
    expect(() => replaceOrderRequest({ kind: 'modifyOrder', ref: 'm', target: 'c', sym: 'S' })).toThrow(
      /qty, price/,
    );
  });
});

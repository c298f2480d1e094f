import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONDITION_CODES, D } from '../../../../core/model/index.ts';
import {
  algoOrderFromWire,
  algoOrderWireSchema,
  assetFromWire,
  assetWireSchema,
  classifyPrivateFrame,
  decodeWire,
  executionFromWire,
  executionWireSchema,
  liquidationEventFromWire,
  liquidationEventWireSchema,
  orderFromWire,
  orderToWire,
  orderWireSchema,
  placeOrderBodyFromIntent,
  placeOrderBodySchema,
  positionFromWire,
  positionWireSchema,
  RequestRuleError,
} from '../../../../core/venue/index.ts';
import { aLimitOrder, aMarketOrder } from '../../../kit/intent-builders.ts';
import {
  WIRE_ASSET,
  WIRE_ASSET_WITH_LOAN,
  WIRE_EXECUTION,
  WIRE_LIQ_EVENT,
  WIRE_ORDER,
  WIRE_POSITION,
} from '../../../kit/venue-wire-samples.ts';

const decimalText = fc
  .tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.integer({ min: 0, max: 10 }))
  .map(([units, scale]) => D(units.toString()).div(D(10).pow(scale)).toFixed());

describe('wire <-> model mapping', () => {
  it('maps an order wire -> model -> wire without losing a digit', () => {
    fc.assert(
      fc.property(decimalText, decimalText, decimalText, (qty, price, fee) => {
        const wire = decodeWire(
          orderWireSchema,
          { ...WIRE_ORDER, orderQty: qty, limitPrice: price, fee },
          'test',
        );
        const back = orderToWire(orderFromWire(wire));
        expect(D(back.orderQty).eq(D(qty))).toBe(true);
        expect(D(back.limitPrice ?? '').eq(D(price))).toBe(true);
        expect(D(back.fee ?? '').eq(D(fee))).toBe(true);
        expect(back.tpTriggerPrice).toBe('65000');
        expect(back.action).toBe('PLACE');
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the algo order id of an order an algo order's trigger placed", () => {
    const wire = decodeWire(orderWireSchema, { ...WIRE_ORDER, algoOrderId: 'a-7' }, 'test');
    expect(orderFromWire(wire).algoOrderId).toBe('a-7');
    expect(orderToWire(orderFromWire(wire)).algoOrderId).toBe('a-7');
    expect(orderFromWire(decodeWire(orderWireSchema, WIRE_ORDER, 'test'))).not.toHaveProperty('algoOrderId');
  });

  it('keeps the order a tp/sl algo order is attached to, so the kernel gives it to that order’s strategy', () => {
    const wire = {
      algoOrderId: 'a-8',
      clientAlgoOrderId: 'c-1-sl',
      sym: 'BINANCE_PERP_BTC_USDT',
      side: 'SELL',
      algoOrderType: 'TP_SL',
      conditionType: 'LTE',
      triggerPrice: '90',
      qty: '1',
      algoOrderState: 'NEW',
    };
    const attached = decodeWire(algoOrderWireSchema, { ...wire, attachedOrderId: 'o-1' }, 'test');
    expect(algoOrderFromWire(attached).attachedOrderId).toBe('o-1');
    expect(algoOrderFromWire(decodeWire(algoOrderWireSchema, wire, 'test'))).not.toHaveProperty(
      'attachedOrderId',
    );
  });

  it('keeps unknown extra fields on the wire value (loose schemas)', () => {
    expect(decodeWire(orderWireSchema, WIRE_ORDER, 'test').venueExtra).toBe('kept');
  });

  it('gives an asset the five loan fields only when loan is present', () => {
    const plain = assetFromWire(decodeWire(assetWireSchema, WIRE_ASSET, 'test'));
    expect(plain.loan).toBeUndefined();
    expect(plain.upnl.toString()).toBe('0.038');
    const loaned = assetFromWire(decodeWire(assetWireSchema, WIRE_ASSET_WITH_LOAN, 'test'));
    expect(
      [loaned.loan, loaned.loanValue, loaned.netEquity, loaned.netEquityValue, loaned.netMarginValue].map(
        String,
      ),
    ).toEqual(['50', '50', '950', '950', '900']);
  });

  it('takes the execution fee from tradingFee and the time from createAt when the public names are used', () => {
    const { fee: _f, feeCoin: _c, timestamp: _t, ...publicNames } = WIRE_EXECUTION;
    const execution = executionFromWire(
      decodeWire(
        executionWireSchema,
        { ...publicNames, tradingFee: '0.3', tradingFeeCoin: 'USDT', createAt: 42 },
        'test',
      ),
    );
    expect([execution.fee.toString(), execution.feeCoin, execution.timestamp]).toEqual(['0.3', 'USDT', 42]);
  });

  it('maps a position without liqPrice (removed in 26 Jan) to liqPrice zero', () => {
    const { liqPrice: _l, ...old } = WIRE_POSITION;
    expect(positionFromWire(decodeWire(positionWireSchema, old, 'test')).liqPrice.isZero()).toBe(true);
  });

  it('refuses a liquidation node type Keel does not know, as a malformed frame', () => {
    expect(
      liquidationEventFromWire(decodeWire(liquidationEventWireSchema, WIRE_LIQ_EVENT, 't'))?.nodeType,
    ).toBe('TRIGGERED');
    const frame = classifyPrivateFrame(
      JSON.stringify({ channel: 'LiquidationEvent', data: { ...WIRE_LIQ_EVENT, nodeType: 'X' } }),
      1,
    );
    expect(frame.kind).toBe('malformed');
  });

  it('refuses exponent and non-decimal strings in money fields', () => {
    expect(() => decodeWire(orderWireSchema, { ...WIRE_ORDER, orderQty: '1e5' }, 'test')).toThrow(/orderQty/);
    expect(() => decodeWire(orderWireSchema, { ...WIRE_ORDER, limitPrice: 'NaN' }, 'test')).toThrow(
      /limitPrice/,
    );
  });

  it('writes a place-order body the server-side schema accepts, market price "0", FAK sent as IOC', () => {
    const limit = placeOrderBodyFromIntent(aLimitOrder({ ref: 'c-1', price: D('100.25'), qty: D('0.5') }));
    expect(placeOrderBodySchema.safeParse(limit).success).toBe(true);
    expect(limit).toMatchObject({ orderQty: '0.5', limitPrice: '100.25', clientOrderId: 'c-1' });
    const market = placeOrderBodyFromIntent(aMarketOrder({ ref: 'c-2', timeInForce: 'FAK' }));
    expect(market).toMatchObject({ orderType: 'MARKET', limitPrice: '0', timeInForce: 'IOC' });
  });

  it('refuses to write a place-order body for a conditional order, which crypto orders have no field for', () => {
    for (const code of CONDITION_CODES) {
      const intent = aLimitOrder({
        ref: 'c-3',
        condition: { code, triggerPrice: D('95'), stopPrice: D('90') },
      });
      let thrown: unknown;
      try {
        placeOrderBodyFromIntent(intent);
      } catch (error) {
        thrown = error;
      }
      // Sent without it, the order would go at once, as a plain order.
      expect(thrown).toBeInstanceOf(RequestRuleError);
      expect(thrown).toMatchObject({
        field: 'condition',
        message: `condition: ${code} is a PLACE_ORDER (US equities) condition: crypto orders carry none`,
      });
    }
  });
});

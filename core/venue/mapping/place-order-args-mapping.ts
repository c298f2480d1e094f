import { formatDecimal, type PlaceOrderIntent, parseSym } from '../../model/index.ts';
import { RequestRuleError } from '../errors.ts';
import type { PlaceOrderArgs } from '../wire/place-order-message.ts';

const VALIDITY: Readonly<Record<string, PlaceOrderArgs['orderValidity']>> = {
  DAY: 'Day',
  FAK: 'FAK',
  IOC: 'FAK',
  FOK: 'FOK',
  GTD: 'GTD',
  GTC: 'GTC',
};

/**
 * Maps an equity place-order intent (sym `US_EQUITY_{code}`) to the spec's PLACE_ORDER args, with
 * its positionSide (so a BOTH-mode sell opening a short is not booked on the long side). The args
 * have no reduce-only flag: a reduce-only equity order is one the risk gate let through because
 * it reduces the position when sent (`reduceOnly` check); the venue does not trim it if the
 * position shrinks before it fills. Nor do they carry a tp or sl: an intent with one is refused
 * rather than sent without it (the risk gate's `equityAttachments` check denies it first), nor a
 * quote amount: a quote-sized order (qty 0) is refused rather than sent as qty 0 (the gate's
 * `equityQuoteQty` check denies it first).
 * @param intent - the intent; `ref` becomes `reference`
 * @param brokerClientId - the client account id the connection trades for
 * @returns the args (check them with placeOrderArgsProblem before sending)
 * @throws RequestRuleError when the sym is not an equity, the order is sized by quoteOrderQty, the
 * quantity is not whole or the intent carries a tp or sl
 */
export function placeOrderArgsFromIntent(intent: PlaceOrderIntent, brokerClientId: string): PlaceOrderArgs {
  const id = parseSym(intent.sym);
  if (id.kind !== 'equity') throw new RequestRuleError('sym', `${intent.sym} is not a US equity`);
  if (intent.quoteOrderQty !== undefined && intent.qty.isZero()) {
    throw new RequestRuleError(
      'quoteOrderQty',
      'PLACE_ORDER carries no quote amount: size the order in shares (qty)',
    );
  }
  if (!intent.qty.isInteger()) throw new RequestRuleError('qty', 'must be a whole number of shares');
  const attachment = intent.tp !== undefined ? 'tp' : intent.sl !== undefined ? 'sl' : undefined;
  if (attachment !== undefined) {
    throw new RequestRuleError(
      attachment,
      'PLACE_ORDER carries no attachments: place the exit as a conditional order (e.g. OCO, or SL) after the fill',
    );
  }
  const validity = VALIDITY[intent.timeInForce];
  if (validity === undefined) {
    throw new RequestRuleError('timeInForce', `${intent.timeInForce} has no PLACE_ORDER orderValidity`);
  }
  const condition = intent.condition;
  return {
    brokerClientId,
    exchangeCode: 'US',
    productCode: id.productCode,
    bsFlag: intent.side === 'BUY' ? 'B' : 'S',
    orderType: intent.orderType === 'MARKET' ? 'M' : 'L',
    price: intent.orderType === 'MARKET' || intent.price === undefined ? '0' : formatDecimal(intent.price),
    qty: intent.qty.toNumber(),
    orderValidity: validity,
    ...(intent.expiryDate === undefined ? {} : { orderExpiryDate: intent.expiryDate }),
    reference: intent.ref,
    ...(condition === undefined
      ? {}
      : {
          conditionCode: condition.code,
          ...(condition.triggerPrice === undefined
            ? {}
            : { triggerPrice: formatDecimal(condition.triggerPrice) }),
          ...(condition.stopPrice === undefined ? {} : { stopPrice: formatDecimal(condition.stopPrice) }),
          ...(condition.timeToSend === undefined ? {} : { timeToSend: condition.timeToSend }),
        }),
    ...(intent.extendedTrading === undefined ? {} : { extendedTrading: intent.extendedTrading }),
    positionSide: intent.positionSide,
  };
}

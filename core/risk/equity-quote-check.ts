import { deny, type RiskCheck } from './risk-check.ts';

/**
 * Denies a quote-sized market order (`quoteOrderQty` with qty 0, `ctx.order.market({ quoteQty })`)
 * on a US equity: the spec's PLACE_ORDER has no quote amount field, so paper and live could send
 * it only as qty 0, while the backtest sim would have filled it. Denied in every mode, a backtest
 * cannot show fills a live run never gets; the strategy sizes the order in shares itself (e.g.
 * `ctx.size.cash`). An order with a qty above zero and a quoteOrderQty is not judged here: orderQty
 * denies it before.
 */
export const equityQuoteQtyCheck: RiskCheck = {
  name: 'equityQuoteQty',
  kind: 'rule',
  intents: ['placeOrder'],
  run({ intent, view }) {
    if (intent.kind !== 'placeOrder' || intent.quoteOrderQty === undefined || !intent.qty.isZero())
      return undefined;
    if (view.instrument(intent.sym)?.id.kind !== 'equity') return undefined;
    return deny(
      'equityQuoteQty',
      `order ${intent.ref} on ${intent.sym} is sized by quoteOrderQty ${intent.quoteOrderQty.toFixed()}, but PLACE_ORDER (US equities) carries a whole number of shares only: size it in shares (qty)`,
    );
  },
};

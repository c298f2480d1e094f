import type { Intent } from '../../model/index.ts';

/** What a log record names of a command: its reference and kind, and what it acts on. */
export interface IntentLogFields {
  readonly ref: string;
  readonly kind: Intent['kind'];
  readonly sym?: string;
  readonly syms?: readonly string[];
  /** The order placed, modified or cancelled. */
  readonly clientOrderId?: string;
  /** The orders a cancelOrders names. */
  readonly clientOrderIds?: readonly string[];
  /** The algo order placed, replaced or cancelled. */
  readonly clientAlgoOrderId?: string;
  readonly coin?: string;
}

/**
 * The fields a log record about a command carries, so an operator can tell which sym and order it
 * concerns without reading the strategy's own records.
 * @param intent - the command
 * @returns its reference and kind, with its sym(s), the order's or algo order's reference, or the coin
 */
export function intentLogFields(intent: Intent): IntentLogFields {
  const base = { ref: intent.ref, kind: intent.kind };
  switch (intent.kind) {
    case 'placeOrder':
      return { ...base, sym: intent.sym, clientOrderId: intent.ref };
    case 'modifyOrder':
    case 'cancelOrder':
      return { ...base, sym: intent.sym, clientOrderId: intent.target };
    case 'cancelOrders':
      return {
        ...base,
        ...(intent.sym === undefined ? {} : { sym: intent.sym }),
        ...(intent.targets === undefined ? {} : { clientOrderIds: intent.targets }),
      };
    case 'placeAlgoOrder':
      return { ...base, sym: intent.sym, clientAlgoOrderId: intent.ref };
    case 'replaceAlgoOrder':
    case 'cancelAlgoOrder':
      return { ...base, sym: intent.sym, clientAlgoOrderId: intent.target };
    case 'cancelAllAlgoOrders':
      return intent.sym === undefined ? base : { ...base, sym: intent.sym };
    case 'closePosition':
      return { ...base, sym: intent.sym };
    case 'closePositions':
      return { ...base, syms: intent.symList };
    case 'borrow':
    case 'repay':
      return { ...base, coin: intent.coin };
    default:
      return base;
  }
}

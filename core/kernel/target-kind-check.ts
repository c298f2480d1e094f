import type { AlgoOrder, Intent, Order, PlaceAlgoOrderIntent } from '../model/index.ts';
import type { KernelDenial } from './intent-ownership.ts';

/** What {@link targetKindCheck} reads: the orders and algo orders Keel knows or sent. */
export interface TargetKindLookups {
  orderByRef(clientOrderId: string): Order | undefined;
  algoOrderByRef(clientAlgoOrderId: string): AlgoOrder | undefined;
  inFlightAlgoOrder(clientAlgoOrderId: string): PlaceAlgoOrderIntent | undefined;
}

/**
 * A modify or cancel must name an order, a replace or algo cancel an algo order: the venue keeps
 * the two apart, so one naming the other kind would go out without a sym and come back refused as
 * unknown (401018), or be denied for its empty sym. Denied `kernel.targetKind` with the call to
 * use instead, cancels too (such a cancel can cancel nothing). A reference Keel knows as neither
 * goes on as before (an order placed outside Keel, or one not heard of yet).
 * @param intent - the intent
 * @param known - the orders and algo orders Keel knows or sent
 * @returns the denial, or undefined when the target is not known as the other kind
 */
export function targetKindCheck(intent: Intent, known: TargetKindLookups): KernelDenial | undefined {
  switch (intent.kind) {
    case 'modifyOrder':
    case 'cancelOrder': {
      if (known.orderByRef(intent.target) !== undefined || !isKnownAlgo(intent.target, known))
        return undefined;
      const use = intent.kind === 'modifyOrder' ? 'replaceAlgo' : 'cancelAlgo';
      return denial(intent, `an algo order: use ctx.order.${use}`);
    }
    case 'replaceAlgoOrder':
    case 'cancelAlgoOrder': {
      if (isKnownAlgo(intent.target, known) || known.orderByRef(intent.target) === undefined)
        return undefined;
      const use = intent.kind === 'replaceAlgoOrder' ? 'modify' : 'cancel';
      return denial(intent, `an order, not an algo order: use ctx.order.${use}`);
    }
    default:
      return undefined;
  }
}

function isKnownAlgo(ref: string, known: TargetKindLookups): boolean {
  return known.algoOrderByRef(ref) !== undefined || known.inFlightAlgoOrder(ref) !== undefined;
}

function denial(intent: Intent & { readonly target: string }, what: string): KernelDenial {
  return { check: 'kernel.targetKind', reason: `${intent.kind} ${intent.ref}: ${intent.target} is ${what}` };
}

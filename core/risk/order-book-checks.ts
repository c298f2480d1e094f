import type { ClosePositionIntent, ClosePositionsIntent } from '../model/index.ts';
import { closedLegs, isFinalOrderState } from '../model/index.ts';
import { type OrderTerms, termsOf } from './order-terms.ts';
import { fitsOppositePosition } from './position-reduction.ts';
import { deny, type RiskCheck } from './risk-check.ts';
import type { RiskView } from './risk-view.ts';

/** The venue's per-sym open order limit (the instrument's maxNumOrders) is not reached. */
export const maxOrdersPerSymCheck: RiskCheck = {
  name: 'maxOrdersPerSym',
  kind: 'rule',
  intents: ['placeOrder'],
  run({ intent, view }) {
    if (intent.kind !== 'placeOrder') return undefined;
    const spec = view.instrument(intent.sym);
    if (spec === undefined) return undefined;
    const open = view.countOpenOrders({ sym: intent.sym });
    if (open < spec.maxNumOrders) return undefined;
    return deny(
      'maxOrdersPerSym',
      `order ${intent.ref}: ${intent.sym} already has ${open} open orders, its maxNumOrders is ${spec.maxNumOrders}`,
    );
  },
};

/**
 * A modification targets an open order of the strategy that sends it (strategies own their
 * orders), and a new qty (the order's new total) exceeds what the order has filled, as the venue
 * requires (400001 "qty must exceed the filled"); a replacement targets an algo order Keel knows or sent and has not heard back on, as
 * the size and limit checks judge it as that algo order with the new values (one Keel knows
 * nothing of would pass them unjudged).
 */
export const modifyTargetCheck: RiskCheck = {
  name: 'modifyTarget',
  kind: 'rule',
  intents: ['modifyOrder', 'replaceAlgoOrder'],
  run({ intent, view, strategyId }) {
    if (intent.kind === 'replaceAlgoOrder') {
      const known =
        view.algoOrderByRef(intent.target) !== undefined ||
        view.inFlightAlgoOrder(intent.target) !== undefined;
      if (known) return undefined;
      return deny(
        'modifyTarget',
        `replaceAlgoOrder ${intent.ref}: ${intent.target} is no algo order Keel knows or has sent`,
      );
    }
    if (intent.kind !== 'modifyOrder') return undefined;
    const target = view.orderByRef(intent.target);
    const own =
      target !== undefined &&
      !isFinalOrderState(target.orderState) &&
      view.ownerOf(intent.target) === strategyId;
    if (!own)
      return deny(
        'modifyTarget',
        `modifyOrder ${intent.ref}: ${intent.target} is not an open order of strategy ${strategyId}`,
      );
    if (intent.qty === undefined || intent.qty.gt(target.executedQty)) return undefined;
    return deny(
      'modifyTarget',
      `modifyOrder ${intent.ref}: qty ${intent.qty.toFixed()} does not exceed the ${target.executedQty.toFixed()} ${intent.target} has filled (qty is the order's new total, its filled part included)`,
    );
  },
};

/**
 * A reduce-only order must reduce: opposite side to a non-zero position on its leg. On a crypto sym
 * it may be larger than the position (SELL 0.3 against a 0.1 long reduces it): the venue trims a
 * reduce-only order to the position when it fills and refuses it when nothing is left (as the
 * simulated and paper venues do; the spec is silent), so several may cover one position and a
 * stop sized for a position that has since shrunk still closes what is left. A US equity's order
 * must also be no larger than the position: PLACE_ORDER has no reduce-only flag, so the venue would
 * fill the excess as a plain order and open a position the other way. A close-position must have a
 * position to close. Reduce-only algo orders are not checked here (Keel's choice): they act when
 * triggered, often on a position that does not exist yet (a stop placed with its entry), and the
 * venue applies reduce-only then. Nor is a new trailing stop (a placeOrder with `trailingStop`,
 * judged when placed as the order it sends), for the same reason: its order is checked here when
 * it fires.
 *
 * A close-position passes when a leg it reaches ({@link closedLegs}: every leg of the sym for NONE)
 * is open, or flat with an order open or sent that could open it ({@link RiskView.legMayGrow}:
 * `return [market buy, closePosition]` from one hook, whose buy may fill before the close
 * arrives), the legs the kernel follows a close on (`InFlightCloses`); it is denied only when
 * nothing could give it a position to close. A closePositions is judged by the same rule on every
 * leg of its syms: it passes when one of them may be closed (the venue closes what it finds on the
 * others and refuses only a list with nothing to close).
 */
export const reduceOnlyCheck: RiskCheck = {
  name: 'reduceOnly',
  kind: 'rule',
  intents: ['placeOrder', 'closePosition', 'closePositions'],
  run(input) {
    const { intent, view } = input;
    if (intent.kind === 'closePosition' || intent.kind === 'closePositions') {
      const mayClose = closedLegs(intent).some(
        ({ sym, positionSide }) =>
          !view.positionQty(sym, positionSide).isZero() || view.legMayGrow(sym, positionSide),
      );
      return mayClose
        ? undefined
        : deny(
            'reduceOnly',
            `${intent.kind} ${intent.ref}: there is no ${closedPositionsNamed(intent)} position to close, and no open or sent order could open one before the close reaches the venue`,
          );
    }
    if (intent.kind !== 'placeOrder' || intent.trailingStop !== undefined) return undefined;
    const terms = termsOf(input);
    if (terms === undefined || !terms.reduceOnly) return undefined;
    const problem = reduceOnlyProblem(terms, view);
    if (problem === undefined) return undefined;
    return deny(
      'reduceOnly',
      `reduce-only ${terms.side} ${terms.qty.toFixed()} ${terms.sym} (${intent.ref}) ${problem}`,
    );
  },
};

/** The positions a close names in its denial: `BTC`, `BTC LONG`, `BTC or ETH`. */
function closedPositionsNamed(intent: ClosePositionIntent | ClosePositionsIntent): string {
  if (intent.kind === 'closePositions') return intent.symList.join(' or ');
  return intent.positionSide === 'NONE' ? intent.sym : `${intent.sym} ${intent.positionSide}`;
}

/**
 * Why a reduce-only order cannot reduce its position, if it cannot.
 * @returns the end of the denial's sentence, undefined when it reduces
 */
function reduceOnlyProblem(terms: OrderTerms, view: RiskView): string | undefined {
  const position = view.positionQty(terms.sym, terms.positionSide);
  const leg = terms.positionSide === 'NONE' ? '' : ` ${terms.positionSide}`;
  if (position.isZero()) return `has no${leg} position to reduce`;
  if (position.isPositive() === (terms.side === 'BUY'))
    return `would add to the${leg} position of ${position.toFixed()}, not reduce it`;
  if (view.instrument(terms.sym)?.id.kind !== 'equity' || fitsOppositePosition(terms, view)) return undefined;
  return `is larger than the${leg} position of ${position.toFixed()}: a US equity's venue does not trim it (PLACE_ORDER has no reduce-only flag) and would open the other way`;
}

/** The venue's close-positions symList holds 1 to 20 syms (error 401129 beyond). */
export const closePositionsSymListCheck: RiskCheck = {
  name: 'closePositionsSymList',
  kind: 'rule',
  intents: ['closePositions'],
  run({ intent }) {
    if (intent.kind !== 'closePositions') return undefined;
    const count = intent.symList.length;
    if (count >= 1 && count <= 20) return undefined;
    return deny(
      'closePositionsSymList',
      `closePositions ${intent.ref} lists ${count} syms; the venue takes 1 to 20`,
    );
  },
};

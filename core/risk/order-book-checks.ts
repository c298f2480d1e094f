import { isFinalOrderState } from '../model/index.ts';
import { termsOf } from './order-terms.ts';
import { fitsOppositePosition } from './position-reduction.ts';
import { deny, type RiskCheck } from './risk-check.ts';

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
 * orders); a replacement targets an algo order Keel knows or sent and has not heard back on, as
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
    if (own) return undefined;
    return deny(
      'modifyTarget',
      `modifyOrder ${intent.ref}: ${intent.target} is not an open order of strategy ${strategyId}`,
    );
  },
};

/**
 * A reduce-only order must reduce: opposite side to a non-zero position, no larger than it (on
 * its own: the venue trims reduce-only orders when they fill, so several may cover one position).
 * A close-position must have a position to close. Reduce-only algo orders are not checked
 * here (Keel's choice): they act when triggered, often on a position that does not exist yet
 * (a stop placed with its entry), and the venue applies reduce-only then.
 */
export const reduceOnlyCheck: RiskCheck = {
  name: 'reduceOnly',
  kind: 'rule',
  intents: ['placeOrder', 'closePosition'],
  run(input) {
    const { intent, view } = input;
    if (intent.kind === 'closePosition') {
      if (!view.positionQty(intent.sym, intent.positionSide).isZero()) return undefined;
      return deny(
        'reduceOnly',
        `closePosition ${intent.ref}: there is no ${intent.sym} ${intent.positionSide} position to close`,
      );
    }
    if (intent.kind !== 'placeOrder') return undefined;
    const terms = termsOf(input);
    if (terms === undefined || !terms.reduceOnly || fitsOppositePosition(terms, view)) return undefined;
    const position = view.positionQty(terms.sym, terms.positionSide);
    return deny(
      'reduceOnly',
      `reduce-only ${terms.side} ${terms.qty.toFixed()} ${terms.sym} (${intent.ref}) would not reduce the position of ${position.toFixed()}`,
    );
  },
};

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

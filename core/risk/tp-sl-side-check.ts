import { tpSlSideProblem } from '../model/index.ts';
import { deny, type RiskCheck } from './risk-check.ts';

/**
 * Denies a limit order whose take-profit or stop-loss triggers on the wrong side of its price (a
 * BUY's take-profit at or below it, its stop-loss at or above it; a SELL's the other way round),
 * as the paper venue refuses it: it would fire as soon as the entry fills, or protect nothing.
 * Keel's rule ({@link tpSlSideProblem}); a market order has no price to check against.
 */
export const tpSlSideCheck: RiskCheck = {
  name: 'tpSlSide',
  kind: 'rule',
  intents: ['placeOrder'],
  run({ intent }) {
    if (intent.kind !== 'placeOrder' || intent.orderType !== 'LIMIT' || intent.price === undefined)
      return undefined;
    const problem = tpSlSideProblem(
      intent.side,
      intent.price,
      intent.tp?.triggerPrice,
      intent.sl?.triggerPrice,
    );
    return problem === undefined
      ? undefined
      : deny('tpSlSide', `order ${intent.ref} on ${intent.sym}: ${problem}`);
  },
};

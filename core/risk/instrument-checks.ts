import type { Intent, IntentKind } from '../model/index.ts';
import { deny, type RiskCheck } from './risk-check.ts';

/**
 * The syms an intent trades or closes.
 * @param intent - any intent
 * @returns the syms, empty for intents without one (borrow, repay, position mode)
 */
export function symsOf(intent: Intent): readonly string[] {
  switch (intent.kind) {
    case 'placeOrder':
    case 'modifyOrder':
    case 'closePosition':
    case 'placeAlgoOrder':
    case 'replaceAlgoOrder':
      return [intent.sym];
    case 'closePositions':
      return intent.symList;
    default:
      return [];
  }
}

/** The intent kinds {@link symsOf} finds syms in. */
const SYM_INTENTS: readonly IntentKind[] = [
  'placeOrder',
  'modifyOrder',
  'closePosition',
  'placeAlgoOrder',
  'replaceAlgoOrder',
  'closePositions',
];

/** Denies intents on a sym the instrument list does not know. */
export const instrumentKnownCheck: RiskCheck = {
  name: 'instrumentKnown',
  kind: 'rule',
  intents: SYM_INTENTS,
  run({ intent, view }) {
    for (const sym of symsOf(intent)) {
      if (view.instrument(sym) === undefined) {
        return deny(
          'instrumentKnown',
          `${sym} is not a known instrument, so ${intent.kind} ${intent.ref} cannot be sent`,
        );
      }
    }
    return undefined;
  },
};

/** Denies intents on a sym whose state is not TRADING (HALTED or CLOSED). */
export const instrumentTradingCheck: RiskCheck = {
  name: 'instrumentTrading',
  kind: 'rule',
  intents: SYM_INTENTS,
  run({ intent, view }) {
    for (const sym of symsOf(intent)) {
      const spec = view.instrument(sym);
      if (spec !== undefined && spec.state !== 'TRADING') {
        return deny(
          'instrumentTrading',
          `${sym} is ${spec.state}, not TRADING, so ${intent.kind} ${intent.ref} cannot be sent`,
        );
      }
    }
    return undefined;
  },
};

import type { Intent, IntentKind } from '../model/index.ts';
import { deny, type RiskCheck } from './risk-check.ts';
import type { RiskView } from './risk-view.ts';

/** The one sym of an intent that trades or closes a single sym; undefined for every other kind. */
function singleSymOf(intent: Intent): string | undefined {
  switch (intent.kind) {
    case 'placeOrder':
    case 'modifyOrder':
    case 'closePosition':
    case 'placeAlgoOrder':
    case 'replaceAlgoOrder':
      return intent.sym;
    default:
      return undefined;
  }
}

/**
 * The syms an intent trades or closes.
 * @param intent - any intent
 * @returns the syms, empty for intents without one (borrow, repay, position mode)
 */
export function symsOf(intent: Intent): readonly string[] {
  if (intent.kind === 'closePositions') return intent.symList;
  const sym = singleSymOf(intent);
  return sym === undefined ? [] : [sym];
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

/**
 * The first sym of an intent (in {@link symsOf} order) for which `matches` holds, without building
 * the list: the checks below run on every intent, so their tests take the view as an argument
 * rather than being closures made per intent.
 */
function firstSymWhere(
  intent: Intent,
  view: RiskView,
  matches: (view: RiskView, sym: string) => boolean,
): string | undefined {
  if (intent.kind === 'closePositions') return intent.symList.find((sym) => matches(view, sym));
  const sym = singleSymOf(intent);
  return sym !== undefined && matches(view, sym) ? sym : undefined;
}

function isUnknown(view: RiskView, sym: string): boolean {
  return view.instrument(sym) === undefined;
}

function isNotTrading(view: RiskView, sym: string): boolean {
  const spec = view.instrument(sym);
  return spec !== undefined && spec.state !== 'TRADING';
}

/**
 * Why an intent naming no sym cannot go: a modify or replace names none when its target is an
 * order Keel does not know (never placed, denied, or long gone), whose sym it would have taken.
 */
function noSymReason(intent: Intent): string {
  const target =
    intent.kind === 'modifyOrder'
      ? `its target ${intent.target} is no order this run knows (never placed, denied, or ended long ago), so it has no sym`
      : intent.kind === 'replaceAlgoOrder'
        ? `its target ${intent.target} is no algo order this run knows (never placed, denied, or ended long ago), so it has no sym`
        : 'its sym is empty';
  return `${intent.kind} ${intent.ref} names no instrument: ${target}, and it cannot be sent`;
}

/** Denies intents on a sym the instrument list does not know, or naming none. */
export const instrumentKnownCheck: RiskCheck = {
  name: 'instrumentKnown',
  kind: 'rule',
  intents: SYM_INTENTS,
  run({ intent, view }) {
    const sym = firstSymWhere(intent, view, isUnknown);
    if (sym === undefined) return undefined;
    return deny(
      'instrumentKnown',
      sym === ''
        ? noSymReason(intent)
        : `${sym} is not a known instrument, so ${intent.kind} ${intent.ref} cannot be sent`,
    );
  },
};

/** Denies intents on a sym whose state is not TRADING (HALTED or CLOSED). */
export const instrumentTradingCheck: RiskCheck = {
  name: 'instrumentTrading',
  kind: 'rule',
  intents: SYM_INTENTS,
  run({ intent, view }) {
    const sym = firstSymWhere(intent, view, isNotTrading);
    if (sym === undefined) return undefined;
    return deny(
      'instrumentTrading',
      `${sym} is ${view.instrument(sym)?.state}, not TRADING, so ${intent.kind} ${intent.ref} cannot be sent`,
    );
  },
};

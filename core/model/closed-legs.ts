import type { ClosePositionIntent, ClosePositionsIntent } from './intents.ts';
import type { PositionSide } from './position.ts';

/** One position leg a close reaches: a sym and a position side. */
export interface ClosedLeg {
  readonly sym: string;
  readonly positionSide: PositionSide;
}

const EVERY_LEG: readonly PositionSide[] = ['NONE', 'LONG', 'SHORT'];

/**
 * The position legs a close reaches: the leg a `closePosition` names, every leg of its sym when it
 * names NONE (NET mode's one leg; in BOTH mode the gate denies it), every leg of each sym of a
 * `closePositions`. The kernel follows the closes in flight on these legs (`InFlightCloses`), and
 * the risk gate passes a `closePosition` when one of them is open or may open.
 * @param intent - the close of one or several syms
 * @returns the legs, each sym's NONE, LONG and SHORT in that order where it reaches them all
 */
export function closedLegs(intent: ClosePositionIntent | ClosePositionsIntent): ClosedLeg[] {
  const reached: readonly (readonly [string, PositionSide])[] =
    intent.kind === 'closePosition'
      ? [[intent.sym, intent.positionSide]]
      : intent.symList.map((sym) => [sym, 'NONE'] as const);
  return reached.flatMap(([sym, side]) =>
    (side === 'NONE' ? EVERY_LEG : [side]).map((positionSide) => ({ sym, positionSide })),
  );
}

import type {
  AlgoOrder,
  CancelAllAlgoOrdersIntent,
  ClosePositionIntent,
  ClosePositionsIntent,
  PositionMode,
} from '../model/index.ts';

/**
 * The open algo orders a cancel-all sent to the venue as it is reaches: those on its sym and of its
 * algo order type, when it names them.
 * @param open - the open algo orders (the sender's: it goes as it is only when every one is)
 * @param intent - the cancel-all
 * @returns their references
 */
export function cancelAllTargets(open: readonly AlgoOrder[], intent: CancelAllAlgoOrdersIntent): string[] {
  return open
    .filter(
      (a) =>
        (intent.sym === undefined || a.sym === intent.sym) &&
        (intent.algoOrderType === undefined || a.algoOrderType === intent.algoOrderType),
    )
    .map((a) => a.clientAlgoOrderId);
}

/**
 * The open algo orders a position close cancels first at the venue: the reduce-only ones on its
 * syms, in BOTH mode those of the closed leg only when it closes one (Keel's reading, as its
 * simulated venue's: the spec says only that the reduce-only orders on the sym are cancelled).
 * @param open - every open algo order
 * @param intent - the close
 * @param mode - the account's position mode
 * @returns their references
 */
export function closeTargets(
  open: readonly AlgoOrder[],
  intent: ClosePositionIntent | ClosePositionsIntent,
  mode: PositionMode,
): string[] {
  const syms = new Set(intent.kind === 'closePosition' ? [intent.sym] : intent.symList);
  const leg = intent.kind === 'closePosition' ? intent.positionSide : 'NONE';
  return open
    .filter(
      (a) => a.reduceOnly && syms.has(a.sym) && (leg === 'NONE' || mode === 'NET' || a.positionSide === leg),
    )
    .map((a) => a.clientAlgoOrderId);
}

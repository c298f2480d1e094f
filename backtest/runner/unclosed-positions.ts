import type { OpenTrade } from '../report/index.ts';

/** The syms of the positions the end-of-run close left open, each once, in trade order. */
function unclosedSyms(open: readonly OpenTrade[]): string[] {
  return [...new Set(open.map((trade) => trade.sym))];
}

/**
 * Says, among the assumptions, which positions the end-of-run close could not close: the gate
 * refused it, or the last known price of the sym lacked a price or the liquidity to fill it.
 * @param open - the trades still open after the end-of-run close
 * @returns one sentence per sym
 */
export function unclosedNotes(open: readonly OpenTrade[]): string[] {
  return unclosedSyms(open).map(
    (sym) =>
      `${sym} stayed open at the end: its closing order did not fill (refused by the risk gate, or no price or not enough liquidity at its last known price); it is valued at its last price and left out of the trade statistics.`,
  );
}

/**
 * The same, as one warning where the run's summary shows it (⚠): the assumptions alone went
 * unnoticed, e.g. when a tripped kill switch refused the close.
 * @param open - the trades still open after the end-of-run close
 * @returns one sentence naming the syms, or none
 */
export function unclosedWarnings(open: readonly OpenTrade[]): string[] {
  const syms = unclosedSyms(open);
  return syms.length === 0
    ? []
    : [
        `the end-of-run close left ${syms.join(', ')} open (its order did not fill: see the assumptions); valued at the last price, left out of the trade statistics`,
      ];
}

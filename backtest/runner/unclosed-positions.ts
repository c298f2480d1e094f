import type { DenialRecord, OpenTrade } from '../report/index.ts';

/** The syms of the positions the end-of-run close left open, each once, in trade order. */
function unclosedSyms(open: readonly OpenTrade[]): string[] {
  return [...new Set(open.map((trade) => trade.sym))];
}

/** Who refused a closing command and why, as the denials list says it: `risk (tradingState): …`. */
function refusalText(denial: DenialRecord): string {
  return `${denial.source} (${denial.check}): ${denial.reason}`;
}

/**
 * Says, among the assumptions, which positions the end-of-run close could not close: its closing
 * command was denied (quoted from its denial), or its closing order was sent and did not fill (the
 * venue refused it, or the last known price of the sym lacked a price or the liquidity to fill it).
 * @param open - the trades still open after the end-of-run close
 * @param refusals - the denial of each sym whose last closing command was denied
 * @returns one sentence per sym
 */
export function unclosedNotes(
  open: readonly OpenTrade[],
  refusals: ReadonlyMap<string, DenialRecord> = new Map(),
): string[] {
  return unclosedSyms(open).map((sym) => {
    const refusal = refusals.get(sym);
    const why =
      refusal === undefined
        ? 'its closing order did not fill (the venue refused it, or no price or not enough liquidity at its last known price)'
        : `its closing order was never sent, denied by ${refusalText(refusal)}`;
    return `${sym} stayed open at the end: ${why}; it is valued at its last price and left out of the trade statistics.`;
  });
}

/**
 * The same, as warnings where the run's summary shows them (⚠): the assumptions alone went
 * unnoticed, e.g. when a tripped kill switch denied the close. One warning per denied close,
 * quoting its denial, and one naming the syms whose closing order was sent and did not fill.
 * @param open - the trades still open after the end-of-run close
 * @param refusals - the denial of each sym whose last closing command was denied
 * @returns the warnings, none when every position was closed
 */
export function unclosedWarnings(
  open: readonly OpenTrade[],
  refusals: ReadonlyMap<string, DenialRecord> = new Map(),
): string[] {
  const syms = unclosedSyms(open);
  const unfilled = syms.filter((sym) => !refusals.has(sym));
  const denied = syms.flatMap((sym) => {
    const refusal = refusals.get(sym);
    return refusal === undefined
      ? []
      : [
          `the end-of-run close left ${sym} open: its closing order was never sent, denied by ${refusalText(refusal)}; valued at the last price, left out of the trade statistics`,
        ];
  });
  return [
    ...denied,
    ...(unfilled.length === 0
      ? []
      : [
          `the end-of-run close left ${unfilled.join(', ')} open (its order did not fill: see the assumptions); valued at the last price, left out of the trade statistics`,
        ]),
  ];
}

import type { EarlySpanWork } from '../sim/index.ts';

/**
 * A warning when, on the bar fill model, the venue's own work inside a bar's span ran before the
 * bar's orders were matched: an event stamped inside the span (a mark recorded with the klines,
 * another sym's bar) moved the venue into it first, so funding, an expiry, interest, a
 * liquidation or a mark trigger met the positions and orders of before the bar's open fills.
 * @param work - from the simulated venue, after the run
 * @returns one sentence, or none
 */
export function earlySpanWorkWarnings(work: EarlySpanWork | undefined): string[] {
  if (work === undefined) return [];
  const bars = work.bars === 1 ? '1 bar was' : `${work.bars} bars were`;
  const open = new Date(work.barOpen).toISOString();
  const at = new Date(work.at).toISOString();
  return [
    `${bars} matched after the venue had already run work of its own inside the bar's span (an event stamped inside it, a mark or another sym's bar, arrived first): the first, the ${work.sym} bar opening ${open}, where ${work.what} at ${at} met the positions and orders of before the bar's open fills`,
  ];
}

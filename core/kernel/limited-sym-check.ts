import type { IntentGate } from './kernel-options.ts';

/**
 * Refuses a risk gate whose per-sym limits name a sym that is not one of the run's instruments:
 * that limit would never apply, so a misspelt sym would silently remove it. A config run is
 * refused earlier, at the limit's YAML line; this covers a gate built in code.
 * @param gate - the run's risk gate (one without `limitedSyms` names none)
 * @param syms - the run's instruments
 * @throws TypeError naming every such sym, whose limits name it and the run's instruments
 */
export function checkLimitedSyms(gate: IntentGate, syms: readonly string[]): void {
  const unknown = (gate.limitedSyms?.() ?? []).filter((limited) => !syms.includes(limited.sym));
  if (unknown.length === 0) return;
  const named = unknown.map((limited) => `${limited.sym} (${limited.owner})`).join(', ');
  const listed = syms.length === 0 ? 'none' : syms.join(', ');
  throw new TypeError(
    `kernel: the risk gate's maxPositionQtyBySym names ${named}, not among the run's instruments (${listed}): its limit would never apply`,
  );
}

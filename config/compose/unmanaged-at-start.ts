import type { KernelState } from '../../core/kernel/index.ts';
import { positionLabel } from './position-label.ts';
import { RUN_TAG_LENGTH } from './run-tag.ts';

/**
 * A reference a Keel session generated, `{strategy id}-{run tag}-{counter}`, or one the venue made
 * from it (a fired algo order's or a leg's order: a suffix after another `-`).
 */
const KEEL_REF = new RegExp(`^([A-Za-z0-9_]{1,24})-[0-9a-z]{${RUN_TAG_LENGTH}}-[0-9a-z]+(?:-.+)?$`);

/**
 * What a session found on the venue at start that no strategy of its config will manage, for an
 * operator who changed the config between two runs: open orders carrying the references of a
 * strategy id the config no longer runs (a renamed or removed strategy: its orders stay working,
 * owned by nobody), and positions on syms the config does not list (no market data reaches the
 * session for them, so equity and the kill switch value them at their last known price only).
 * @param state - the kernel's state once the first reconciliation is folded
 * @param strategyIds - the config's strategy ids
 * @param syms - the config's instruments
 * @returns one sentence per kind of thing found, empty when there is none
 */
export function unmanagedAtStartWarnings(
  state: Pick<KernelState, 'openOrders' | 'ownerOf' | 'positions'>,
  strategyIds: readonly string[],
  syms: ReadonlySet<string>,
): string[] {
  const known = new Set(strategyIds);
  const orphans = new Map<string, number>();
  for (const order of state.openOrders()) {
    const id = KEEL_REF.exec(order.clientOrderId)?.[1];
    if (id === undefined || known.has(id) || state.ownerOf(order.clientOrderId) !== undefined) continue;
    orphans.set(id, (orphans.get(id) ?? 0) + 1);
  }
  const warnings = [...orphans].map(
    ([id, n]) =>
      `${n} open order(s) on the venue carry the references of strategy "${id}", which this config does not run: no strategy manages them (they stay working until cancelled)`,
  );
  const unlisted = [...state.positions.values()]
    .filter((p) => !p.positionQty.isZero() && !syms.has(p.sym))
    .map(positionLabel);
  if (unlisted.length > 0)
    warnings.push(
      `positions on syms not in instruments: ${unlisted.join(', ')}; the session gets no market data for them, so equity and the kill switch value them at their last known price only`,
    );
  return warnings;
}

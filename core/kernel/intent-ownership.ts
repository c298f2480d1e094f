import type { Intent } from '../model/index.ts';
import type { OrderRegistry } from './order-registry.ts';

/** The venue's limit on a caller reference (clientOrderId), per public venue docs. */
export const MAX_REF_LENGTH = 40;

/**
 * The kernel's own checks before the risk gate: a well-formed, unused reference, and
 * ownership (a strategy may modify or cancel only orders and algo orders it placed).
 * @param strategyId - who emitted the intent
 * @param intent - the intent
 * @param registry - orders and their owners
 * @param usedRefs - every reference submitted in this run
 * @returns the failed check and why, or undefined when the intent may go on to the gate
 */
export function kernelCheck(
  strategyId: string,
  intent: Intent,
  registry: OrderRegistry,
  usedRefs: ReadonlySet<string>,
): { check: string; reason: string } | undefined {
  if (intent.ref.length === 0 || intent.ref.length > MAX_REF_LENGTH) {
    return {
      check: 'kernel.ref',
      reason: `reference ${JSON.stringify(intent.ref)} must be 1 to ${MAX_REF_LENGTH} characters`,
    };
  }
  if (usedRefs.has(intent.ref)) {
    return { check: 'kernel.ref', reason: `reference ${intent.ref} was already used in this run` };
  }
  switch (intent.kind) {
    case 'modifyOrder':
    case 'cancelOrder':
    case 'replaceAlgoOrder':
    case 'cancelAlgoOrder':
      return ownership(strategyId, intent.target, registry);
    case 'cancelOrders':
      for (const target of intent.targets ?? []) {
        const denied = ownership(strategyId, target, registry);
        if (denied !== undefined) return denied;
      }
      return undefined;
    default:
      return undefined;
  }
}

function ownership(
  strategyId: string,
  target: string,
  registry: OrderRegistry,
): { check: string; reason: string } | undefined {
  const owner = registry.ownerOf(target);
  if (owner === strategyId) return undefined;
  return {
    check: 'kernel.ownership',
    reason:
      owner === undefined
        ? `order ${target} was not placed by strategy ${strategyId}`
        : `order ${target} belongs to strategy ${owner}, not ${strategyId}`,
  };
}

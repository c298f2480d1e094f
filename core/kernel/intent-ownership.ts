import type { Intent } from '../model/index.ts';
import type { OrderRegistry } from './order-registry.ts';

/** The venue's limit on a caller reference (clientOrderId), per public venue docs. */
export const MAX_REF_LENGTH = 40;

/** A failed kernel check: its name and a sentence. */
export interface KernelDenial {
  readonly check: string;
  readonly reason: string;
}

/**
 * Whether a reference is well-formed for the venue.
 * @param ref - the caller reference
 * @returns the denial, or undefined when 1 to 40 characters
 */
export function refLengthCheck(ref: string): KernelDenial | undefined {
  if (ref.length > 0 && ref.length <= MAX_REF_LENGTH) return undefined;
  return {
    check: 'kernel.ref',
    reason: `reference ${JSON.stringify(ref)} must be 1 to ${MAX_REF_LENGTH} characters`,
  };
}

/**
 * Ownership: a strategy may modify or cancel only orders and algo orders it placed.
 * @param strategyId - who emitted the intent
 * @param intent - the intent
 * @param registry - orders and their owners
 * @returns the denial, or undefined when the intent touches only the strategy's own orders
 */
export function ownershipCheck(
  strategyId: string,
  intent: Intent,
  registry: OrderRegistry,
): KernelDenial | undefined {
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

function ownership(strategyId: string, target: string, registry: OrderRegistry): KernelDenial | undefined {
  const owner = registry.ownerOf(target);
  if (owner === strategyId) return undefined;
  return { check: 'kernel.ownership', reason: ownershipReason(strategyId, target, registry, owner) };
}

/**
 * Why a strategy may not touch an order: another strategy's, one Keel heard of from the venue that
 * no strategy of this run placed, or none at all under that reference (a placement that was denied,
 * so never sent, is the usual case: its reference may well name the strategy).
 */
function ownershipReason(
  strategyId: string,
  target: string,
  registry: OrderRegistry,
  owner: string | undefined,
): string {
  if (owner !== undefined) return `order ${target} belongs to strategy ${owner}, not ${strategyId}`;
  if (registry.byRef.has(target) || registry.algoByRef.has(target))
    return `order ${target} was placed outside this run (Keel knows it from the venue, but no strategy of this run sent it), so strategy ${strategyId} may not change it`;
  return `no order ${target} was sent in this run (was its placement denied, or never returned or submitted?), so strategy ${strategyId} has no such order to change`;
}

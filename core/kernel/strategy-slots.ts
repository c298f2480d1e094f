import type { StrategySlot } from './kernel-options.ts';
import type { RunnerHost } from './strategy-runner.ts';
import { StrategyRunner } from './strategy-runner.ts';
import { strictParams } from './strict-params.ts';

const STRATEGY_ID = /^[A-Za-z0-9_]{1,24}$/;
const RUN_ID = /^[A-Za-z0-9]{0,8}$/;

/**
 * Checks the run id and every strategy slot, and makes one runner per slot, in slot order.
 * @param slots - the kernel's strategies
 * @param runId - the run tag put into generated references
 * @param host - the kernel the runners report to
 * @returns the runners; a runner's index is its slot's
 * @throws TypeError when a strategy id or the run id is malformed or repeated, or when a
 *   strategy's parameters do not match its schema (the message names the strategy and field)
 */
export function createRunners(
  slots: readonly StrategySlot[],
  runId: string,
  host: RunnerHost,
): StrategyRunner[] {
  if (!RUN_ID.test(runId))
    throw new TypeError(`kernel: runId ${JSON.stringify(runId)} must be 0-8 letters or digits`);
  const ids = new Set<string>();
  return slots.map((slot, index) => {
    if (!STRATEGY_ID.test(slot.id)) {
      throw new TypeError(`kernel: strategy id ${JSON.stringify(slot.id)} must be 1-24 of A-Z, a-z, 0-9, _`);
    }
    if (ids.has(slot.id)) throw new TypeError(`kernel: strategy id ${slot.id} is used twice`);
    const parsed = strictParams(slot.strategy.params).safeParse(slot.params ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((i) => `${i.message} → at params.${i.path.join('.')}`)
        .join('; ');
      throw new TypeError(`kernel: strategy ${slot.id} (${slot.strategy.name}): ${issues}`);
    }
    ids.add(slot.id);
    return new StrategyRunner(slot.id, index, slot.strategy, parsed.data, runId, host, slot.source);
  });
}

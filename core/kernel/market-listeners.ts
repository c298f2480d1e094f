import type { StrategySlot } from './kernel-options.ts';
import type { StrategyRunner } from './strategy-runner.ts';

/**
 * Which strategies receive the quotes and trades of each of the run's instruments: every
 * strategy, unless its definition narrows them with `syms` (a NautilusTrader user's per-instrument
 * subscription). Built once when the kernel is made, so the per-event path pays one map look-up
 * and nothing for a sym that is not an instrument of the run.
 * @param slots - the kernel's strategies, in runner order
 * @param runners - their runners (parsed parameters), same order
 * @param syms - the run's instruments
 * @returns per instrument sym, the runners that listen to it, in runner order (possibly none)
 * @throws TypeError when a strategy's `syms` throws, returns anything but an array of texts, or
 *   names a sym that is not one of the run's instruments (the message names the strategy)
 */
export function marketListeners(
  slots: readonly StrategySlot[],
  runners: readonly StrategyRunner[],
  syms: readonly string[],
): Map<string, StrategyRunner[]> {
  const listeners = new Map<string, StrategyRunner[]>(syms.map((sym) => [sym, []]));
  runners.forEach((runner, index) => {
    const wanted = declaredSyms(slots[index] as StrategySlot, runner, syms);
    for (const [sym, list] of listeners) if (wanted === undefined || wanted.has(sym)) list.push(runner);
  });
  return listeners;
}

function declaredSyms(
  slot: StrategySlot,
  runner: StrategyRunner,
  syms: readonly string[],
): ReadonlySet<string> | undefined {
  const declare = slot.strategy.syms;
  if (declare === undefined) return undefined;
  const where = `kernel: strategy ${slot.id} (${slot.strategy.name})`;
  let declared: unknown;
  try {
    declared = declare(runner.params);
  } catch (error) {
    throw new TypeError(`${where}: its syms(params) threw: ${(error as Error)?.message ?? String(error)}`);
  }
  if (!Array.isArray(declared) || declared.some((sym) => typeof sym !== 'string'))
    throw new TypeError(`${where}: its syms(params) must return an array of syms, got ${String(declared)}`);
  const listed = syms.length === 0 ? 'none' : syms.join(', ');
  for (const sym of declared as string[]) {
    if (!syms.includes(sym))
      throw new TypeError(
        `${where}: its syms name ${sym}, which is not one of the run's instruments (${listed}); list it under instruments`,
      );
  }
  return new Set(declared as string[]);
}

import type { StrategySlot } from './kernel-options.ts';
import type { StrategyRunner } from './strategy-runner.ts';

/** What {@link declaredSymsOf} reads of a strategy definition: its optional `syms`. */
export interface SymsDeclaration {
  // biome-ignore lint/suspicious/noExplicitAny: a definition of any parameter type
  readonly syms?: (params: any) => readonly string[];
}

/** The syms a strategy listens to (undefined: every instrument of the run), or why they are refused. */
export type DeclaredSyms =
  | { readonly ok: true; readonly syms: ReadonlySet<string> | undefined }
  | { readonly ok: false; readonly problem: string };

/**
 * The run's instruments a strategy's definition narrows its quotes and trades to (`syms`), checked
 * against the run: the kernel refuses to start on a problem, and the config's validation says the
 * same before a run.
 * @param definition - the strategy definition
 * @param params - its parsed parameters
 * @param instruments - the run's instrument syms
 * @returns the syms, or what is wrong, worded to follow the strategy's name (`strategy x
 *   listens to ...`): `syms` threw, returned something other than an array of texts, or named a
 *   sym that is not an instrument
 */
export function declaredSymsOf(
  definition: SymsDeclaration,
  params: unknown,
  instruments: readonly string[],
): DeclaredSyms {
  const declare = definition.syms;
  if (declare === undefined) return { ok: true, syms: undefined };
  let declared: unknown;
  try {
    declared = declare(params);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    return { ok: false, problem: `has a syms(params) that threw: ${message}` };
  }
  if (!Array.isArray(declared) || declared.some((sym) => typeof sym !== 'string'))
    return {
      ok: false,
      problem: `has a syms(params) that returned ${String(declared)}, not an array of syms`,
    };
  const listed = instruments.length === 0 ? 'none' : instruments.join(', ');
  const unlisted = (declared as string[]).find((sym) => !instruments.includes(sym));
  if (unlisted !== undefined)
    return {
      ok: false,
      problem: `listens to ${unlisted} (its syms), which is not one of the run's instruments (${listed}); list it under instruments`,
    };
  return { ok: true, syms: new Set(declared as string[]) };
}

/**
 * Which strategies receive the quotes and trades of each of the run's instruments: every
 * strategy, unless its definition narrows them with `syms` (a NautilusTrader user's per-instrument
 * subscription). Built once when the kernel is made, so the per-event path pays one map look-up
 * and nothing for a sym that is not an instrument of the run.
 * @param slots - the kernel's strategies, in runner order
 * @param runners - their runners (parsed parameters), same order
 * @param syms - the run's instruments
 * @returns per instrument sym, the runners that listen to it, in runner order (possibly none)
 * @throws TypeError when a strategy's `syms` is refused ({@link declaredSymsOf}; the message
 *   names the strategy)
 */
export function marketListeners(
  slots: readonly StrategySlot[],
  runners: readonly StrategyRunner[],
  syms: readonly string[],
): Map<string, StrategyRunner[]> {
  const listeners = new Map<string, StrategyRunner[]>(syms.map((sym) => [sym, []]));
  runners.forEach((runner, index) => {
    const slot = slots[index] as StrategySlot;
    const declared = declaredSymsOf(slot.strategy, runner.params, syms);
    if (!declared.ok)
      throw new TypeError(`kernel: strategy ${slot.id} (${slot.strategy.name}) ${declared.problem}`);
    const wanted = declared.syms;
    for (const [sym, list] of listeners) if (wanted === undefined || wanted.has(sym)) list.push(runner);
  });
  return listeners;
}

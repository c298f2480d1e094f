import type { Intent } from '../model/index.ts';
import type { KernelDenial } from './intent-ownership.ts';
import type { TrailingStopEmulator } from './trailing-stop-emulator.ts';

/** What the emulator made of an intent: a denial, or what is left to send to the venue (maybe nothing). */
export type EmulationOutcome = { readonly denial: KernelDenial } | { readonly rest: Intent | undefined };

const NOTHING_LEFT: EmulationOutcome = { rest: undefined };

/**
 * Takes out of an intent what the kernel emulates instead of the venue: a trailing stop is held
 * by the emulator; a cancel of an open emulated stop cancels it there (a strategy cancels it with
 * `ctx.order.cancel(ref)` like any order), "cancel all of mine" cancels the strategy's
 * emulated stops too, and a position close cancels its reduce-only stops on the closed syms
 * (as the venue cancels reduce-only orders there). A stop that already triggered is an order at the venue under the same
 * reference, so its cancel goes on to the venue.
 * @param emulator - the kernel's trailing stop emulator
 * @param owner - the emitting strategy (as the emulator knows it)
 * @param strategyId - its id
 * @param intent - the intent
 * @returns a denial (an invalid stop, another strategy's stop), or the intent left to send
 */
export function takeEmulated<O>(
  emulator: TrailingStopEmulator<O>,
  owner: O,
  strategyId: string,
  intent: Intent,
): EmulationOutcome {
  switch (intent.kind) {
    case 'placeOrder': {
      if (intent.trailingStop === undefined) return { rest: intent };
      const denial = emulator.accept(owner, strategyId, intent);
      return denial === undefined ? NOTHING_LEFT : { denial };
    }
    case 'cancelOrder': {
      const denial = foreignStop(emulator, strategyId, [intent.target]);
      if (denial !== undefined) return { denial };
      return emulator.cancel(intent.target) ? NOTHING_LEFT : { rest: intent };
    }
    case 'cancelOrders': {
      if (intent.targets === undefined) {
        for (const ref of emulator.openRefs(strategyId, intent.sym)) emulator.cancel(ref);
        return { rest: intent };
      }
      const denial = foreignStop(emulator, strategyId, intent.targets);
      if (denial !== undefined) return { denial };
      const targets = intent.targets.filter((ref) => !emulator.cancel(ref));
      if (targets.length === intent.targets.length) return { rest: intent };
      return targets.length === 0 ? NOTHING_LEFT : { rest: { ...intent, targets } };
    }
    case 'closePosition':
    case 'closePositions':
      // The venue cancels the reduce-only orders of a sym it closes; the emulated ones go too, so a
      // stop left behind cannot fire on a later position.
      for (const sym of intent.kind === 'closePosition' ? [intent.sym] : intent.symList)
        for (const ref of emulator.openRefs(strategyId, sym, true)) emulator.cancel(ref);
      return { rest: intent };
    default:
      return { rest: intent };
  }
}

/** The ownership denial when one of the targets is an open emulated stop of another strategy. */
function foreignStop<O>(
  emulator: TrailingStopEmulator<O>,
  strategyId: string,
  targets: readonly string[],
): KernelDenial | undefined {
  for (const ref of targets) {
    const owner = emulator.ownerOf(ref);
    if (owner !== undefined && owner !== strategyId)
      return {
        check: 'kernel.ownership',
        reason: `trailing stop ${ref} belongs to strategy ${owner}, not ${strategyId}`,
      };
  }
  return undefined;
}

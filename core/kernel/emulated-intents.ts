import type { Intent, PositionMode } from '../model/index.ts';
import type { KernelDenial } from './intent-ownership.ts';
import type { TrailingStopEmulator } from './trailing-stop-emulator.ts';

/**
 * What the emulator made of an intent: a denial, or what is left to send to the venue (maybe
 * nothing) and the open emulated stops the intent cancels. Those are cancelled only once the rest
 * has passed every check and the risk gate (at once when nothing is left to send): a denied
 * intent cancels nothing.
 */
export type EmulationOutcome =
  | { readonly denial: KernelDenial }
  | { readonly rest: Intent | undefined; readonly stops: readonly string[] };

const NO_STOPS: readonly string[] = [];
const NOTHING_LEFT: EmulationOutcome = { rest: undefined, stops: NO_STOPS };

/**
 * Takes out of an intent what the kernel emulates instead of the venue: a trailing stop is held
 * by the emulator; a cancel of an open emulated stop cancels it there (a strategy cancels it with
 * `ctx.order.cancel(ref)` like any order), "cancel all of mine" cancels the strategy's
 * emulated stops too, and a position close cancels the reduce-only stops on the closed syms,
 * whichever strategy owns them (as the venue cancels every reduce-only order there; in BOTH mode
 * a one-leg close cancels that leg's stops only, as the venue keeps the other leg's stop orders);
 * each owner hears of its stop's cancellation in `onTrailingStop`. The stops to
 * cancel are returned, not cancelled: the caller cancels them once the intent is on its way (see
 * {@link EmulationOutcome}). A stop that already triggered is an order at the venue under the same
 * reference, so its cancel goes on to the venue. A position mode switch is denied while any
 * emulated stop is open, as the venue refuses one while it holds an order, unless it switches to
 * the mode already in force (no stop's positionSide changes).
 * @param emulator - the kernel's trailing stop emulator
 * @param owner - the emitting strategy (as the emulator knows it)
 * @param strategyId - its id
 * @param intent - the intent
 * @param positionMode - the portfolio's position mode now
 * @returns a denial (an invalid stop, another strategy's stop, a mode switch with stops open), or
 *   the intent left to send and the stops it cancels
 */
export function takeEmulated<O>(
  emulator: TrailingStopEmulator<O>,
  owner: O,
  strategyId: string,
  intent: Intent,
  positionMode: PositionMode,
): EmulationOutcome {
  switch (intent.kind) {
    case 'placeOrder': {
      if (intent.trailingStop === undefined) return { rest: intent, stops: NO_STOPS };
      const denial = emulator.accept(owner, strategyId, intent);
      return denial === undefined ? NOTHING_LEFT : { denial };
    }
    case 'cancelOrder': {
      const denial = foreignStop(emulator, strategyId, [intent.target]);
      if (denial !== undefined) return { denial };
      return isOpen(emulator, intent.target)
        ? { rest: undefined, stops: [intent.target] }
        : { rest: intent, stops: NO_STOPS };
    }
    case 'cancelOrders': {
      if (intent.targets === undefined)
        return { rest: intent, stops: emulator.openRefs(strategyId, intent.sym) };
      const denial = foreignStop(emulator, strategyId, intent.targets);
      if (denial !== undefined) return { denial };
      const stops = intent.targets.filter((ref) => isOpen(emulator, ref));
      if (stops.length === 0) return { rest: intent, stops };
      const targets = intent.targets.filter((ref) => !isOpen(emulator, ref));
      return { rest: targets.length === 0 ? undefined : { ...intent, targets }, stops };
    }
    case 'closePosition':
    case 'closePositions':
      // The venue cancels every reduce-only order of a sym it closes, whoever placed it, but in BOTH
      // mode only the closed leg's stop orders: the emulated stops go as the venue's stops do, so a
      // stop left behind cannot fire on a later position and the other leg keeps its protection.
      return intent.kind === 'closePosition'
        ? { rest: intent, stops: emulator.openRefs(undefined, intent.sym, true, intent.positionSide) }
        : { rest: intent, stops: intent.symList.flatMap((sym) => emulator.openRefs(undefined, sym, true)) };
    case 'setPositionMode': {
      if (intent.positionMode === positionMode) return { rest: intent, stops: NO_STOPS };
      const denial = switchWithStopsOpen(emulator, intent.ref, intent.positionMode);
      return denial === undefined ? { rest: intent, stops: NO_STOPS } : { denial };
    }
    default:
      return { rest: intent, stops: NO_STOPS };
  }
}

/**
 * The denial of a position mode switch while emulated trailing stops are open (any strategy's).
 * The venue refuses a switch while it holds an order (406012) but never sees an emulated stop, whose
 * MARKET order keeps the positionSide of the mode it was placed in: after a switch the risk gate
 * would deny it when it fires, and the stop would be lost without a word at the switch.
 */
function switchWithStopsOpen<O>(
  emulator: TrailingStopEmulator<O>,
  ref: string,
  mode: string,
): KernelDenial | undefined {
  const open = emulator.list().map((stop) => stop.ref);
  if (open.length === 0) return undefined;
  return {
    check: 'kernel.trailingStop',
    reason:
      `setPositionMode ${ref} to ${mode} while ${open.length} emulated trailing stop(s) are open ` +
      `(${open.join(', ')}): their orders would be sent on the old mode's position side; cancel them first`,
  };
}

/** Whether a reference is an open emulated stop (one that triggered is an order at the venue). */
function isOpen<O>(emulator: TrailingStopEmulator<O>, ref: string): boolean {
  return emulator.ownerOf(ref) !== undefined;
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

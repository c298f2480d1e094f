import type { ExecutionPort } from '../execution/index.ts';
import { orderFromPlaceIntent } from '../execution/index.ts';
import {
  type CancelAlgoOrderIntent,
  type CancelOrdersIntent,
  type Intent,
  type PlaceOrderIntent,
  type StrategyIntent,
  unknownFieldValue,
  wrongFieldType,
} from '../model/index.ts';
import type { ApprovedIntent, RiskDecision } from '../risk/index.ts';
import type { AlgoRequestKind } from './algo-order-requests.ts';
import { cancelAllTargets, closeTargets } from './algo-request-targets.ts';
import { type EmulationOutcome, takeEmulated } from './emulated-intents.ts';
import type { InFlightAlgoOrders } from './in-flight-algo-orders.ts';
import type { InFlightCloses } from './in-flight-closes.ts';
import type { InFlightRequests } from './in-flight-requests.ts';
import type { KernelDenial } from './intent-ownership.ts';
import { ownershipCheck, refLengthCheck } from './intent-ownership.ts';
import type { IntentGate } from './kernel-options.ts';
import type { KernelState } from './kernel-state.ts';
import { withTargetSym } from './order-change-intents.ts';
import type { IntentDenied } from './strategy-events.ts';
import { hasGeneratedForm } from './strategy-refs.ts';
import type { StrategyRunner } from './strategy-runner.ts';
import { targetKindCheck } from './target-kind-check.ts';
import type { TrailingStopEmulator } from './trailing-stop-emulator.ts';
import type { VenueConnectivity } from './venue-connectivity.ts';

/**
 * The way of every intent: the kernel's own checks (reference, ownership, the venue's private
 * stream reconciled for new orders and modifies), expansion of
 * "all of mine" cancels, the risk gate, Keel's in-flight bookkeeping, the emulated trailing stops
 * the intent cancels (a close: every strategy's reduce-only ones on its syms), then the execution
 * port. A new trailing stop goes through the emulator's checks and the risk gate, and is then
 * held by the emulator: nothing is sent until it fires. A failed check or a gate denial is handed
 * to `deny` (an event for the strategy), never thrown, and cancels no emulated stop.
 */
export class IntentPipeline {
  /** References strategies chose themselves (generated ones are unique by construction). */
  private readonly customRefs = new Set<string>();
  /**
   * The references of Keel's own cancels (sweeps), so a later sweep can tell an order's cancel in
   * flight from its owner's; a few per fault or kill-switch trip, so kept for the run.
   */
  private readonly keelCancels = new Set<string>();

  /**
   * @param state - the kernel state (the gate's view, and where in-flight orders are recorded)
   * @param gate - the risk gate
   * @param execution - where approved commands go
   * @param runners - every strategy of the kernel (for reference prefixes)
   * @param deny - delivers a denial to its strategy
   * @param requests - Keel's book of modify and cancel requests in flight
   * @param algosInFlight - the algo orders sent and not answered yet (a cancel-all may reach them)
   * @param closes - the position closes in flight, whose venue-named orders are the sender's
   * @param emulator - holds the trailing stops the kernel emulates
   * @param connectivity - the venue's stream states; new orders and modifies wait for a
   *   reconciled private stream
   * @param warmingUp - while the strategies warm up, why every intent is denied; else undefined
   * @param hookCall - the number of the kernel's job (hook call) under way, stamped on each
   *   strategy's command the gate is given as `hookCall` (default: none stamped)
   */
  constructor(
    private readonly state: KernelState,
    private readonly gate: IntentGate,
    private readonly execution: ExecutionPort,
    private readonly runners: readonly StrategyRunner[],
    private readonly deny: (runner: StrategyRunner, denial: IntentDenied) => void,
    private readonly requests: InFlightRequests,
    private readonly algosInFlight: InFlightAlgoOrders,
    private readonly closes: InFlightCloses,
    private readonly emulator: TrailingStopEmulator<StrategyRunner>,
    private readonly connectivity: VenueConnectivity,
    private readonly warmingUp: () => string | undefined = () => undefined,
    private readonly hookCall: () => number | undefined = () => undefined,
  ) {}

  /**
   * Passes one intent through the checks and the gate to the execution port.
   * @param runner - the emitting strategy
   * @param emitted - the intent (a replace or cancel of an in-flight algo order, or a modify or
   *   cancel of an order, made before its placement was sent names no sym: it gets the placement's)
   */
  submit(runner: StrategyRunner, emitted: Intent): void {
    runner.order.tally.sent++;
    const intent = withTargetSym(withInFlightAlgoSym(emitted, this.algosInFlight), this.state);
    let routed: Routed;
    try {
      routed = this.route(runner, intent);
    } catch (error) {
      this.deny(runner, this.denial(runner, intent, 'kernel', CHECK_THREW, threwReason(intent, error)));
      return;
    }
    if ('denial' in routed) {
      const { denial, source } = routed;
      this.deny(runner, this.denial(runner, intent, source, denial.check, denial.reason));
      return;
    }
    const { rest, stops, expanded } = routed;
    if (rest === undefined) {
      this.cancelStops(stops);
      return;
    }
    if (expanded === undefined) {
      this.pass(runner, rest, stops);
      return;
    }
    if (expanded.length === 0) this.cancelStops(stops);
    for (const one of expanded) {
      if (one !== rest) runner.redeem(one.ref);
      this.pass(runner, one, stops);
    }
  }

  /**
   * The kernel's checks of an intent, before the risk gate: the references, what the emulator
   * takes, ownership, the target's kind, the venue's stream, and the expansion of "all of mine"
   * cancels. Nothing is sent here, so what throws (a field a plugin got past the types) is denied
   * by the caller.
   * @returns a denial, or what is left to pass to the gate (and the emulated stops it cancels)
   */
  private route(runner: StrategyRunner, intent: Intent): Routed {
    const emulated = this.emulatedPart(runner, intent);
    if ('denial' in emulated)
      return { denial: emulated.denial, source: 'source' in emulated ? emulated.source : 'kernel' };
    const { rest, stops } = emulated;
    if (rest === undefined) return { rest, stops, expanded: undefined };
    const failed =
      ownershipCheck(runner.id, rest, this.state.orders) ??
      targetKindCheck(rest, this.state) ??
      this.connectivity.check(rest);
    if (failed !== undefined) return { denial: failed, source: 'kernel' };
    return { rest, stops, expanded: this.expand(runner, rest) };
  }

  /**
   * The reference checks, then what the emulator takes (trailing stops and their cancels). A
   * trailing stop is held only once the kernel can emulate it and the risk gate approved it
   * ({@link stopRefusal}).
   */
  private emulatedPart(
    runner: StrategyRunner,
    intent: Intent,
  ): EmulationOutcome | { readonly denial: KernelDenial; readonly source: 'risk' } {
    const denial = refLengthCheck(intent.ref) ?? this.claimRef(runner, intent.ref) ?? this.warmUpCheck();
    if (denial !== undefined) return { denial };
    const refused = this.stopRefusal(runner, intent);
    if (refused !== undefined) return refused;
    return takeEmulated(this.emulator, runner, runner.id, intent, this.state.positionMode());
  }

  /**
   * A new trailing stop is judged when placed, as an algo order is: the emulator's checks, then the
   * risk gate on the intent as it is, the MARKET order the stop sends when it fires (its notional
   * at the reference price; a reduce-only one need not have a position yet, as for an algo order).
   * A protective stop whose order the gate would deny is refused now rather than found out when it
   * fires. An approval sends nothing: no in-flight bookkeeping, no execution port (the gate's
   * throttle took its token, as for an algo order's placement); the order is judged again when
   * the stop fires ({@link release}).
   * @returns the denial (`source: 'risk'` for the gate's), or undefined for a stop to hold and any
   *   other intent
   */
  private stopRefusal(
    runner: StrategyRunner,
    intent: Intent,
  ): { readonly denial: KernelDenial; readonly source?: 'risk' } | undefined {
    if (intent.kind !== 'placeOrder' || intent.trailingStop === undefined) return undefined;
    // A field of the wrong type is the gate's to deny (`fieldTypes`): the emulator's checks read it.
    const refused = wrongFieldType(intent) === undefined ? this.emulator.refusal(intent) : undefined;
    if (refused !== undefined) return { denial: refused };
    const decision = this.decide(runner.id, intent, this.hookCall());
    if (decision.kind === 'approved') return undefined;
    return { denial: { check: decision.check, reason: decision.reason }, source: 'risk' };
  }

  /**
   * Sends the MARKET order of a triggered emulated stop: its reference was claimed when the stop
   * was accepted, so it goes straight to the risk gate (a denial reaches the strategy's
   * `onDenied`) and on to the execution port. The gate is told when the stop was accepted
   * (`heldSince`): a reduce-only stop held since before a halt fires as a venue's would.
   * @param runner - the strategy owning the stop
   * @param intent - the order, without its `trailingStop`
   * @param heldSince - when the emulator accepted the stop, epoch ms
   */
  release(runner: StrategyRunner, intent: PlaceOrderIntent, heldSince: number): void {
    this.pass(runner, intent, [], heldSince);
  }

  /**
   * The risk gate, then Keel's bookkeeping, the emulated stops the intent cancels, and the
   * execution port: a denied intent cancels no stop.
   */
  private pass(
    runner: StrategyRunner,
    intent: Intent,
    stops: readonly string[] = [],
    heldSince?: number,
  ): void {
    const hookCall = this.hookCall();
    const decision = this.decide(runner.id, intent, hookCall, heldSince);
    if (decision.kind === 'denied') {
      const source = decision.check === CHECK_THREW ? 'kernel' : 'risk';
      this.deny(runner, this.denial(runner, intent, source, decision.check, decision.reason));
      return;
    }
    this.record(runner.id, intent);
    this.cancelStops(stops);
    this.execution.submit(stamped(decision.command, hookCall));
  }

  /**
   * Sends one of Keel's own cancels of a strategy's orders (a sweep): the risk gate under the
   * strategy id `keel` (cancels pass), then Keel's in-flight bookkeeping as the owner's cancel
   * (its orders show PENDING_CANCEL, a refusal reaches the owner and undoes that), then the port.
   * @param ownerId - the strategy whose orders it cancels
   * @param intent - the cancel
   * @returns whether the gate approved it (and it was sent)
   */
  sendKeelCancel(ownerId: string, intent: CancelOrdersIntent | CancelAlgoOrderIntent): boolean {
    const decision = this.decide('keel', intent, undefined);
    if (decision.kind === 'denied') return false;
    this.keelCancels.add(intent.ref);
    this.record(ownerId, intent);
    this.execution.submit(decision.command);
    return true;
  }

  /**
   * The risk gate's decision on an intent; a gate that throws (a custom one, or a check that
   * failed on a value no check foresaw) denies it (`kernel.checkThrew`, the error in the reason)
   * rather than ending the run, every strategy with it.
   */
  private decide(
    strategyId: string,
    intent: Intent,
    hookCall: number | undefined,
    heldSince?: number,
  ): RiskDecision {
    const command = commandOf(strategyId, intent, hookCall);
    try {
      return this.gate.evaluate(heldSince === undefined ? command : { ...command, heldSince }, this.state);
    } catch (error) {
      return { kind: 'denied', check: CHECK_THREW, reason: threwReason(intent, error) };
    }
  }

  /**
   * Whether one of Keel's own cancels (a sweep's) is in flight on an order: the order shows
   * PENDING_CANCEL and a refusal of any other cancel on it leaves it so.
   * @param clientOrderId - the order
   * @returns true while a sweep's cancel of it is unanswered
   */
  keelCancelInFlight(clientOrderId: string): boolean {
    return this.requests.pendingOn(clientOrderId).some((ref) => this.keelCancels.has(ref));
  }

  /** Cancels emulated stops (each owner told in `onTrailingStop`); one already gone is skipped. */
  private cancelStops(stops: readonly string[]): void {
    for (const ref of stops) this.emulator.cancel(ref);
  }

  /** During a warm-up nothing goes out: checked after the reference is claimed, so it is used up as any other. */
  private warmUpCheck(): KernelDenial | undefined {
    const reason = this.warmingUp();
    return reason === undefined ? undefined : { check: 'kernel.warmUp', reason };
  }

  /**
   * A reference may be used once per run. Generated ones (`{id}-{runId-}{n in base 36}`) are
   * redeemed from their strategy; others are remembered. A custom reference of that form, any
   * strategy's ({@link hasGeneratedForm}: `{id}-{n}` in every mode, `{id}-{runId}-{n}` with this run's tag), is refused, so the two kinds
   * never collide; one that merely starts with `{id}-` (`pmm-bid-1`) is a custom reference.
   */
  private claimRef(runner: StrategyRunner, ref: string): KernelDenial | undefined {
    const own = runner.claimGenerated(ref);
    if (own === 'redeemed') return undefined;
    if (own !== undefined)
      return {
        check: 'kernel.ref',
        reason:
          own === 'used'
            ? `reference ${ref} was already used in this run`
            : `reference ${ref} has the form of this strategy's generated references (${runner.id}-[run tag-]<counter in base 36>)`,
      };
    for (const other of this.runners) {
      if (other !== runner && hasGeneratedForm(ref, other.id, other.refPrefix))
        return {
          check: 'kernel.ref',
          reason: `reference ${ref} has the form of strategy ${other.id}'s generated references`,
        };
    }
    if (this.customRefs.has(ref))
      return { check: 'kernel.ref', reason: `reference ${ref} was already used in this run` };
    this.customRefs.add(ref);
    return undefined;
  }

  /**
   * cancelOrders without targets means "all of mine (on sym)": the strategy's open orders, its
   * in-flight ones (PENDING_NEW) included, by reference, so no other strategy's order is touched.
   * cancelAllAlgoOrders must not touch others' algo orders: it goes to the venue as it is only when
   * the caller is the kernel's only strategy and every algo order it may reach is the caller's
   * (those Keel knows open, and those sent and not answered yet: the venue may hold them already).
   * Otherwise the caller's own are cancelled one by one, the in-flight ones by reference (their
   * cancel reaches the venue after them): with other strategies, the venue may hold algo orders
   * of theirs Keel has not heard of yet (the tp/sl legs of an entry that just filled). One whose
   * algoOrderType is none of the venue's goes as it is, for the venue to refuse (400001): it
   * matches no algo order, and cancelling nothing would hide the mistake from the strategy.
   * Every other intent goes as it is: undefined, no one-element list per intent.
   */
  private expand(runner: StrategyRunner, intent: Intent): readonly Intent[] | undefined {
    if (intent.kind === 'cancelOrders' && intent.targets === undefined) {
      const targets = this.state
        .openOrders(runner.id)
        .filter((o) => intent.sym === undefined || o.sym === intent.sym)
        .map((o) => o.clientOrderId);
      return targets.length === 0 ? [] : [{ ...intent, targets }];
    }
    if (intent.kind === 'cancelAllAlgoOrders' && unknownFieldValue(intent) === undefined) {
      const matching = this.state
        .openAlgoOrders()
        .filter(
          (a) =>
            (intent.sym === undefined || a.sym === intent.sym) &&
            (intent.algoOrderType === undefined || a.algoOrderType === intent.algoOrderType),
        );
      const mine = matching.filter((a) => this.state.orders.ownerOf(a.clientAlgoOrderId) === runner.id);
      const inFlight = this.algosInFlight.matching(intent, runner.id);
      if (this.runners.length === 1 && mine.length === matching.length)
        return mine.length + inFlight.length === 0 ? [] : [intent];
      const cancels = [
        ...mine.map((a) => runner.order.cancelAlgo(a.clientAlgoOrderId)),
        ...inFlight.map(({ ref, sym }) => ({ ...runner.order.cancelAlgo(ref), sym })),
      ];
      // Built by the strategy's factory on its behalf and sent here: not intents it left unsent.
      runner.order.tally.sent += cancels.length;
      return cancels;
    }
    return undefined;
  }

  /** Ownership and Keel's in-flight view are recorded before the port sees the command. */
  private record(ownerId: string, intent: Intent): void {
    const orders = this.state.orders;
    const now = this.state.now();
    this.state.commandSyms.sent(intent);
    switch (intent.kind) {
      case 'placeOrder':
        orders.own(intent.ref, ownerId);
        orders.applyLocal(
          orderFromPlaceIntent(intent, { portfolioId: this.state.account?.portfolioId ?? '', at: now }),
        );
        return;
      // The request's ref is owned too: a refusal must reach the strategy and undo PENDING_*.
      case 'modifyOrder':
        this.requests.sentOn(
          intent.ref,
          ownerId,
          intent.target,
          'PENDING_REPLACE',
          now,
          intent.qty,
          intent.price,
        );
        return;
      case 'cancelOrder':
        this.requests.sentOn(intent.ref, ownerId, intent.target, 'PENDING_CANCEL', now);
        return;
      case 'cancelOrders':
        this.requests.sent(intent.ref, ownerId, {
          targets: intent.targets ?? [],
          orderState: 'PENDING_CANCEL',
          now,
        });
        return;
      case 'cancelAlgoOrder':
        this.requests.sent(intent.ref, ownerId);
        this.algosInFlight.cancelling(intent.ref, intent.target);
        this.algoRequest(intent.ref, 'cancel', [intent.target]);
        return;
      case 'cancelAllAlgoOrders':
        this.requests.sent(intent.ref, ownerId);
        this.algoRequest(intent.ref, 'cancel', cancelAllTargets(this.state.openAlgoOrders(ownerId), intent));
        return;
      case 'replaceAlgoOrder':
        this.requests.sent(intent.ref, ownerId);
        this.algosInFlight.replacing(intent);
        this.algoRequest(intent.ref, 'replace', [intent.target]);
        return;
      case 'closePosition':
      case 'closePositions':
        orders.ownClose(intent.ref, ownerId);
        this.closes.sending(intent, ownerId);
        this.algoRequest(
          intent.ref,
          'close',
          closeTargets(this.state.openAlgoOrders(), intent, this.state.positionMode()),
        );
        return;
      case 'placeAlgoOrder':
        orders.own(intent.ref, ownerId);
        this.algosInFlight.sending(intent, ownerId);
        return;
      default:
        // borrow, repay, position mode: the owner answers for a venue refusal
        orders.own(intent.ref, ownerId);
        return;
    }
  }

  /** Records a request on algo orders and marks those it cancels or replaces `pending`. */
  private algoRequest(ref: string, kind: AlgoRequestKind, algoRefs: readonly string[]): void {
    const requests = this.state.algoRequests;
    requests.sent(ref, kind, algoRefs);
    for (const algoRef of algoRefs) this.state.orders.markAlgo(algoRef, requests.pendingOf(algoRef));
  }

  private denial(
    runner: StrategyRunner,
    intent: Intent,
    source: IntentDenied['source'],
    check: string,
    reason: string,
  ): IntentDenied {
    return {
      kind: 'denied',
      strategyId: runner.id,
      ref: intent.ref,
      intentKind: intent.kind,
      intent,
      source,
      check,
      reason,
      ts: this.state.now(),
    };
  }
}

/** The check name of a denial for an intent whose checks (the kernel's or the gate's) threw. */
const CHECK_THREW = 'kernel.checkThrew';

/** What the kernel's checks made of an intent: a denial, or what goes on to the gate. */
type Routed =
  | { readonly denial: KernelDenial; readonly source: IntentDenied['source'] }
  | {
      readonly rest: Intent | undefined;
      readonly stops: readonly string[];
      /** The intents an "all of mine" cancel expands into; undefined when the rest goes as it is. */
      readonly expanded: readonly Intent[] | undefined;
    };

/**
 * The reason of a denial for an intent whose checks threw.
 * @param intent - the intent
 * @param error - what was thrown
 * @returns e.g. `placeOrder s-1 could not be checked (TypeError: value.isFinite is not a function); it was denied, nothing was sent`
 */
function threwReason(intent: Intent, error: unknown): string {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `${String(intent.kind)} ${String(intent.ref)} could not be checked (${what}); it was denied, nothing was sent`;
}

/**
 * The command the gate is given: a strategy's intent, stamped with the hook call that produced it
 * (the gate approves the command it is given).
 * @param strategyId - the emitting strategy
 * @param intent - its intent
 * @param hookCall - the kernel's hook call under way (undefined: none stamped)
 * @returns the command
 */
function commandOf(strategyId: string, intent: Intent, hookCall: number | undefined): StrategyIntent {
  return hookCall === undefined ? { strategyId, intent } : { strategyId, intent, hookCall };
}

/**
 * The approved command with the kernel's hook-call stamp: a custom gate may approve a command of
 * its own making (a stock gate asked about a copy of the strategy's), which drops the stamp or
 * carries another, and the trade book would then count each order of a sliced one as an entry.
 * The stamp is the kernel's, not the gate's: it is put back whatever the gate returned.
 * @param command - what the gate approved
 * @param hookCall - the kernel's hook call under way (undefined: none stamped)
 * @returns the command itself when it bears the stamp already, else a copy bearing it
 */
function stamped(command: ApprovedIntent, hookCall: number | undefined): ApprovedIntent {
  return hookCall === undefined || command.hookCall === hookCall ? command : { ...command, hookCall };
}

/**
 * A replace or cancel of an algo order made in the same hook as its placement names no sym (the
 * factory knew no algo order of that reference yet): once the placement is in flight, the intent
 * gets its sym, so the instrument and limit checks judge it as they would after the venue's ack.
 * @param intent - the intent as emitted
 * @param algosInFlight - the algo orders sent and not answered yet
 * @returns the intent, with the in-flight algo order's sym when it named none
 */
function withInFlightAlgoSym(intent: Intent, algosInFlight: InFlightAlgoOrders): Intent {
  if ((intent.kind !== 'replaceAlgoOrder' && intent.kind !== 'cancelAlgoOrder') || intent.sym !== '')
    return intent;
  const sym = algosInFlight.sentAs(intent.target)?.sym;
  return sym === undefined ? intent : { ...intent, sym };
}

import type { Dec, Intent, StrategyIntent } from '../model/index.ts';
import { CANCEL_INTENT_KINDS, describeWrongFieldType, wrongFieldType } from '../model/index.ts';
import { approve } from './approved-intent.ts';
import { IntentThrottle } from './intent-throttle.ts';
import { KillSwitch, type KillSwitchMarks, utcDayOf } from './kill-switch.ts';
import { RiskCheckChain } from './risk-check-chain.ts';
import { parseOrThrow } from './risk-config-parsing.ts';
import type { Denial, RiskDecision } from './risk-decision.ts';
import {
  type RiskGateConfig,
  type RiskGateConfigInput,
  type RiskLimits,
  type RiskLimitsInput,
  riskGateConfigSchema,
  riskLimitsSchema,
} from './risk-limits.ts';
import type { RiskView } from './risk-view.ts';
import { isRiskReducing, stricterStatus, type TradingState, type TradingStatus } from './trading-state.ts';

/**
 * What a run hands to the next one so its kill switch goes on where it stopped (a restart): the
 * marks it observed and the trip in force, if any.
 */
export interface KillSwitchState {
  readonly marks?: KillSwitchMarks;
  /** The status the kill switch tripped the portfolio into, until a resume. */
  readonly trip?: TradingStatus;
}

/** A sym a per-sym limit names, and whose limits name it. */
export interface LimitedSym {
  /** `portfolio`, or the id of the strategy whose limits name the sym. */
  readonly owner: string;
  readonly sym: string;
}

const NO_LIMITS: RiskLimits = {};
const ACTIVE: TradingStatus = { state: 'ACTIVE' };

/**
 * The risk gate: every intent passes through it, and only its approved output reaches an
 * execution port. Cancels always pass. Otherwise, in order: the kill switch observes equity;
 * the field types (an amount that is not a Decimal, a sym that is not a string: `fieldTypes`);
 * the trading state (HALTED: nothing but the order of a reduce-only emulated trailing stop held
 * since before the halt, which fires as a venue's stop would; REDUCING: only risk-reducing intents); the rule checks;
 * the limit checks against the portfolio limits, then against the strategy's; the submit or
 * modify throttle (portfolio's and strategy's bucket). A denial is returned, never thrown.
 *
 * @example
 * const gate = new RiskGate({ limits: { maxNotionalPerOrder: '50000', priceBand: 0.05 },
 *   strategies: { mm: { maxOpenOrders: 10, submitRate: { limit: 20, intervalMs: 1000 } } },
 *   killSwitch: { dailyLossLimit: '2000', maxDrawdown: 0.1 } });
 * const decision = gate.evaluate({ strategyId: 'mm', intent }, view);
 * if (decision.kind === 'approved') port.submit(decision.command);
 */
export class RiskGate {
  readonly #limits: RiskLimits;
  readonly #strategyLimits = new Map<string, RiskLimits>();
  readonly #killSwitch: KillSwitch;
  readonly #tripTo: TradingState;
  readonly #strategyStatus = new Map<string, TradingStatus>();
  readonly #checks: RiskCheckChain;
  readonly #throttle: IntentThrottle;
  #status: TradingStatus = ACTIVE;
  /** The kill switch's trip in force (cleared by a portfolio resume). */
  #trip: TradingStatus | undefined;
  readonly #tripListeners: ((trip: TradingStatus, equity: Dec) => void)[] = [];

  /**
   * @param config - portfolio limits, per-strategy limits and the kill switch (see
   *   {@link riskGateConfigSchema}), as written in config or already parsed
   * @throws RangeError listing every invalid field when the config does not match the schema
   */
  constructor(config: RiskGateConfigInput | RiskGateConfig = {}) {
    const parsed: RiskGateConfig = parseOrThrow(riskGateConfigSchema, config, 'risk config');
    this.#limits = parsed.limits;
    for (const [strategyId, limits] of Object.entries(parsed.strategies))
      this.#strategyLimits.set(strategyId, limits);
    this.#killSwitch = new KillSwitch(parsed.killSwitch);
    this.#tripTo = parsed.killSwitch.tripTo;
    this.#checks = new RiskCheckChain(parsed.limits);
    this.#throttle = new IntentThrottle(parsed.limits);
  }

  /**
   * Sets (or replaces) one strategy's limits, e.g. from its own config section.
   * @param strategyId - the strategy
   * @param limits - its limits, as written in config or already parsed
   * @throws RangeError listing every invalid field
   */
  configureStrategy(strategyId: string, limits: RiskLimitsInput | RiskLimits): void {
    this.#strategyLimits.set(
      strategyId,
      parseOrThrow(riskLimitsSchema, limits, `risk limits of strategy ${strategyId}`),
    );
    this.#throttle.forgetStrategy(strategyId);
  }

  /**
   * The syms that per-sym limits (`maxPositionQtyBySym`) name, the portfolio's and each
   * strategy's: a kernel refuses to start when one is not among its instruments, since that
   * limit would never apply (a misspelt sym would silently remove it).
   * @returns each named sym with whose limits name it: `portfolio` or the strategy id
   */
  limitedSyms(): readonly LimitedSym[] {
    const named = (owner: string, limits: RiskLimits): LimitedSym[] =>
      Object.keys(limits.maxPositionQtyBySym ?? {}).map((sym) => ({ owner, sym }));
    return [
      ...named('portfolio', this.#limits),
      ...[...this.#strategyLimits].flatMap(([strategyId, limits]) => named(strategyId, limits)),
    ];
  }

  /**
   * Decides one intent.
   * @param strategyIntent - the intent and the strategy that emitted it
   * @param view - the read-only state
   * @returns approved (with the branded command) or denied (check name and a sentence)
   */
  evaluate(strategyIntent: StrategyIntent, view: RiskView): RiskDecision {
    const { strategyId, intent } = strategyIntent;
    if (CANCEL_INTENT_KINDS.has(intent.kind)) return { kind: 'approved', command: approve(strategyIntent) };
    const now = view.now();
    if (this.#killSwitch.armed) this.observeEquity(now, view.equity());
    const denial =
      fieldTypeDenial(intent) ??
      this.#stateDenial(strategyIntent, view) ??
      this.#checkDenial(strategyId, intent, view, now);
    if (denial !== undefined) return { kind: 'denied', ...denial };
    return { kind: 'approved', command: approve(strategyIntent) };
  }

  /**
   * Feeds an equity observation to the kill switch (the gate also does so on every intent);
   * trips the portfolio into the configured state when a loss limit is breached.
   * @param now - observation time, epoch ms
   * @param equity - portfolio equity
   * @returns the trading status after the observation
   */
  observeEquity(now: number, equity: Dec): TradingStatus {
    if (!this.#killSwitch.armed) return this.#status;
    const breach = this.#killSwitch.observe(now, equity);
    if (breach !== undefined && this.#trip === undefined) {
      const trip: TradingStatus = { state: this.#tripTo, reason: breach, since: now };
      this.#trip = trip;
      this.#status = stricterStatus(this.#status, trip);
      for (const listener of this.#tripListeners) listener(trip, equity);
    }
    return this.#status;
  }

  /** @returns whether {@link RiskGate.observeEquity} looks at equity: only while a kill switch limit is set */
  watchesEquity(): boolean {
    return this.#killSwitch.armed;
  }

  /**
   * Calls `listener` each time the kill switch trips (once per trip; again only after a resume).
   * @param listener - told the trip (state, reason, since) and the equity that tripped it
   * @returns removes the listener (a run that ends stops listening)
   */
  onKillSwitchTrip(listener: (trip: TradingStatus, equity: Dec) => void): () => void {
    this.#tripListeners.push(listener);
    return () => {
      const at = this.#tripListeners.indexOf(listener);
      if (at >= 0) this.#tripListeners.splice(at, 1);
    };
  }

  /** @returns the kill switch's marks and the trip in force, for the next run to restore */
  killSwitchState(): KillSwitchState {
    const marks = this.#killSwitch.marks();
    return {
      ...(marks === undefined ? {} : { marks }),
      ...(this.#trip === undefined ? {} : { trip: this.#trip }),
    };
  }

  /**
   * Goes on from an earlier run's kill switch (a restart): its high-water mark, its start-of-day
   * equity when of the current UTC day, and its trip when tripped on the current UTC day (a trip
   * of an earlier day is not restored: the next observation judges the new day afresh).
   * @param state - what the earlier run saved
   * @param now - the current time, epoch ms
   */
  restoreKillSwitch(state: KillSwitchState, now: number): void {
    if (state.marks !== undefined) this.#killSwitch.restore(state.marks, now);
    const trip = state.trip;
    if (trip === undefined || trip.since === undefined || utcDayOf(trip.since) !== utcDayOf(now)) return;
    this.#trip = trip;
    this.#status = stricterStatus(this.#status, trip);
  }

  /**
   * Manual kill switch: nothing but cancels passes until {@link RiskGate.resume}.
   * @param reason - why, shown in every denial
   * @param strategyId - halt one strategy only; omitted = the whole portfolio
   * @param now - when, for the record
   */
  halt(reason: string, strategyId?: string, now?: number): void {
    this.#setStatus({ state: 'HALTED', reason, since: now }, strategyId);
  }

  /**
   * Lets only risk-reducing intents through until {@link RiskGate.resume}.
   * @param reason - why, shown in every denial
   * @param strategyId - one strategy only; omitted = the whole portfolio
   * @param now - when, for the record
   */
  reduceOnly(reason: string, strategyId?: string, now?: number): void {
    this.#setStatus({ state: 'REDUCING', reason, since: now }, strategyId);
  }

  /**
   * Back to ACTIVE. Resuming the portfolio also re-bases the kill switch (start-of-day equity and
   * high-water mark restart from the next observation), so a deliberate resume is not undone by
   * the very loss that tripped it.
   * @param strategyId - one strategy only; omitted = the whole portfolio
   */
  resume(strategyId?: string): void {
    if (strategyId === undefined) {
      this.#killSwitch.rebase();
      this.#trip = undefined;
    }
    this.#setStatus(ACTIVE, strategyId);
  }

  /**
   * The trading status in force for a strategy (the stricter of the portfolio's and its own), or
   * the portfolio's.
   * @param strategyId - the strategy; omitted = the portfolio
   * @returns state, reason and since
   */
  status(strategyId?: string): TradingStatus {
    if (strategyId === undefined) return this.#status;
    return stricterStatus(this.#status, this.#strategyStatus.get(strategyId) ?? ACTIVE);
  }

  #setStatus(status: TradingStatus, strategyId: string | undefined): void {
    if (strategyId === undefined) this.#status = status;
    else this.#strategyStatus.set(strategyId, status);
  }

  #stateDenial({ strategyId, intent, heldSince }: StrategyIntent, view: RiskView): Denial | undefined {
    const status = this.status(strategyId);
    const { state, reason } = status;
    if (state === 'ACTIVE' || (state === 'REDUCING' && isRiskReducing(intent, view))) return undefined;
    if (state === 'HALTED' && firesHeldStop(intent, heldSince, status)) return undefined;
    const allowed = state === 'HALTED' ? 'only cancels pass' : 'only risk-reducing intents pass';
    return {
      check: 'tradingState',
      reason: `${intent.kind} ${intent.ref} refused: trading is ${state} (${reason ?? 'no reason given'}); ${allowed}`,
    };
  }

  #checkDenial(strategyId: string, intent: Intent, view: RiskView, now: number): Denial | undefined {
    const strategyLimits = this.#strategyLimits.get(strategyId) ?? NO_LIMITS;
    return (
      this.#checks.denial(strategyId, intent, view, strategyLimits) ??
      this.#throttle.denial(strategyId, intent, strategyLimits, now)
    );
  }
}

/**
 * Whether an order is what a reduce-only emulated trailing stop, held since before the halt, sends
 * as it fires: HALTED lets it through (the other checks still judge it), as the venue fires a stop
 * it holds (the halt's sweep keeps a position's protective orders). Only such an order: any other
 * intent of a HALTED strategy but a cancel is denied.
 * @param intent - the intent
 * @param heldSince - when the kernel accepted the stop that sends it (set by the kernel only)
 * @param halt - the HALTED status in force
 * @returns true for the fired order of a reduce-only stop accepted at or before the halt
 */
function firesHeldStop(intent: Intent, heldSince: number | undefined, halt: TradingStatus): boolean {
  return (
    heldSince !== undefined &&
    halt.since !== undefined &&
    heldSince <= halt.since &&
    intent.kind === 'placeOrder' &&
    intent.reduceOnly === true
  );
}

/**
 * Denies an intent a field of which does not hold its type (`qty: 5`, a number, where a Decimal
 * goes): first, as every later check reads the fields and would throw on it.
 * @param intent - the intent (not a cancel)
 * @returns the `fieldTypes` denial, or undefined when every field holds its type
 */
function fieldTypeDenial(intent: Intent): Denial | undefined {
  const problem = wrongFieldType(intent);
  if (problem === undefined) return undefined;
  const ref = typeof intent.ref === 'string' ? ` ${intent.ref}` : '';
  return { check: 'fieldTypes', reason: `${intent.kind}${ref}: ${describeWrongFieldType(problem)}` };
}

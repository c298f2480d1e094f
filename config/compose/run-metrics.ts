import type { Logger } from 'pino';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Observable } from 'rxjs';
import {
  type GivenUpCause,
  type IntentDenied,
  type IntentGate,
  monotonicNow,
} from '../../core/kernel/index.ts';
import {
  type AccountStatus,
  LIQUIDATION_EVENT_TYPES,
  type Order,
  type Position,
  type StrategyIntent,
  signedPositionQty,
  type VenueStatus,
} from '../../core/model/index.ts';
import type { TradingState } from '../../core/risk/index.ts';
import type { LiveVenue } from '../../core/venue/index.ts';
import type { KeelConfig } from '../schema/index.ts';
import { type ReadyStates, VenueMetrics } from './venue-metrics.ts';

/** The account statuses the venue reports, each a series of `keel_account_status`. */
const ACCOUNT_STATUSES: readonly AccountStatus[] = ['NORMAL', 'MARGIN_CALL', 'LIQUIDATION'];

/** Why the kernel gives up an order that came early, each a series of `keel_algo_children_given_up_total`. */
const ALGO_CHILD_GIVEN_UP_CAUSES: readonly GivenUpCause[] = ['timeout', 'capacity', 'backlog'];

/** Why the kernel gives up a fill that came early, each a series of `keel_fills_given_up_total`. */
const FILL_GIVEN_UP_CAUSES: readonly GivenUpCause[] = ['timeout', 'capacity'];

/** The trading states a kill switch trip sets, each a series of `keel_kill_switch_trips_total`. */
const KILL_SWITCH_TRIP_STATES: readonly Exclude<TradingState, 'ACTIVE'>[] = ['HALTED', 'REDUCING'];

/** What the position and open-order gauges read (the kernel's state). */
export interface BookSource {
  readonly positions: ReadonlyMap<string, Position>;
  openOrders(): readonly Order[];
}

/** A live or paper session's Prometheus metrics and, when enabled, the endpoint serving them and the `/healthz` and `/readyz` probes. */
export class RunMetrics extends VenueMetrics {
  readonly intents = new Counter({
    name: 'keel_intents_total',
    help: "Intents the strategies emitted, by kind, as the kernel took them: the ones its own checks, the risk gate or the venue denied included, Keel's own cancels (kill switch, fault, stop) not.",
    labelNames: ['kind'],
    registers: [this.registry],
  });
  readonly denials = new Counter({
    name: 'keel_denials_total',
    help: "Intents denied, by check: a risk check's name (maxNotional...), a kernel check's (kernel.<check>) or the venue's refusal of a command (venue.<code>), as the summary counts them.",
    labelNames: ['check'],
    registers: [this.registry],
  });
  readonly fills = new Counter({
    name: 'keel_fills_total',
    help: 'Fills (executions) received.',
    registers: [this.registry],
  });
  readonly orderLatency = new Histogram({
    name: 'keel_order_latency_seconds',
    help: 'From an approved placeOrder to the venue acknowledging the order, in seconds.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  /**
   * Registered at its first value ({@link RunMetrics.observeEquity}): absent from `/metrics` until
   * the account is known, never a 0 an alert would read as a total loss.
   */
  readonly equity = new Gauge({
    name: 'keel_equity',
    help: 'Portfolio equity in the settlement currency; absent until the first reconciliation read the account.',
    registers: [],
  });
  readonly positionQty = new Gauge({
    name: 'keel_position_qty',
    help: 'Signed position quantity (long > 0) by sym and leg (NONE, LONG, SHORT), as the kernel holds it when scraped.',
    labelNames: ['sym', 'side'],
    registers: [this.registry],
    collect: () => this.collectPositions(),
  });
  readonly openOrders = new Gauge({
    name: 'keel_open_orders',
    help: 'Open orders by sym, as the kernel holds them when scraped (algo orders not yet triggered aside).',
    labelNames: ['sym'],
    registers: [this.registry],
    collect: () => this.collectOpenOrders(),
  });
  private book: BookSource | undefined;
  private equityKnown = false;
  /** The syms `keel_open_orders` has reported: one with no open order left reads 0. */
  private readonly openOrderSyms = new Set<string>();
  readonly killSwitchTrips = new Counter({
    name: 'keel_kill_switch_trips_total',
    help: 'Kill switch trips, by the trading state they set (HALTED or REDUCING).',
    labelNames: ['state'],
    registers: [this.registry],
  });
  readonly strategyFaults = new Counter({
    name: 'keel_strategy_faults_total',
    help: 'Strategies halted by a fault (a hook threw or returned something that is not intents), by strategy.',
    labelNames: ['strategy'],
    registers: [this.registry],
  });
  readonly venueReconciled = new Gauge({
    name: 'keel_venue_reconciled',
    help: "Whether Keel's orders and positions are the venue's (1: the reconciliation after the last login finished; 0: down or reconciling, new orders are denied).",
    registers: [this.registry],
  });
  readonly liquidations = new Counter({
    name: 'keel_liquidations_total',
    help: 'Liquidations of the account the venue reported (one per liquidationEventId), by event type.',
    labelNames: ['type'],
    registers: [this.registry],
  });
  readonly accountStatus = new Gauge({
    name: 'keel_account_status',
    help: "The account's status as the venue last reported it: 1 for the current one (NORMAL, MARGIN_CALL, LIQUIDATION), 0 for the others; absent until the account is known.",
    labelNames: ['status'],
    registers: [this.registry],
  });
  readonly ordersRejected = new Counter({
    name: 'keel_orders_rejected_total',
    help: "Orders that ended REJECTED, by code: the venue's (e.g. 400001 for a post-only order that would take, 401023 for margin) or keel when Keel ended the order itself (not sent, never acknowledged).",
    labelNames: ['code'],
    registers: [this.registry],
  });
  readonly algoChildrenGivenUp = new Counter({
    name: 'keel_algo_children_given_up_total',
    help: 'Orders an algo order sent (a fired stop, a tp/sl leg) that waited in vain for that algo order to be reported, given up, with their fills, to no strategy, by reason: timeout (10 s), capacity (pushed out by 1000 newer ones first), backlog (what was held for them pushed out by 1000 newer updates and fills held first).',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly fillsGivenUp = new Counter({
    name: 'keel_fills_given_up_total',
    help: "Fills that came before their order's first update and waited in vain for it, given up to no strategy, by reason: timeout (10 s), capacity (pushed out by 1000 newer ones first).",
    labelNames: ['reason'],
    registers: [this.registry],
  });
  /** A session is ready once its private stream is reconciled (`keel_venue_reconciled` 1) and its market stream up. */
  protected override readonly readyStates: ReadyStates = new Map([
    ['private', 'reconciled'],
    ['market', 'up'],
  ]);
  /** Intents counted so far (all kinds), for the status line. */
  intentTotal = 0;
  private readonly sentAt = new Map<string, number>();

  /** @param now - the clock the order latency is measured on, ms (only differences are read) */
  constructor(private readonly now: () => number) {
    super();
    // Each reason's series from the start: a rate or an alert reads 0, not no data.
    for (const reason of ALGO_CHILD_GIVEN_UP_CAUSES) this.algoChildrenGivenUp.inc({ reason }, 0);
    for (const reason of FILL_GIVEN_UP_CAUSES) this.fillsGivenUp.inc({ reason }, 0);
    for (const state of KILL_SWITCH_TRIP_STATES) this.killSwitchTrips.inc({ state }, 0);
    for (const type of LIQUIDATION_EVENT_TYPES) this.liquidations.inc({ type }, 0);
  }

  /**
   * Starts `keel_strategy_faults_total` of each strategy at 0, so a rate or an alert on it reads 0
   * until the first fault, not no data.
   * @param strategyIds - the session's strategies
   */
  watchStrategies(strategyIds: readonly string[]): void {
    for (const strategy of strategyIds) this.strategyFaults.inc({ strategy }, 0);
  }

  /**
   * Exports a venue's connection changes and its inbound counters (read when scraped), and
   * whether the private stream is reconciled.
   * @param status - the venue's connection changes (`LiveVenue.status`)
   * @param counters - the venue's inbound counters (`LiveVenue.counters`), mutated by its clients
   */
  override watchVenue(status: Observable<VenueStatus>, counters: LiveVenue['counters']): void {
    super.watchVenue(status, counters);
    status.subscribe((change) => {
      if (change.stream === 'private') this.venueReconciled.set(change.state === 'reconciled' ? 1 : 0);
    });
  }

  /**
   * Wraps the risk gate so the send time of every approved order is noted (for
   * `keel_order_latency_seconds`); a trailing stop approved when placed is not sent (the kernel
   * holds it), its order's time is noted when it fires. Intents and denials are counted where the
   * kernel reports them ({@link RunMetrics.countIntents}, {@link RunMetrics.countDenials}): Keel's
   * own cancels, which go through this gate too, are no strategy's intents.
   * @param gate - the run's gate
   * @returns a gate that decides exactly as `gate` does
   */
  timingGate(gate: IntentGate): IntentGate {
    return {
      evaluate: (intent, view) => {
        const decision = gate.evaluate(intent, view);
        if (
          decision.kind === 'approved' &&
          intent.intent.kind === 'placeOrder' &&
          intent.intent.trailingStop === undefined
        )
          this.sentAt.set(intent.intent.ref, this.now());
        return decision;
      },
      ...(gate.observeEquity === undefined
        ? {}
        : { observeEquity: (now, equity) => gate.observeEquity?.(now, equity) }),
      ...(gate.watchesEquity === undefined ? {} : { watchesEquity: () => gate.watchesEquity?.() ?? true }),
      ...(gate.status === undefined
        ? {}
        : { status: (strategyId: string) => gate.status?.(strategyId) ?? { state: 'ACTIVE' } }),
    };
  }

  /**
   * Counts the intents the strategies emitted, as the kernel took them (before its checks).
   * @param intents - the kernel's intents (`Kernel.intents`)
   */
  countIntents(intents: Observable<StrategyIntent>): void {
    intents.subscribe(({ intent }) => {
      this.intents.inc({ kind: intent.kind });
      this.intentTotal++;
    });
  }

  /**
   * Counts the denials the strategies are told of, by check: a risk check's name, a kernel
   * check's (`kernel.<check>`) and the venue's refusal of a command (`venue.<code>`), so
   * `keel_denials_total` counts what the summary's denied intents do.
   * @param denials - the kernel's denials (`Kernel.denials`)
   */
  countDenials(denials: Observable<IntentDenied>): void {
    denials.subscribe((denial) => this.denials.inc({ check: denial.check }));
  }

  /**
   * Sets `keel_equity`, registering it at its first value.
   * @param equity - the portfolio's equity in the settlement currency
   */
  observeEquity(equity: number): void {
    if (!this.equityKnown) this.registry.registerMetric(this.equity);
    this.equityKnown = true;
    this.equity.set(equity);
  }

  /**
   * Sets `keel_account_status` to the account's status.
   * @param status - the status the venue reported
   */
  observeAccountStatus(status: AccountStatus): void {
    for (const each of ACCOUNT_STATUSES) this.accountStatus.set({ status: each }, each === status ? 1 : 0);
  }

  /**
   * Exports the kernel's positions and open orders, read each time the metrics are scraped.
   * @param book - the kernel's state (`Kernel.state`)
   * @param syms - the run's syms: each reads 0 open orders rather than no series when it has none
   */
  watchBook(book: BookSource, syms: readonly string[] = []): void {
    this.book = book;
    for (const sym of syms) this.openOrderSyms.add(sym);
  }

  private collectPositions(): void {
    if (this.book === undefined) return;
    this.positionQty.reset();
    for (const position of this.book.positions.values()) {
      this.positionQty.set(
        { sym: position.sym, side: position.positionSide },
        signedPositionQty(position).toNumber(),
      );
    }
  }

  private collectOpenOrders(): void {
    if (this.book === undefined) return;
    // A sym that had open orders reads 0 once it has none (its series does not vanish).
    const bySym = new Map<string, number>();
    for (const sym of this.openOrderSyms) bySym.set(sym, 0);
    for (const order of this.book.openOrders()) bySym.set(order.sym, (bySym.get(order.sym) ?? 0) + 1);
    for (const [sym, count] of bySym) {
      this.openOrderSyms.add(sym);
      this.openOrders.set({ sym }, count);
    }
  }

  /**
   * Notes that the venue acknowledged an order, observing its latency once.
   * @param clientOrderId - the order's reference
   */
  acknowledged(clientOrderId: string): void {
    const sent = this.sentAt.get(clientOrderId);
    if (sent === undefined) return;
    this.sentAt.delete(clientOrderId);
    this.orderLatency.observe((this.now() - sent) / 1000);
  }

  /**
   * Notes that the venue (or the adapter) refused an order: its send time is forgotten, with no
   * latency observed, so a long run's refused orders are not kept.
   * @param clientOrderId - the order's reference
   */
  refused(clientOrderId: string): void {
    this.sentAt.delete(clientOrderId);
  }

  /** Approved orders sent and not yet acknowledged nor refused: their send times are held. */
  get awaitingAcks(): number {
    return this.sentAt.size;
  }
}

/**
 * A live or paper session's metrics, their endpoint serving when `metrics.enabled`.
 * @param settings - the config's `metrics` section
 * @param logger - where the endpoint's URL is logged
 * @param onServed - told the endpoint's URL once it serves
 * @returns the metrics; close them when the session ends
 * @throws PortInUse when another process listens on the port; the server's error otherwise
 */
export async function servedRunMetrics(
  settings: KeelConfig['metrics'],
  logger: Logger,
  onServed?: (url: string) => void,
): Promise<RunMetrics> {
  // Monotonic: a wall-clock step between an order and its ack would observe an hour's latency, or a negative one.
  const metrics = new RunMetrics(monotonicNow);
  if (settings.enabled) {
    const url = await metrics.listen(settings.host, settings.port);
    logger.info({ url }, 'Prometheus metrics served');
    onServed?.(url);
  }
  return metrics;
}

import { type Observable, Subject } from 'rxjs';
import {
  createSimVenue,
  type FillModelName,
  type SimVenue,
  type SimVenueOptions,
  ZERO_LATENCY,
} from '../../backtest/sim/index.ts';
import type { ExecutionPort } from '../../core/execution/index.ts';
import {
  type IntentDenied,
  Kernel,
  type StrategySlot,
  seededRandom,
  type VirtualScheduler,
  virtualScheduler,
} from '../../core/kernel/index.ts';
import type {
  Dec,
  InstrumentSpec,
  Intent,
  MarketEvent,
  Order,
  UserEvent,
  VenueStatus,
} from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';
import { Portfolio } from '../../core/portfolio/index.ts';
import { RiskGate, type RiskGateConfigInput } from '../../core/risk/index.ts';
import { anInstrument, instrumentLookup } from './instrument-builders.ts';
import { BTC, ETH } from './kernel-events.ts';

/** A strategy running in a kernel against the real simulated venue, with handles on both sides. */
export interface StrategyRig {
  readonly kernel: Kernel;
  readonly sim: SimVenue;
  readonly scheduler: VirtualScheduler;
  readonly portfolio: Portfolio;
  /** Every intent the risk gate approved, in the order the venue received them. */
  readonly sent: Intent[];
  /** Every User Data event the venue emitted. */
  readonly userEvents: UserEvent[];
  /** Every denial (kernel, risk gate or venue). */
  readonly denials: IntentDenied[];
  /** Every strategy fault, as `id:where:message`. */
  readonly faults: string[];
  /**
   * Feeds market events in time order: each goes to the venue first (commands due by then run,
   * resting orders match), then to the kernel (timers due fire, strategies react), and finally
   * the venue runs the commands that arrived by the event's time (all of them at zero latency).
   */
  push(...events: MarketEvent[]): void;
  /** Moves time to `ts` without market data: the venue first, then the kernel's timers, then the venue again. */
  advance(ts: number): void;
  /** Stops the strategies (their `onStop` intents are sent and run at the current time). */
  stop(): void;
  /** Intents of one kind the venue received. */
  sentOf<K extends Intent['kind']>(kind: K): Extract<Intent, { kind: K }>[];
  /** User Data events of one kind. */
  eventsOf<K extends UserEvent['kind']>(kind: K): Extract<UserEvent, { kind: K }>[];
  /** Open orders at the venue (its snapshot), for one sym when given. */
  venueOrders(sym?: string): Promise<readonly Order[]>;
  /** The venue's position quantity of a sym (NET mode), zero when flat. */
  venueQty(sym?: string): Promise<Dec>;
}

/** How a strategy rig is set up; every field has a hand-checkable default. */
export interface StrategyRigOptions {
  /** Default `touch`: a resting order fills as soon as the opposite quote or a trade reaches it. */
  readonly fillModel?: FillModelName;
  /** Order-entry latency, ms. Default 0 (commands run at the time they are sent). */
  readonly latencyMs?: number;
  /** Default 10 000 USDT. */
  readonly cash?: number;
  /** Coins held besides the USDT cash (a spot sym's base), e.g. `{ ETH: 0.25 }`; default none. */
  readonly holdings?: Readonly<Record<string, number>>;
  /** The instruments; default the BTC and ETH perpetuals. */
  readonly instruments?: readonly InstrumentSpec[];
  /** Default 0. */
  readonly start?: number;
  /** Risk gate limits; default none beyond the venue's rules. */
  readonly risk?: RiskGateConfigInput;
  /** Anything else for the venue (loans, margin call ratio, leverage...). */
  readonly sim?: Partial<SimVenueOptions>;
  /** The venue's stream states, as a live session reports them; default none (always up). */
  readonly venueStatus?: Observable<VenueStatus>;
}

/**
 * Builds a kernel on virtual time over BTC and ETH perpetuals (tick 0.1, lot 0.001, min notional 5,
 * maker 2 bps, taker 5 bps, leverage 10) wired to the real simulated venue, the real risk gate and
 * a Portfolio (so `ctx.equity()` is Keel's ledger marked at the latest prices). The venue's starting
 * balances are pushed to the kernel before the strategies start, as the backtest runner does.
 * @param strategies - the strategies to run
 * @param options - fill model, latency, cash, start time, risk limits, venue options
 * @returns the started rig
 */
export async function aStrategyRig(
  strategies: readonly StrategySlot[],
  options: StrategyRigOptions = {},
): Promise<StrategyRig> {
  const start = options.start ?? 0;
  const instruments = options.instruments ?? [anInstrument(BTC), anInstrument(ETH)];
  const cash = D(options.cash ?? 10_000);
  const balances = {
    USDT: cash,
    ...Object.fromEntries(Object.entries(options.holdings ?? {}).map(([c, q]) => [c, D(q)])),
  };
  const latency =
    options.latencyMs === undefined
      ? ZERO_LATENCY
      : { ...ZERO_LATENCY, orderEntry: { fixedMs: options.latencyMs, jitterMs: 0 } };
  const sim = createSimVenue({
    instruments,
    startingBalances: balances,
    random: seededRandom(7),
    latency,
    fillModel: options.fillModel ?? 'touch',
    startTime: start,
    ...options.sim,
  });
  const userEvents: UserEvent[] = [];
  sim.events.subscribe((event) => userEvents.push(event));
  const sent: Intent[] = [];
  const execution: ExecutionPort = {
    events: sim.events,
    submit: (command) => {
      sent.push(command.intent);
      sim.submit(command);
    },
    lookupOrder: (sym, ref) => sim.lookupOrder(sym, ref),
    snapshot: () => sim.snapshot(),
  };
  const portfolio = new Portfolio({
    instrument: instrumentLookup(...instruments),
    initialCash: balances,
  });
  const scheduler = virtualScheduler(start);
  const market = new Subject<MarketEvent>();
  const kernel = new Kernel({
    instruments,
    market,
    execution,
    gate: new RiskGate(options.risk ?? {}),
    scheduler,
    strategies,
    portfolio,
    ...(options.venueStatus === undefined ? {} : { venueStatus: options.venueStatus }),
  });
  const denials: IntentDenied[] = [];
  const faults: string[] = [];
  kernel.denials.subscribe((d) => denials.push(d));
  kernel.faults.subscribe((f) => faults.push(`${f.strategyId}:${f.where}:${String(f.error)}`));
  const snapshot = await sim.snapshot();
  for (const asset of snapshot.assets) kernel.push({ kind: 'asset', ts: start, recvTs: start, asset });
  if (snapshot.account !== undefined)
    kernel.push({ kind: 'account', ts: start, recvTs: start, account: snapshot.account });
  void kernel.start();

  const flush = (): void => sim.advanceTo(scheduler.clock.now());
  return {
    kernel,
    sim,
    scheduler,
    portfolio,
    sent,
    userEvents,
    denials,
    faults,
    push: (...events) => {
      for (const event of events) {
        sim.onMarket(event);
        market.next(event);
        flush();
      }
    },
    advance: (ts) => {
      sim.advanceTo(ts);
      kernel.advanceTime(ts);
      flush();
    },
    stop: () => {
      kernel.stop();
      flush();
    },
    sentOf: <K extends Intent['kind']>(kind: K) =>
      sent.filter((i): i is Extract<Intent, { kind: K }> => i.kind === kind),
    eventsOf: <K extends UserEvent['kind']>(kind: K) =>
      userEvents.filter((e): e is Extract<UserEvent, { kind: K }> => e.kind === kind),
    venueOrders: async (sym) =>
      (await sim.snapshot()).openOrders.filter((o) => sym === undefined || o.sym === sym),
    venueQty: async (sym = BTC) =>
      (await sim.snapshot()).positions.find((p) => p.sym === sym)?.positionQty ?? D(0),
  };
}

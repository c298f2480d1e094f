import type {
  AlgoOrderUpdateEvent,
  CommandRejectedEvent,
  KeelEvent,
  OrderUpdateEvent,
  Position,
  UserEvent,
} from '../model/index.ts';
import type { AlgoChildGivenUp } from './algo-children-given-up.ts';
import { EquityObservations } from './equity-observations.ts';
import type { FillGivenUp } from './fill-given-up.ts';
import type { InFlightAlgoOrders } from './in-flight-algo-orders.ts';
import { IntentPipeline } from './intent-pipeline.ts';
import type { KernelOptions } from './kernel-options.ts';
import type { KernelState } from './kernel-state.ts';
import { lookUpOrders } from './order-lookups.ts';
import type { IntentDenied } from './strategy-events.ts';
import type { StrategyRunner } from './strategy-runner.ts';
import type { TrailingStop } from './trailing-stop.ts';
import { TrailingStopEmulator } from './trailing-stop-emulator.ts';
import { UserDataRouting } from './user-data-routing.ts';
import type { VenueConnectivity } from './venue-connectivity.ts';

/** What the kernel's intent and User Data paths report back to it. */
export interface KernelPathHost {
  readonly state: KernelState;
  readonly runners: readonly StrategyRunner[];
  /** Delivers a denial to its strategy. */
  readonly deny: (runner: StrategyRunner, denial: IntentDenied) => void;
  /** Reports a denial for the run's outputs without delivering it (a refusal after stop). */
  readonly recordDenial: (denial: IntentDenied) => void;
  /** Hands an event (a look-up's answer) to the kernel. */
  readonly push: (event: KeelEvent) => void;
  /** Tells a strategy (and the run's outputs) that one of its emulated trailing stops changed status. */
  readonly trailingStopChanged: (runner: StrategyRunner, stop: TrailingStop) => void;
  /** The venue's stream states, which gate new orders and modifies. */
  readonly connectivity: VenueConnectivity;
  /** While warming up, the reason every intent is denied; undefined when trading. */
  readonly warmingUp: () => string | undefined;
  /** The number of the kernel's job being handled, stamped on each command sent (`hookCall`). */
  readonly hookCall: () => number;
  /** Told of every command the venue refused, once its sender was told. */
  readonly refusedCommand: (event: CommandRejectedEvent) => void;
  /** Told of every User Data event the strategies are running for, before it is folded. */
  readonly venueSaid: (event: UserEvent) => void;
  /** Told of every order given up waiting for the algo order it names. */
  readonly algoChildGivenUp: (report: AlgoChildGivenUp) => void;
  /** Told of every fill given up waiting for its order's first update. */
  readonly fillGivenUp: (report: FillGivenUp) => void;
  /** Asks for one of the kernel's own timers at `at` (the run's time, epoch ms). */
  readonly wakeAt: (at: number) => void;
  /** Told of every order update and algo order report folded, before any strategy hears of it. */
  readonly orderFolded: (event: OrderUpdateEvent | AlgoOrderUpdateEvent) => void;
  /** Told of every position update folded, before any strategy hears of it. */
  readonly positionFolded: (position: Position) => void;
}

/** The kernel's two ways to the venue and back: intents out, User Data in, and look-ups. */
export interface KernelPaths {
  readonly pipeline: IntentPipeline;
  readonly userRouting: UserDataRouting;
  /** The trailing stops the kernel emulates (market routing feeds it, the pipeline fills it). */
  readonly emulator: TrailingStopEmulator<StrategyRunner>;
  /** The algo orders sent and not answered yet (the pipeline records them, User Data ends them). */
  readonly algosInFlight: InFlightAlgoOrders;
  /** Shows equity to the gate's kill switch (User Data after money moved, market data throttled). */
  readonly equity: EquityObservations;
}

/**
 * Builds the intent pipeline and the User Data routing around the state's books of what is in
 * flight (the risk gate reads them too): modify and cancel requests (so a refusal finds its
 * sender and undoes PENDING_*), algo orders (so a cancel-all spares another strategy's unanswered
 * one), position closes (so the order a close makes is its sender's); the look-ups of
 * orders whose request got no answer, and the trailing stop emulator, whose triggered orders
 * go out through the pipeline.
 * @param options - the kernel's options (gate, execution port)
 * @param host - the kernel's state, strategies and callbacks
 * @returns the paths
 */
export function kernelPaths(options: KernelOptions, host: KernelPathHost): KernelPaths {
  const { state, runners, deny, push, connectivity, warmingUp, hookCall } = host;
  const { requests, algosInFlight, closes } = state;
  const lookUp = (orders: Parameters<typeof lookUpOrders>[1]) =>
    lookUpOrders(options.execution, orders, { now: () => state.now(), push });
  const equity = new EquityObservations(state, options.gate);
  const emulator: TrailingStopEmulator<StrategyRunner> = new TrailingStopEmulator(
    state,
    {
      release: (runner, intent, heldSince) => pipeline.release(runner, intent, heldSince),
      changed: host.trailingStopChanged,
    },
    options.barReactionMs,
  );
  state.countTrailingStopsWith((strategyId) => emulator.count(strategyId));
  const pipeline = new IntentPipeline(
    state,
    options.gate,
    options.execution,
    runners,
    deny,
    requests,
    algosInFlight,
    closes,
    emulator,
    connectivity,
    warmingUp,
    hookCall,
  );
  return {
    pipeline,
    userRouting: new UserDataRouting(
      state,
      runners,
      equity,
      deny,
      host.recordDenial,
      requests,
      algosInFlight,
      closes,
      lookUp,
      {
        refusedCommand: host.refusedCommand,
        venueSaid: host.venueSaid,
        algoChildGivenUp: host.algoChildGivenUp,
        fillGivenUp: host.fillGivenUp,
        wakeAt: host.wakeAt,
        orderFolded: host.orderFolded,
        positionFolded: host.positionFolded,
      },
    ),
    emulator,
    algosInFlight,
    equity,
  };
}

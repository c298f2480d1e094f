import type { Logger } from 'pino';
import type { KillSwitchTrips } from '../../backtest/runner/index.ts';
import {
  cancelStrategyOrders,
  type Kernel,
  type SweepScope,
  sweepWhileHalted,
  sweepWhileReducing,
} from '../../core/kernel/index.ts';
import type { RiskGate, TradingStatus } from '../../core/risk/index.ts';
import type { KeelConfig } from '../schema/index.ts';
import { keelStateDir } from './keel-state-dir.ts';
import { accountKillSwitchFileOf, accountOf, resultKillSwitchFileOf } from './kill-switch-file.ts';
import { watchKillSwitch } from './kill-switch-watch.ts';
import type { RunMetrics } from './run-metrics.ts';
import { reportPathsOf } from './run-outputs.ts';

/** What a live or paper session's guards watch and act through. */
export interface SessionGuardsOptions {
  readonly config: KeelConfig;
  readonly mode: 'live' | 'paper';
  readonly venue: { readonly restUrl: string; readonly apiKey: string };
  /** The session's risk gate itself (its kill switch is read and restored). */
  readonly riskGate: RiskGate;
  readonly kernel: Kernel;
  /** The session's kill switch trips, told what each trip's sweep cancelled (for its warning). */
  readonly trips: KillSwitchTrips;
  readonly metrics: RunMetrics;
  readonly logger: Logger;
}

/** The running guards of a session. */
export interface SessionGuards {
  /** Call once the strategies have started: a kill switch still HALTED from the earlier run pulls their orders. */
  started(): void;
  /** @returns the portfolio's trading state for the status line, when not ACTIVE */
  trading(): string | undefined;
  /**
   * Stops the periodic save and saves the kill switch's state a last time.
   * @returns the result's warnings: orders a sweep could not cancel, the kill switch's state
   *   could not be saved
   */
  stop(): string[];
}

/** What a sweep's warning calls the orders it cancels, by scope. */
const SWEPT_ORDERS: Readonly<Record<SweepScope, string>> = {
  all: 'resting order(s)',
  riskAdding: 'resting order(s) that would add risk',
  unprotective: 'resting order(s) that do not protect an open position',
};

/** How often the kill switch's state is saved besides at a trip and at stop (Keel's choice). */
const SAVE_EVERY_MS = 5_000;

/**
 * What keeps a live or paper session safe when a strategy stops being managed: the kill switch's
 * day baseline and trip kept across restarts and shared by the runs on one account (live runs:
 * one file per venue address and API key in Keel's state directory, see `keelStateDir`), a trip
 * logged at error, counted in `keel_kill_switch_trips_total`, failing
 * the metrics endpoint's `/readyz` while in force (a restored one too) and, on
 * HALTED, the strategies' resting orders cancelled but the protective ones of open positions (as
 * on a fault), and those that become known while it lasts
 * (see `sweepWhileHalted`), on REDUCING those that would add risk, and those that no longer reduce
 * a position once it changed (see `sweepWhileReducing`)
 * (`risk.killSwitch.cancelOrdersOnHalt`); a
 * strategy halted by a fault counted in `keel_strategy_faults_total` and its resting orders
 * cancelled but the protective ones of its open positions, such as a stop-loss
 * (`risk.cancelOrdersOnFault`). A sweep's cancel the venue refuses is sent again (see
 * the kernel's `SweepRetries`); orders it still could not cancel are logged at warn and named in
 * the result's warnings.
 * @param options - config, gate, kernel, kill switch trips, metrics and logger
 * @returns the guards
 */
export function sessionGuards(options: SessionGuardsOptions): SessionGuards {
  const { config, kernel, logger } = options;
  const strategyIds = config.strategies.map((s) => s.id);
  let sweeps = 0;
  const told = (ids: readonly string[], n: number, why: string, scope: SweepScope): void => {
    if (n > 0)
      logger.warn(
        { strategies: ids, orders: n },
        `${why}: cancelling ${n} ${SWEPT_ORDERS[scope]} of ${ids.join(', ')}`,
      );
  };
  const pull = (ids: readonly string[], tag: string, why: string, scope: SweepScope = 'all'): number => {
    const n = cancelStrategyOrders(kernel, ids, `${tag}${++sweeps}`, scope);
    told(ids, n, why, scope);
    return n;
  };
  const sweepsKeptUp: (() => void)[] = [];
  const halt = (trip: TradingStatus): void => {
    let before = 0;
    let keptBefore = 0;
    const stop = sweepWhileHalted(
      kernel,
      options.riskGate,
      strategyIds,
      `keel-halt-${++sweeps}`,
      (n, kept) => {
        const why =
          before === 0
            ? 'kill switch HALTED trading'
            : 'kill switch HALTED trading, and orders sent before it became known since';
        told(strategyIds, n - before, why, 'unprotective');
        const newlyKept = kept.slice(keptBefore);
        if (newlyKept.length > 0)
          logger.warn(
            { strategies: strategyIds, kept: newlyKept },
            `kill switch HALTED trading: keeping ${newlyKept.length} protective order(s) of open positions: ${newlyKept.join(', ')}`,
          );
        before = n;
        keptBefore = kept.length;
        options.trips.swept(trip, n, kept);
      },
    );
    sweepsKeptUp.push(stop);
  };
  const reduce = (trip: TradingStatus): void => {
    let before = 0;
    const stop = sweepWhileReducing(kernel, options.riskGate, strategyIds, `keel-reduce-${++sweeps}`, (n) => {
      const why =
        before === 0
          ? 'kill switch set trading to REDUCING'
          : 'kill switch set trading to REDUCING, and a position changed since';
      told(strategyIds, n - before, why, 'riskAdding');
      before = n;
      options.trips.swept(trip, n);
    });
    sweepsKeptUp.push(stop);
  };
  const armed =
    config.risk.killSwitch.dailyLossLimit !== undefined || config.risk.killSwitch.maxDrawdown !== undefined;
  const account = accountOf(options.venue.restUrl, options.venue.apiKey);
  const watch = watchKillSwitch({
    gate: options.riskGate,
    // A paper session's embedded venue is an account of its own process, gone when it ends.
    ...(armed && options.mode === 'live'
      ? {
          path: accountKillSwitchFileOf(keelStateDir(), account),
          formerPath: resultKillSwitchFileOf(reportPathsOf(config).json),
        }
      : {}),
    account,
    run: config.name ?? reportPathsOf(config).json,
    logger,
    now: () => kernel.state.now(),
    countTrip: (state) => options.metrics.killSwitchTrips.inc({ state }),
    ...(config.risk.killSwitch.cancelOrdersOnHalt
      ? {
          onHalted: halt,
          onReducing: reduce,
        }
      : {}),
  });
  // A sweep's cancel the venue refused every time: the order works on with nobody managing it.
  const unswept: string[] = [];
  kernel.sweepFailures.subscribe((failure) => {
    logger.warn(
      { strategy: failure.strategyId, orders: failure.targets, code: failure.code },
      failure.reason,
    );
    unswept.push(failure.reason);
  });
  options.metrics.watchStrategies(strategyIds);
  kernel.faults.subscribe((fault) => {
    options.metrics.strategyFaults.inc({ strategy: fault.strategyId });
    if (config.risk.cancelOrdersOnFault)
      queueMicrotask(() =>
        pull(
          [fault.strategyId],
          'keel-fault-',
          `strategy ${fault.strategyId} was halted by a fault`,
          'unprotective',
        ),
      );
  });
  // A tripped session runs on but no longer trades as configured: a supervisor's readiness probe says so.
  options.metrics.notReadyWhile(() => killSwitchProblem(watch.trip()));
  const timer = armed ? setInterval(() => watch.save(), SAVE_EVERY_MS) : undefined;
  timer?.unref();
  return {
    started: () => watch.started(),
    trading: () => {
      const status = options.riskGate.status();
      return status.state === 'ACTIVE' ? undefined : status.state;
    },
    stop: () => {
      if (timer !== undefined) clearInterval(timer);
      for (const stopSweep of sweepsKeptUp) stopSweep();
      watch.save();
      const unsaved = watch.unsaved();
      return [...unswept, ...(unsaved === undefined ? [] : [unsaved])];
    },
  };
}

/**
 * What `/readyz` says while the kill switch's trip is in force.
 * @param trip - the trip in force, if any
 * @returns e.g. `the kill switch tripped: trading is HALTED (daily loss 12 reached the limit 10)`;
 *   undefined without a trip
 */
function killSwitchProblem(trip: TradingStatus | undefined): string | undefined {
  if (trip === undefined) return undefined;
  const why = trip.reason === undefined ? '' : ` (${trip.reason.replace(/^kill switch: /, '')})`;
  return `the kill switch tripped: trading is ${trip.state}${why}`;
}

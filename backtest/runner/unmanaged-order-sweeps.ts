import {
  cancelStrategyOrders,
  type Kernel,
  type SweepScope,
  sweepWhileHalted,
  sweepWhileReducing,
} from '../../core/kernel/index.ts';
import type { BacktestRunOptions } from './backtest-run-options.ts';
import type { KillSwitchTrips } from './kill-switch-trips.ts';

/**
 * Cancels what strategies leave working once nobody manages it, as a live or paper session's
 * guards do (`config/compose/session-guards.ts`), so the backtest of a session's recording gives
 * the session's fills: a strategy halted by a fault has its resting orders and algo orders
 * cancelled but the protective ones of its open positions, such as a stop-loss
 * (`cancelOrdersOnFault`, the `unprotective` scope of `cancelStrategyOrders`), and every
 * strategy's, by the same rule, when the gate's kill switch trips to HALTED, or those that would
 * add risk when it trips to REDUCING (`cancelOrdersOnHalt`), how many (and on HALTED which
 * protective orders were kept) noted in the trip's warning; after a trip to HALTED, those that
 * become known while it lasts too (see `sweepWhileHalted`); after a trip to REDUCING, those that
 * no longer reduce a position once it shrank, went flat or flipped (see `sweepWhileReducing`). The cancels go
 * at once, at the run's time, through the kernel (the gate, Keel's in-flight bookkeeping) and the
 * venue's latency like every command.
 * @param kernel - the run's kernel
 * @param options - the run's options: gate, strategies and the two switches (default on)
 * @param trips - the run's kill switch trips, told what each trip's sweep cancelled
 * @returns stops listening to the gate's kill switch and ends the sweeps kept up (the run ended)
 */
export function sweepUnmanagedOrders(
  kernel: Kernel,
  options: Pick<BacktestRunOptions, 'gate' | 'strategies' | 'cancelOrdersOnFault' | 'cancelOrdersOnHalt'>,
  trips: KillSwitchTrips,
): () => void {
  let sweeps = 0;
  const sweep = (ids: readonly string[], tag: string, scope: SweepScope = 'all'): number =>
    cancelStrategyOrders(kernel, ids, `${tag}${++sweeps}`, scope);
  if (options.cancelOrdersOnFault ?? true)
    kernel.faults.subscribe((fault) => {
      sweep([fault.strategyId], 'keel-fault-', 'unprotective');
    });
  if (!(options.cancelOrdersOnHalt ?? true)) return () => undefined;
  const ids = options.strategies.map((slot) => slot.id);
  const kept: (() => void)[] = [];
  const stopListening =
    options.gate.onKillSwitchTrip?.((trip) => {
      if (trip.state === 'HALTED')
        kept.push(
          sweepWhileHalted(kernel, options.gate, ids, `keel-halt-${++sweeps}`, (n, kept) =>
            trips.swept(trip, n, kept),
          ),
        );
      else if (trip.state === 'REDUCING')
        kept.push(
          sweepWhileReducing(kernel, options.gate, ids, `keel-reduce-${++sweeps}`, (n) =>
            trips.swept(trip, n),
          ),
        );
    }) ?? (() => undefined);
  return () => {
    stopListening();
    for (const stop of kept) stop();
  };
}

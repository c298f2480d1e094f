import type { Logger } from 'pino';
import {
  formatStrategyFault,
  formatStrategyRejection,
  type StrategyFaultRecord,
  strategyFaultRecord,
} from '../../backtest/report/index.ts';
import type { Kernel } from '../../core/kernel/index.ts';

/**
 * Logs a live or paper session's strategy faults and keeps them for its result, stamped with the
 * session clock; the user's own errors behind async hooks' faults are logged too.
 * @param kernel - the session's kernel, before it starts
 * @param logger - where faults and rejections are logged
 * @param sessionClock - the session's clock, which stamps each fault
 * @returns the fault records, filled as faults happen
 */
export function recordStrategyFaults(
  kernel: Kernel,
  logger: Logger,
  sessionClock: () => number,
): readonly StrategyFaultRecord[] {
  const faults: StrategyFaultRecord[] = [];
  kernel.faults.subscribe((fault) => {
    // The session's clock is the paper venue's event time (wall time live); it reads 0 before the first event.
    const now = sessionClock();
    const record = { ...strategyFaultRecord(fault), ...(now > 0 ? { ts: now } : {}) };
    faults.push(record);
    logger.error({ fault: record }, formatStrategyFault(record));
  });
  // The user's own error behind an async hook's fault; logged only, as it comes untimed.
  kernel.rejections.subscribe((rejection) =>
    logger.error(
      { rejection: { strategyId: rejection.strategyId, where: rejection.where } },
      formatStrategyRejection(rejection),
    ),
  );
  return faults;
}

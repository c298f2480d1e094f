import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StrategyFault } from '../../../core/kernel/index.ts';
import { formatTime } from '../html/format-values.ts';
import type { StrategyFaultRecord } from './backtest-result.ts';

/** Keel's own folders: a stack frame in one of them is the framework's, not the user's. */
const KEEL_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const KEEL_FOLDERS = ['core', 'backtest', 'config', 'bin'].map((folder) => `${KEEL_ROOT}${folder}${sep}`);
const FRAME = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?$/;

function isKeelOwn(file: string): boolean {
  return (
    file.startsWith('node:') ||
    file.includes(`${sep}node_modules${sep}`) ||
    KEEL_FOLDERS.some((folder) => file.startsWith(folder))
  );
}

/**
 * The first frame of a stack that lies outside Keel's own code and node's: where the user's
 * plugin was when it threw (or made Keel throw, e.g. an order with a NaN quantity).
 * @param stack - an Error's `stack`
 * @returns `path:line:column`, or undefined when no frame qualifies
 */
export function userFrameOf(stack: string | undefined): string | undefined {
  for (const line of (stack ?? '').split('\n')) {
    if (!line.trimStart().startsWith('at ')) continue;
    const match = FRAME.exec(line.trim());
    if (match === null) continue;
    const [, location, row, column] = match as unknown as [string, string, string, string];
    const file = location.startsWith('file://') ? fileURLToPath(location) : location;
    if (!isKeelOwn(file)) return `${file}:${row}:${column}`;
  }
  return undefined;
}

/**
 * The record of a kernel fault for results and reports: the error reduced to text and the
 * user's stack frame, so it serializes deterministically (no wall time in it).
 * @param fault - the kernel's fault
 * @returns the record
 */
export function strategyFaultRecord(fault: StrategyFault): StrategyFaultRecord {
  const error = fault.error;
  const text = error instanceof Error ? `${error.name}: ${error.message}` : `thrown value ${String(error)}`;
  const at = error instanceof Error ? userFrameOf(error.stack) : undefined;
  return {
    strategyId: fault.strategyId,
    hook: fault.where,
    ts: fault.ts,
    error: text,
    ...(at === undefined ? {} : { at }),
  };
}

/**
 * One line saying what a fault did, for the CLI and the report.
 * @param fault - the record
 * @returns e.g. `strategy bad halted: onBar threw at 2024-01-01 01:00:00 UTC: Error: boom (at /my/strat.ts:17:38); it did nothing more in this run`
 */
export function formatStrategyFault(fault: StrategyFaultRecord): string {
  const where = fault.at === undefined ? '' : ` (at ${fault.at})`;
  const who = fault.strategyId === 'kernel' ? 'the kernel' : `strategy ${fault.strategyId}`;
  const after = fault.strategyId === 'kernel' ? '' : '; it was halted and did nothing more in this run';
  return `${who}: ${fault.hook} threw at ${formatTime(fault.ts)}: ${fault.error}${where}${after}`;
}

import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StrategyFault, StrategyRejection } from '../../../core/kernel/index.ts';
import { formatTime } from '../html/format-values.ts';
import type { StrategyFaultRecord } from './backtest-result.ts';
import { shownPath } from './shown-path.ts';

/** Keel's own folders: a stack frame in one of them is the framework's, not the user's. */
const KEEL_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const KEEL_FOLDERS = ['core', 'backtest', 'config', 'bin'].map((folder) => `${KEEL_ROOT}${folder}${sep}`);
/** A frame's location: `path:line:column`, the path possibly holding spaces and colons. */
const LOCATION = /^(.+):(\d+):(\d+)$/;

/**
 * The location text of a V8 stack line: inside the parentheses of `at fn (location)` (from the
 * first ` (`, as function names hold none but paths may), else all after `at ` (and `async `).
 */
function locationText(line: string): string {
  const after = line.slice('at '.length);
  // `at async file:///…:12:7`: an anonymous async frame names no function, only its location.
  const body = after.startsWith('async ') && !after.endsWith(')') ? after.slice('async '.length) : after;
  if (!body.endsWith(')')) return body;
  const open = body.indexOf(' (');
  return open < 0 ? body : body.slice(open + 2, -1);
}

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
 * @param cwd - the working directory the path is shown relative to (see {@link shownPath})
 * @param isUsers - which files are the user's (default: all but Keel's own and node's); a plugin
 *   that failed to load looks in its own folder, which may lie inside Keel's (`config/examples`)
 * @returns `path:line:column`, the path relative to `cwd` when the file lies under it (so a
 *   result's bytes do not depend on where the project is checked out), or undefined when no
 *   frame qualifies
 */
export function userFrameOf(
  stack: string | undefined,
  cwd: string = process.cwd(),
  isUsers: (file: string) => boolean = (file) => !isKeelOwn(file),
): string | undefined {
  for (const line of (stack ?? '').split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('at ')) continue;
    const match = LOCATION.exec(locationText(trimmed));
    if (match === null) continue;
    const [, location, row, column] = match as unknown as [string, string, string, string];
    const file = location.startsWith('file://') ? fileURLToPath(location) : location;
    if (isUsers(file)) return `${file.startsWith('node:') ? file : shownPath(file, cwd)}:${row}:${column}`;
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
    ...(fault.how === undefined ? {} : { how: fault.how }),
    ...(at !== undefined || fault.source === undefined ? {} : { file: shownPath(fault.source) }),
  };
}

/** An error's text on one line (its line breaks as ` / `), so a summary line stays one line. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' / ');
}

/** ` (at path:line:column)`, else ` (in path)`, else nothing. */
function placeOf(at: string | undefined, file: string | undefined): string {
  if (at !== undefined) return ` (at ${at})`;
  return file === undefined ? '' : ` (in ${file})`;
}

/**
 * One line saying what a fault did, for the CLI and the report: the hook `threw`, or `returned a
 * bad value` (the setup stream `emitted` one) when it gave the kernel something that is not intents.
 * @param fault - the record
 * @returns e.g. `strategy bad: onBar threw at 2024-01-01 01:00:00 UTC: Error: boom (at /my/strat.ts:17:38); it was halted and did nothing more in this run`,
 *   or `strategy bad: onBar returned a bad value at ...: TypeError: onBar returned an array whose element 0 is undefined, ... (in /my/strat.ts); ...`
 */
export function formatStrategyFault(fault: StrategyFaultRecord): string {
  const who = fault.strategyId === 'kernel' ? 'the kernel' : `strategy ${fault.strategyId}`;
  const what = fault.how === undefined ? 'threw' : `${fault.how} a bad value`;
  const after = fault.strategyId === 'kernel' ? '' : '; it was halted and did nothing more in this run';
  return `${who}: ${fault.hook} ${what} at ${formatTime(fault.ts)}: ${oneLine(fault.error)}${placeOf(fault.at, fault.file)}${after}`;
}

/**
 * One line for a log or console saying what a halted strategy's unawaited Promise rejected with:
 * the user's own error, which the fault ("returned a Promise") cannot show. Not for result files:
 * when it comes is not fixed by the run's events.
 * @param rejection - the kernel's report
 * @returns e.g. `strategy bad: the Promise its onBar returned rejected with Error: boom (at /my/strat.ts:12:11); hooks must be synchronous, so Keel did not wait for it`
 */
export function formatStrategyRejection(rejection: StrategyRejection): string {
  const reason = rejection.reason;
  const text = reason instanceof Error ? `${reason.name}: ${reason.message}` : `the value ${String(reason)}`;
  const at = reason instanceof Error ? userFrameOf(reason.stack) : undefined;
  const file = rejection.source === undefined ? undefined : shownPath(rejection.source);
  return `strategy ${rejection.strategyId}: the Promise its ${rejection.where} returned rejected with ${oneLine(text)}${placeOf(at, file)}; hooks must be synchronous, so Keel did not wait for it`;
}

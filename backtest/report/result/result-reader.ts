import { closeSync, openSync, readSync } from 'node:fs';
import { readLines } from '../log/line-reader.ts';
import type { RecordCodec } from '../log/record-log.ts';
import { SpillDirectory } from '../log/spill-directory.ts';
import { SpillLog } from '../log/spill-log.ts';
import type { BacktestResult } from './backtest-result.ts';
import {
  ALGO_ORDER_CODEC,
  DENIAL_CODEC,
  EXECUTION_CODEC,
  ORDER_CODEC,
  ROUND_TRIP_CODEC,
} from './record-codecs.ts';
import { backtestResultOf } from './result-schema.ts';

/** The arrays of a result file that can be long, and how their records read. */
const LOGGED: Readonly<Record<string, RecordCodec<unknown>>> = {
  orders: ORDER_CODEC as RecordCodec<unknown>,
  fills: EXECUTION_CODEC as RecordCodec<unknown>,
  trades: ROUND_TRIP_CODEC as RecordCodec<unknown>,
  algoOrders: ALGO_ORDER_CODEC as RecordCodec<unknown>,
  denials: DENIAL_CODEC as RecordCodec<unknown>,
};

/** A line of the layout did not come: not Keel's own layout (a hand-edited or reformatted file). */
class LayoutMismatch extends Error {}

/** How a file in Keel's layout begins: its opening brace alone on the first line. */
const KEEL_LAYOUT_OPENING = '{\n';

/**
 * Whether a file begins as Keel's layout does, read from its first bytes alone: a file a tool
 * rewrote compact is one long line, which the line reader would gather whole before finding it
 * is not the layout (past Node's longest string, it could not).
 * @param path - the result file
 * @returns true when the file opens with `{` on a line of its own
 */
export function opensInKeelLayout(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(KEEL_LAYOUT_OPENING.length);
    const read = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, read).toString('utf8') === KEEL_LAYOUT_OPENING;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a result file in Keel's own layout (see `stableJson`: one top-level key per line, each
 * record of a long array on a line of its own) line by line: the orders, fills and trades (and
 * the algo orders and denials, when the file has them) go, each checked against the result
 * schema, into spill logs in a temporary directory (removed by the result's `dispose` or at
 * exit); the rest (meta, metrics, equity curve, prices, open trades: bounded in size) is parsed and checked as one small document. Memory stays bounded
 * however many records the file holds.
 * @param path - the result file
 * @returns the result, or undefined when the file is not in Keel's layout (the caller then
 *   parses it whole)
 * @throws Error naming the file and the record and field when a record or the rest is not valid
 */
export function readResultStreaming(path: string): BacktestResult | undefined {
  if (!opensInKeelLayout(path)) return undefined;
  const dir = new SpillDirectory('keel-result-');
  try {
    const logs = new Map<string, SpillLog<unknown>>();
    const rest: string[] = [];
    const lines = readLines(path);
    const next = (): string => {
      const step = lines.next();
      if (step.done === true) throw new LayoutMismatch('the file ends early');
      return step.value;
    };
    if (next() !== '{') throw new LayoutMismatch('no opening brace on the first line');
    for (let line = next(); line !== '}'; line = next()) {
      const key = /^ {2}"([A-Za-z]+)": (.*?),?$/.exec(line);
      if (key === null) throw new LayoutMismatch(`unexpected line: ${line.slice(0, 60)}`);
      const [, name, value] = key as unknown as [string, string, string];
      const codec = LOGGED[name];
      if (codec !== undefined && value === '[') {
        const log = new SpillLog(dir, name, codec);
        for (let item = next(); !/^ {2}\],?$/.test(item); item = next()) {
          const text = item.endsWith(',') ? item.slice(0, -1) : item;
          log.append(codec.decode(text.trimStart(), `${name}[${log.length}]`));
        }
        logs.set(name, log.seal());
        rest.push(`${JSON.stringify(name)}: []`);
      } else if (value === '[' || value === '{') {
        const close = value === '[' ? /^ {2}\],?$/ : /^ {2}\},?$/;
        const body: string[] = [value];
        for (let item = next(); !close.test(item); item = next()) body.push(item);
        body.push(value === '[' ? ']' : '}');
        rest.push(`${JSON.stringify(name)}: ${body.join('\n')}`);
      } else {
        rest.push(`${JSON.stringify(name)}: ${value}`);
        if (codec !== undefined) logs.set(name, new SpillLog(dir, name, codec).seal());
      }
    }
    const parsed = backtestResultOf(JSON.parse(`{${rest.join(',\n')}}`), path);
    const log = (name: string) =>
      logs.get(name) ?? new SpillLog(dir, name, LOGGED[name] as RecordCodec<unknown>).seal();
    return {
      ...parsed,
      orders: log('orders') as BacktestResult['orders'],
      fills: log('fills') as BacktestResult['fills'],
      trades: log('trades') as BacktestResult['trades'],
      // Only when the file has them: a file written before Keel recorded them reads as it was.
      ...(logs.has('algoOrders')
        ? { algoOrders: logs.get('algoOrders') as BacktestResult['algoOrders'] }
        : {}),
      ...(logs.has('denials') ? { denials: logs.get('denials') as BacktestResult['denials'] } : {}),
      dispose: () => dir.dispose(),
    };
  } catch (error) {
    dir.dispose();
    if (error instanceof LayoutMismatch || error instanceof SyntaxError) return undefined;
    if (error instanceof Error && !error.message.startsWith(path))
      throw new Error(`${path} is not a Keel backtest result: ${error.message}`, { cause: error });
    throw error;
  }
}

import type { Logger } from 'pino';
import type { Dec } from '../../core/model/index.ts';

/** The figures a live or paper run shows while it runs. */
export interface RunStatus {
  readonly mode: 'live' | 'paper';
  readonly elapsedMs: number;
  readonly events: number;
  readonly intents: number;
  readonly fills: number;
  readonly equity: Dec;
  readonly pnl: Dec;
  readonly settleAsset: string;
  /** The venue's streams not ready (`market down`, `private not reconciled`), shown before the trading state. */
  readonly streams?: readonly string[];
  /** The portfolio's trading state when not ACTIVE (a kill switch trip), shown last. */
  readonly trading?: string;
}

/**
 * One line of run status: `paper 12s | events 5321 | intents 88 | fills 14 | equity 100012.3 USDT | PnL +12.3`,
 * then `streams market down` while a venue stream is not ready and `trading HALTED` while tripped.
 * @param status - the figures
 * @returns the line, without newline
 */
export function formatStatus(status: RunStatus): string {
  const pnl = status.pnl.toDecimalPlaces(2).toFixed(2);
  return [
    `${status.mode} ${Math.round(status.elapsedMs / 1000)}s`,
    `events ${status.events}`,
    `intents ${status.intents}`,
    `fills ${status.fills}`,
    `equity ${status.equity.toDecimalPlaces(2).toFixed(2)} ${status.settleAsset}`,
    `PnL ${status.pnl.gte(0) ? '+' : ''}${pnl}`,
    ...(status.streams === undefined || status.streams.length === 0
      ? []
      : [`streams ${status.streams.join(', ')}`]),
    ...(status.trading === undefined ? [] : [`trading ${status.trading}`]),
  ].join(' | ');
}

/** Where the status goes: rewritten in place on a terminal, a plain line now and then otherwise. */
export interface StatusSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/**
 * Shows the status line: every second in place on a TTY; otherwise every `everyMs`, as a log
 * record through `log` when one is given (so a log stream of JSON lines stays JSON), else as a
 * plain line.
 * @param sink - the stream (stderr, usually); none: nothing is shown
 * @param read - reads the current status
 * @param everyMs - interval when not a TTY (default 5000)
 * @param log - writes the status as a log record when the sink is not a TTY
 * @returns a function that stops it and ends the line
 */
export function showStatus(
  sink: StatusSink | undefined,
  read: () => RunStatus,
  everyMs = 5000,
  log?: (status: RunStatus) => void,
): () => void {
  if (sink === undefined) return () => {};
  const tty = sink.isTTY === true;
  const show = tty
    ? () => sink.write(`\r\x1b[2K${formatStatus(read())}`)
    : log === undefined
      ? () => sink.write(`${formatStatus(read())}\n`)
      : () => log(read());
  const timer = setInterval(show, tty ? 1000 : everyMs);
  return () => {
    clearInterval(timer);
    if (tty) sink.write(`\r\x1b[2K${formatStatus(read())}\n`);
  };
}

/**
 * The status as a pino record at info: `{"msg":"status","events":5321,"equity":"100012.30",...}`.
 * @param logger - the run's logger
 * @returns the `log` argument of {@link showStatus}
 */
export function statusLogTo(logger: Pick<Logger, 'info'>): (status: RunStatus) => void {
  return (status) =>
    logger.info(
      {
        mode: status.mode,
        elapsedMs: status.elapsedMs,
        events: status.events,
        intents: status.intents,
        fills: status.fills,
        equity: status.equity.toDecimalPlaces(2).toFixed(2),
        pnl: status.pnl.toDecimalPlaces(2).toFixed(2),
        settleAsset: status.settleAsset,
        ...(status.streams === undefined || status.streams.length === 0
          ? {}
          : { streamsNotReady: status.streams }),
        ...(status.trading === undefined ? {} : { trading: status.trading }),
      },
      'status',
    );
}

import type { LockstepAckExtras } from './market-feed.ts';

/**
 * The event name of a lockstep tick frame, pushed on the market-data WebSocket (Keel's
 * paper-venue extension): `{ "event": "lockstep_time", "time": ms, "tick": n, "code": 0 }`.
 */
export const LOCKSTEP_TIME_EVENT = 'lockstep_time';

/**
 * The field of a lockstep market frame (event or tick) that says how many frames the venue had
 * sent on the lockstep client's private connection since its login before it (Keel's paper-venue
 * extension): the client handles the market frame once it has received that many, so it knows
 * the fills up to the event before the event, as a backtest delivers them.
 */
export const LOCKSTEP_PRIVATE_SENT_FIELD = 'privateSent';

/**
 * The text of a lockstep tick frame: the venue moved to a client's wake-up time before its next
 * event. `code: 0` lets a client that does not know the extension take it as a control frame.
 * @param time - the venue's time, epoch ms
 * @param tick - the tick's number, acknowledged back with `tick`
 * @param privateSent - see {@link LOCKSTEP_PRIVATE_SENT_FIELD}; undefined = left out
 * @returns the JSON text
 */
export function lockstepTickFrame(time: number, tick: number, privateSent?: number): string {
  return JSON.stringify({
    event: LOCKSTEP_TIME_EVENT,
    time,
    tick,
    code: 0,
    ...(privateSent === undefined ? {} : { [LOCKSTEP_PRIVATE_SENT_FIELD]: privateSent }),
  });
}

/**
 * The extras of a lockstep ack's arguments: `wakeAt` (the client's earliest timer, epoch ms, or
 * null for none), `tick` (the last tick it handled), `settle` (the last settle round it handled,
 * see `LOCKSTEP_SETTLE_EVENT`), `restEpoch` and `restSent` (its count of state-changing REST
 * requests), `held` (true: it holds commands still to come). Malformed values are left out.
 * @param args - the ack's arguments
 * @returns the extras found
 */
export function lockstepAckExtrasOf(args: {
  readonly wakeAt?: unknown;
  readonly tick?: unknown;
  readonly settle?: unknown;
  readonly restEpoch?: unknown;
  readonly restSent?: unknown;
  readonly held?: unknown;
}): LockstepAckExtras {
  const wakeAt =
    args.wakeAt === null
      ? null
      : typeof args.wakeAt === 'number' && Number.isFinite(args.wakeAt)
        ? args.wakeAt
        : undefined;
  const tick = typeof args.tick === 'number' && Number.isSafeInteger(args.tick) ? args.tick : undefined;
  const settle =
    typeof args.settle === 'number' && Number.isSafeInteger(args.settle) && args.settle >= 0
      ? args.settle
      : undefined;
  const counted =
    typeof args.restEpoch === 'string' &&
    typeof args.restSent === 'number' &&
    Number.isSafeInteger(args.restSent) &&
    args.restSent >= 0
      ? { restEpoch: args.restEpoch, restSent: args.restSent }
      : {};
  return {
    ...(wakeAt === undefined ? {} : { wakeAt }),
    ...(tick === undefined ? {} : { tick }),
    ...(settle === undefined ? {} : { settle }),
    ...counted,
    ...(args.held === true ? { held: true } : {}),
  };
}

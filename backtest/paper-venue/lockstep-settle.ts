import { LOCKSTEP_PRIVATE_SENT_FIELD } from './lockstep-tick.ts';

/**
 * The event name of a lockstep settle frame, pushed on the market-data WebSocket (Keel's
 * paper-venue extension): `{ "event": "lockstep_settle", "round": r, "code": 0, "privateSent": m }`.
 * The venue sent the lockstep client private frames (replies, pushes) after the last lockstep
 * frame it stamped, and waits before its next event until the client handled them and sent what
 * they made it do: it acknowledges with `"settle": r`.
 */
export const LOCKSTEP_SETTLE_EVENT = 'lockstep_settle';

/**
 * The text of a lockstep settle frame. `code: 0` lets a client that does not know the extension
 * take it as a control frame.
 * @param round - the round's number, acknowledged back with `settle`
 * @param privateSent - how many frames the client's private connection was sent since its login
 *   (see {@link LOCKSTEP_PRIVATE_SENT_FIELD}); undefined = left out
 * @returns the JSON text
 */
export function lockstepSettleFrame(round: number, privateSent?: number): string {
  return JSON.stringify({
    event: LOCKSTEP_SETTLE_EVENT,
    round,
    code: 0,
    ...(privateSent === undefined ? {} : { [LOCKSTEP_PRIVATE_SENT_FIELD]: privateSent }),
  });
}

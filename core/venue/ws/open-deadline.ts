import WebSocket from 'ws';
import { VenueTimeoutError } from '../errors.ts';
import type { TimerPort } from '../timer-port.ts';

/**
 * How long a connection attempt may take to open (TCP connect and WebSocket upgrade), Keel's
 * choice: well above a slow venue's handshake, and short beside the 30 s the reconnect backoff
 * reaches.
 */
export const DEFAULT_OPEN_TIMEOUT_MS = 10_000;

/**
 * Gives a connecting WebSocket a deadline to open. Neither `ws` nor the venue bounds an upgrade
 * that is accepted and never answered, and the clients' keep-alive watchdogs and reconnect timer
 * start only once a socket opens or closes: without a deadline such an attempt waits for ever and
 * the stream stays down. At the deadline the socket is terminated, so its `close` event starts the
 * client's usual backoff reconnect. The deadline runs on the timer port (not `ws`'s own
 * `handshakeTimeout`, a real-time idle timeout of the request) so the clients' timers all share
 * one clock and a test's fake timer drives it.
 * @param socket - the socket just created, still connecting
 * @param timer - the client's timer port
 * @param timeoutMs - the deadline, ms from now
 * @param what - the attempt, as the error names it, e.g. `private WebSocket opening handshake`
 * @param onExpired - told before the socket is terminated, with the error naming the attempt (to
 *   fail a pending connect with it and log it)
 */
export function armOpenDeadline(
  socket: WebSocket,
  timer: TimerPort,
  timeoutMs: number,
  what: string,
  onExpired: (error: VenueTimeoutError) => void,
): void {
  const cancel = timer.setTimer(() => {
    if (socket.readyState !== WebSocket.CONNECTING) return;
    onExpired(new VenueTimeoutError(what, timeoutMs));
    socket.terminate();
  }, timeoutMs);
  socket.once('open', cancel);
  socket.once('close', cancel);
}

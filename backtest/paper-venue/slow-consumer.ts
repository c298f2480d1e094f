import type { WebSocket } from 'ws';

/**
 * How many bytes a connection may leave unsent before the venue closes it, Keel's choice: far
 * beyond what a reading client ever leaves (a few frames), yet a client stalled for a minute
 * against a fast replay no longer grows the venue's memory by hundreds of MB. Real venues drop
 * slow consumers the same way; the client reconnects and catches up.
 */
export const SLOW_CONSUMER_MAX_UNSENT_BYTES = 16 * 1024 * 1024;

/** The close code of a connection dropped as too slow: 1008, policy violation. */
export const SLOW_CONSUMER_CLOSE_CODE = 1008;

/**
 * Sends one frame on an open connection; one whose unsent bytes then pass
 * {@link SLOW_CONSUMER_MAX_UNSENT_BYTES} is closed with {@link SLOW_CONSUMER_CLOSE_CODE} and a
 * reason saying so (queued behind what it left unread; ws drops the socket 30 s later if it reads
 * nothing), and no more is sent to it.
 * @param ws - the connection
 * @param data - the frame
 * @param binary - whether to send it as a binary frame
 * @returns whether the frame was sent (false when the connection is not open)
 */
export function sendToReader(ws: WebSocket, data: string | Buffer, binary = false): boolean {
  if (ws.readyState !== ws.OPEN) return false;
  if (binary) ws.send(data, { binary: true });
  else ws.send(data);
  if (ws.bufferedAmount > SLOW_CONSUMER_MAX_UNSENT_BYTES)
    ws.close(
      SLOW_CONSUMER_CLOSE_CODE,
      `slow consumer: over ${SLOW_CONSUMER_MAX_UNSENT_BYTES} bytes left unread`,
    );
  return true;
}

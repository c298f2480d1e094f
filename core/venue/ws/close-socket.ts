import WebSocket from 'ws';

/**
 * Closes a WebSocket and waits for its close event, so a client's `close()` resolves only once the
 * connection is really gone. An absent or already closed socket resolves at once.
 * @param socket - the client's socket, if it has one
 * @param withinMs - how long the peer may take to answer the close; then the connection is
 *   dropped (a venue that stopped answering). Default: the WebSocket library's own 30 s.
 * @returns when the socket is closed
 */
export async function closeSocket(socket: WebSocket | undefined, withinMs?: number): Promise<void> {
  if (socket === undefined || socket.readyState === WebSocket.CLOSED) return;
  await new Promise<void>((resolve) => {
    const drop = withinMs === undefined ? undefined : setTimeout(() => socket.terminate(), withinMs);
    socket.once('close', () => {
      clearTimeout(drop);
      resolve();
    });
    socket.close();
  });
}

import WebSocket from 'ws';

/**
 * Closes a WebSocket and waits for its close event, so a client's `close()` resolves only once the
 * connection is really gone. An absent or already closed socket resolves at once.
 * @param socket - the client's socket, if it has one
 * @returns when the socket is closed
 */
export async function closeSocket(socket: WebSocket | undefined): Promise<void> {
  if (socket === undefined || socket.readyState === WebSocket.CLOSED) return;
  await new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.close();
  });
}

import { connect, createServer, type Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1, port 0, in front of one venue port, that can stop answering. */
export interface FreezableTcpProxy {
  /** The proxy's port: give it in place of the venue's in every venue URL (REST and WebSockets). */
  readonly port: number;
  /**
   * From now on nothing passes either way and the connections stay open, as with a venue process
   * that was stopped (`kill -STOP`): what is sent is never answered, a new connection is accepted
   * and never served.
   */
  freeze(): void;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a proxy piping every connection to `targetPort` on 127.0.0.1 until {@link FreezableTcpProxy.freeze}.
 * @param targetPort - the venue's port (e.g. a paper venue's, whose REST and WebSocket share one)
 * @returns the running proxy; close it after the test
 */
export async function startFreezableTcpProxy(targetPort: number): Promise<FreezableTcpProxy> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const keep = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    keep(client);
    if (frozen) return;
    const upstream = connect(targetPort, '127.0.0.1');
    keep(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    freeze() {
      frozen = true;
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
        // A side closing no longer closes the other: the venue's end stays silent and open.
        socket.removeAllListeners('close');
        socket.removeAllListeners('end');
        socket.on('close', () => sockets.delete(socket));
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

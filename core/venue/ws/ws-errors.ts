/** The private WebSocket is not logged in, so the request was not sent. */
export class NotConnectedError extends Error {
  override readonly name = 'NotConnectedError';
  /** @param what - the request that could not be sent */
  constructor(readonly what: string) {
    super(`${what} was not sent: the private WebSocket is not logged in`);
  }
}

/**
 * The connection dropped after the request was sent and before its reply came: the venue may or
 * may not have acted on it, so the caller must look it up, never re-send it blindly.
 */
export class ConnectionLostError extends Error {
  override readonly name = 'ConnectionLostError';
  /** @param what - the request whose reply was lost */
  constructor(readonly what: string) {
    super(`${what} was sent but the connection dropped before its reply`);
  }
}

/**
 * The connection closed before it opened (refused, unreachable, or its opening handshake failed),
 * so the request was never sent: there is nothing to look up, and the next connection sends it
 * again.
 */
export class ConnectionNotOpenedError extends Error {
  override readonly name = 'ConnectionNotOpenedError';
  /**
   * @param what - the request that was not sent, e.g. `private WebSocket login`
   * @param why - what closed the connection: the socket's error (`connect ECONNREFUSED
   *   127.0.0.1:9`), else its close code
   */
  constructor(
    readonly what: string,
    readonly why: string,
  ) {
    super(`${what} was not sent: the connection closed before it opened (${why})`);
  }
}

/**
 * The client was closed for good (`PrivateWsClient.close`, `MarketDataClient.close`) before
 * or while it connected: a stop that came first wins over a start still on its way, so it neither
 * opens nor logs in.
 */
export class ClientClosedError extends Error {
  override readonly name = 'ClientClosedError';
  /** @param what - the client, e.g. `private WebSocket` */
  constructor(readonly what: string) {
    super(`${what} was closed: it does not connect again`);
  }
}

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

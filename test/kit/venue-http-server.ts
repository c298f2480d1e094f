import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake venue received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** What the fake venue answers. */
export interface ScriptedReply {
  readonly status?: number;
  readonly body: unknown;
  /** Answer only after this many ms (to provoke client timeouts). */
  readonly delayMs?: number;
  /** Answer only once this settles (to hold a reply until the test has done something else). */
  readonly heldUntil?: Promise<unknown>;
  /** Drop the connection instead of answering, after reading the request (a reset). */
  readonly reset?: boolean;
  /** The `Date` header to send instead of node's (the server's clock as it says it); null: none. */
  readonly date?: string | null;
  /** More headers to send (e.g. `retry-after`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A small HTTP server on 127.0.0.1, port 0, answering from a handler and recording requests. */
export interface FakeVenueHttp {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  handler: (request: ReceivedRequest) => ScriptedReply;
  close(): Promise<void>;
}

/**
 * Starts a fake REST venue.
 * @param handler - the initial reply handler (default: success with empty data)
 * @returns the running server
 */
export async function startFakeVenueHttp(
  handler: (request: ReceivedRequest) => ScriptedReply = () => ({
    body: { code: 0, message: 'success', data: null },
  }),
): Promise<FakeVenueHttp> {
  const requests: ReceivedRequest[] = [];
  const state = { handler };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const reply = state.handler(received);
      const answer = () => {
        if (res.destroyed) return;
        if (reply.reset === true) {
          res.socket?.destroy();
          return;
        }
        res.statusCode = reply.status ?? 200;
        res.setHeader('content-type', 'application/json');
        if (reply.date === null) res.sendDate = false;
        else if (reply.date !== undefined) res.setHeader('date', reply.date);
        for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
        res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
      };
      if (reply.heldUntil !== undefined) reply.heldUntil.then(answer, answer);
      else if (reply.delayMs === undefined) answer();
      else setTimeout(answer, reply.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get handler() {
      return state.handler;
    },
    set handler(next) {
      state.handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A reply handler whose replies carry the `Date` of a clock, unless a reply sets its own: a fake
 * venue whose clock runs with the test's fake timer (as a venue's runs with the machine's), so
 * the client's estimate of it holds still while the test moves time on.
 * @param now - the venue's clock, epoch ms
 * @param handler - the handler to date
 * @returns the dated handler
 */
export function datedOn(
  now: () => number,
  handler: (request: ReceivedRequest) => ScriptedReply,
): (request: ReceivedRequest) => ScriptedReply {
  return (request) => {
    const reply = handler(request);
    return reply.date === undefined ? { ...reply, date: new Date(now()).toUTCString() } : reply;
  };
}

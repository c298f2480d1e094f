import type { AddressInfo, Socket } from 'node:net';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';

/** A request frame the fake private venue received. */
export interface ReceivedWsRequest {
  readonly action: string;
  readonly id: string;
  readonly args: Record<string, unknown>;
}

/** A small private-WebSocket venue on 127.0.0.1, port 0: login, ping/pong, scripted replies. */
export interface FakeVenueWs {
  readonly url: string;
  /** Every text frame received, in order (including login and ping). */
  readonly frames: string[];
  /** Order requests received (not login). */
  readonly requests: ReceivedWsRequest[];
  logins: number;
  /** WebSocket upgrade requests received, answered or not. */
  upgrades: number;
  /** Leaves this many of the next upgrades unanswered (TCP accepted, no 101): a hung handshake. */
  hangUpgrades: number;
  /** Answers a request; return undefined to withhold the reply. */
  onRequest: (request: ReceivedWsRequest) => object | undefined;
  /** Login reply code (0 = accept), unless `onLogin` is replaced. */
  loginCode: number;
  /** The `msg` of a refused login's reply (default ''). */
  loginMsg: string;
  /** The reply code of a login, given its args; null withholds the reply. Default: `loginCode`. */
  onLogin: (args: Record<string, unknown>) => number | null;
  /** Whether a ping is answered with a pong (default true); false makes the socket go silent. */
  answerPings: boolean;
  /** Sends a frame to every connected client. */
  push(frame: object | string): void;
  /** Drops every connection without a close handshake. */
  dropAll(): void;
  connections(): number;
  close(): Promise<void>;
}

/**
 * Starts a fake private venue.
 * @returns the running server
 */
export async function startFakeVenueWs(): Promise<FakeVenueWs> {
  const hung = new Set<Socket>();
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: (info, accept) => {
      fake.upgrades++;
      if (fake.hangUpgrades === 0) return accept(true);
      fake.hangUpgrades--;
      hung.add(info.req.socket);
    },
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const sockets = new Set<WebSocket>();
  const fake: FakeVenueWs = {
    url: `ws://127.0.0.1:${port}/v1/private`,
    frames: [],
    requests: [],
    logins: 0,
    upgrades: 0,
    hangUpgrades: 0,
    loginCode: 0,
    loginMsg: '',
    answerPings: true,
    onLogin: () => fake.loginCode,
    onRequest: (request) => ({
      event: request.action,
      id: request.id,
      code: 0,
      message: 'success',
      data: { orderId: `o-${request.id}`, clientOrderId: request.args.clientOrderId },
    }),
    push(frame) {
      const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
      for (const socket of sockets) socket.send(text);
    },
    dropAll() {
      for (const socket of sockets) socket.terminate();
    },
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.terminate();
        // A hung upgrade is not a client of the server: it would hold the close open.
        for (const socket of hung) socket.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('message', (data) => {
      const text = String(data);
      fake.frames.push(text);
      if (text === 'ping') {
        if (fake.answerPings) socket.send('pong');
        return;
      }
      const message = JSON.parse(text) as ReceivedWsRequest;
      if (message.action === 'login') {
        fake.logins++;
        const code = fake.onLogin(message.args);
        if (code === null) return;
        socket.send(
          JSON.stringify({
            id: null,
            event: 'login',
            code,
            msg: code === 0 ? '' : fake.loginMsg,
            data: null,
          }),
        );
        return;
      }
      fake.requests.push(message);
      const reply = fake.onRequest(message);
      if (reply !== undefined) socket.send(JSON.stringify(reply));
    });
  });
  return fake;
}

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { closeSocket } from '../../../../core/venue/ws/close-socket.ts';
import { type FreezableTcpProxy, startFreezableTcpProxy } from '../../../kit/freezable-tcp-proxy.ts';

let server: WebSocketServer | undefined;
let proxy: FreezableTcpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  for (const client of server?.clients ?? []) client.terminate();
  server = proxy = undefined;
});

/** A client socket open on a WebSocket server, through a proxy that can stop answering. */
async function openThroughProxy(): Promise<WebSocket> {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  proxy = await startFreezableTcpProxy((server.address() as AddressInfo).port);
  const socket = new WebSocket(`ws://127.0.0.1:${proxy.port}`);
  await once(socket, 'open');
  return socket;
}

describe('closing a venue WebSocket', () => {
  it('waits for the close handshake of a peer that answers', async () => {
    const socket = await openThroughProxy();
    let closeCode: number | undefined;
    socket.once('close', (code) => (closeCode = code));
    await closeSocket(socket, 60_000);
    expect(socket.readyState).toBe(WebSocket.CLOSED);
    // The peer's close frame came back (a dropped connection reads 1006).
    expect(closeCode).toBe(1005);
  });

  it('drops the connection of a peer that stopped answering once the time given is up', async () => {
    const socket = await openThroughProxy();
    proxy?.freeze();
    let closeCode: number | undefined;
    socket.once('close', (code) => (closeCode = code));
    await closeSocket(socket, 50);
    expect(socket.readyState).toBe(WebSocket.CLOSED);
    expect(closeCode).toBe(1006);
  });
});

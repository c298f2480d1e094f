import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { MarketDataSession } from '../../../backtest/paper-venue/market-data-ws.ts';
import {
  SLOW_CONSUMER_CLOSE_CODE,
  SLOW_CONSUMER_MAX_UNSENT_BYTES,
  sendToReader,
} from '../../../backtest/paper-venue/slow-consumer.ts';
import { realTimer } from '../../../core/venue/index.ts';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A server-side connection and a client that reads nothing until told to. */
async function stalledPair(): Promise<{ server: WebSocket; client: WebSocket }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(wss);
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await new Promise<void>((resolve) => client.once('open', () => resolve()));
  const server = await accepted;
  // Stop reading: what the server sends piles up in the kernel's buffers, then in ws's.
  (client as unknown as { _socket: { pause(): void } })._socket.pause();
  return { server, client };
}

describe('the paper venue and a client that stops reading', () => {
  it('closes the connection with 1008 and a reason once its unsent bytes pass the bound, and sends no more', async () => {
    const { server, client } = await stalledPair();
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      client.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    const frame = 'x'.repeat(1024 * 1024);
    let sent = 0;
    while (sendToReader(server, frame)) {
      sent++;
      if (sent > 4 * (SLOW_CONSUMER_MAX_UNSENT_BYTES / frame.length)) break;
    }
    expect(server.readyState).toBe(server.CLOSING);
    expect(sent).toBeLessThan(2 * (SLOW_CONSUMER_MAX_UNSENT_BYTES / frame.length));
    (client as unknown as { _socket: { resume(): void } })._socket.resume();
    const { code, reason } = await closed;
    expect(code).toBe(SLOW_CONSUMER_CLOSE_CODE);
    expect(reason).toMatch(/^slow consumer/);
  }, 30_000);

  it('drops a market-data subscriber that stopped reading instead of buffering its pushes without limit', async () => {
    const { server } = await stalledPair();
    const session = new MarketDataSession(server, false, {
      syms: new Set(),
      perpetuals: new Set(),
      timer: realTimer(),
      lockstepAck: () => {},
    });
    const frame = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 4 * (SLOW_CONSUMER_MAX_UNSENT_BYTES / frame.length); i++)
      session.sendFrame(frame, () => Buffer.from(frame));
    expect(server.bufferedAmount).toBeLessThan(2 * SLOW_CONSUMER_MAX_UNSENT_BYTES);
    expect(server.readyState).toBe(server.CLOSING);
  }, 30_000);

  it('keeps a connection that reads what it is sent', async () => {
    const { server, client } = await stalledPair();
    (client as unknown as { _socket: { resume(): void } })._socket.resume();
    let received = 0;
    client.on('message', () => received++);
    for (let i = 0; i < 200; i++) sendToReader(server, 'x'.repeat(1024));
    await new Promise<void>((resolve) => {
      const check = () => (received === 200 ? resolve() : setTimeout(check, 10));
      check();
    });
    expect(server.readyState).toBe(server.OPEN);
  });
});

import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import WebSocket from 'ws';
import { D, type Intent, type UserEvent } from '../core/model/index.ts';
import type { ApprovedIntent } from '../core/risk/index.ts';
import {
  hmacSigner,
  LiveExecutionClient,
  MarketDataClient,
  PrivateWsClient,
  VenueRestClient,
} from '../core/venue/index.ts';

// Venue adapter latency over loopback. (1) PLACE_ORDER round trip through Keel's live execution
// client (intent -> args check -> envelope -> ws -> echo-ack server -> ack decode -> order event)
// next to a bare `ws` round trip of the same frame against the same server, in the same run
// (target: Keel <= 1.5x bare). (2) Time from an inbound market-data frame (decode -> strategy
// stand-in -> submit) to the order frame handed to the socket (target p99 < 100 us).
// The echo-ack server runs in a worker thread so it does not share the client's event loop.

const ROUND_TRIPS = 4_000;
const ROUNDS = 3;
const TICKS = 20_000;
const SYM = 'US_EQUITY_AAPL';

const SERVER = `
const { WebSocketServer } = require('ws');
const { parentPort } = require('node:worker_threads');
const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
server.on('listening', () => parentPort.postMessage(server.address().port));
server.on('connection', (socket) => {
  socket.on('message', (data) => {
    const text = String(data);
    if (text === 'ping') return socket.send('pong');
    const msg = JSON.parse(text);
    if (msg.action === 'login') return socket.send(JSON.stringify({ id: null, event: 'login', code: 0, msg: '', data: null }));
    socket.send(JSON.stringify({ event: 'PLACE_ORDER_ACK', id: msg.id, code: 0, message: 'success', data: { orderNo: 'N' + msg.id, orderStatus: 'NEW' } }));
  });
});
`;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
const us = (ns: number): string => (ns / 1_000).toFixed(1);

function placeIntent(ref: string): ApprovedIntent {
  const intent: Intent = {
    kind: 'placeOrder',
    ref,
    sym: SYM,
    side: 'BUY',
    orderType: 'LIMIT',
    qty: D('10'),
    price: D('190.5'),
    timeInForce: 'DAY',
    reduceOnly: false,
    positionSide: 'NONE',
  };
  return { strategyId: 'bench', intent } as ApprovedIntent;
}

async function bareRoundTrips(url: string, n: number): Promise<number[]> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((resolve) => socket.once('open', resolve));
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const frame = `{"action":"PLACE_ORDER","id":"b${i}","args":{"brokerClientId":"acct-1","exchangeCode":"US","productCode":"AAPL","bsFlag":"B","orderType":"L","price":"190.5","qty":10,"orderValidity":"Day","reference":"r${i}"}}`;
    const start = process.hrtime.bigint();
    await new Promise<void>((resolve) => {
      socket.once('message', () => resolve());
      socket.send(frame);
    });
    samples.push(Number(process.hrtime.bigint() - start));
  }
  socket.close();
  return samples;
}

async function keelRoundTrips(live: LiveExecutionClient, n: number, round: number): Promise<number[]> {
  const samples: number[] = [];
  let resolveAck: () => void = () => {};
  const subscription = live.events.subscribe((event: UserEvent) => {
    if (event.kind === 'order') resolveAck();
  });
  for (let i = 0; i < n; i++) {
    const intent = placeIntent(`k${round}-${i}`);
    const start = process.hrtime.bigint();
    await new Promise<void>((resolve) => {
      resolveAck = resolve;
      live.submit(intent);
    });
    samples.push(Number(process.hrtime.bigint() - start));
  }
  subscription.unsubscribe();
  return samples;
}

async function main(): Promise<void> {
  const worker = new Worker(SERVER, { eval: true });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  const url = `ws://127.0.0.1:${port}/v1/private`;
  const logger = pino({ level: 'silent' });
  const signer = hmacSigner('bench-key', 'bench-secret');
  const rest = new VenueRestClient({
    baseUrl: 'http://127.0.0.1:1',
    signer,
    logger,
    retry: { maxRetries: 0, baseMs: 1, capMs: 1 },
  });
  // The echo server has no order limit; the venue's 1200 / 60 s would queue a benchmark's burst.
  const ws = new PrivateWsClient({ url, signer, logger, orderRateLimit: null });
  let seq = 0;
  const live = new LiveExecutionClient({
    rest,
    ws,
    brokerClientId: 'acct-1',
    logger,
    newReference: () => `g${++seq}`,
  });
  await live.start();

  const bare: number[] = [];
  const keel: number[] = [];
  await bareRoundTrips(url, 500);
  await keelRoundTrips(live, 500, -1);
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(...(await bareRoundTrips(url, ROUND_TRIPS)));
    keel.push(...(await keelRoundTrips(live, ROUND_TRIPS, round)));
  }
  bare.sort((a, b) => a - b);
  keel.sort((a, b) => a - b);
  const ratio50 = percentile(keel, 50) / percentile(bare, 50);
  const ratio99 = percentile(keel, 99) / percentile(bare, 99);
  console.log(
    `PLACE_ORDER round trip over loopback, ${bare.length} each (echo-ack server in a worker thread)`,
  );
  console.log(`  bare ws      p50 ${us(percentile(bare, 50))} us   p99 ${us(percentile(bare, 99))} us`);
  console.log(`  Keel client  p50 ${us(percentile(keel, 50))} us   p99 ${us(percentile(keel, 99))} us`);
  console.log(`  ratio        p50 ${ratio50.toFixed(2)}x   p99 ${ratio99.toFixed(2)}x   (target <= 1.5x)`);

  // (2) Inbound market event -> order frame handed to the socket, synchronous all the way.
  const md = new MarketDataClient({ url: 'ws://127.0.0.1:1/unused', binary: false, logger });
  let tick = 0;
  md.events.subscribe((event) => {
    if (event.kind === 'quote') live.submit(placeIntent(`t${tick}`));
  });
  const texts: string[] = [];
  for (let i = 0; i < 1_000; i++) {
    texts.push(
      JSON.stringify({
        arg: { channel: 'BBO', sym: SYM },
        data: {
          bid: (190 + i / 100).toFixed(2),
          bidqty: '300',
          ask: (190.01 + i / 100).toFixed(2),
          askqty: '200',
          ts: 1_700_000_000_000 + i,
        },
      }),
    );
  }
  const gz = texts.map((text) => gzipSync(text));
  const measure = async (binary: boolean): Promise<number[]> => {
    const samples: number[] = [];
    let resolveAck: () => void = () => {};
    const subscription = live.events.subscribe((event) => {
      if (event.kind === 'order') resolveAck();
    });
    for (let i = 0; i < TICKS; i++) {
      tick = i;
      const acked = new Promise<void>((resolve) => {
        resolveAck = resolve;
      });
      const start = process.hrtime.bigint();
      if (binary) md.receive(gz[i % gz.length] as Buffer, true);
      else md.receive(texts[i % texts.length] as string, false);
      samples.push(Number(process.hrtime.bigint() - start));
      await acked;
    }
    subscription.unsubscribe();
    return samples.sort((a, b) => a - b);
  };
  // Baseline: the socket write alone (ws framing + masking + write syscall) of the same frame.
  const rawSocket = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((resolve) => rawSocket.once('open', resolve));
  const writeOnly: number[] = [];
  for (let i = 0; i < TICKS; i++) {
    const frame = `{"action":"PLACE_ORDER","id":"w${i}","args":{"brokerClientId":"acct-1","exchangeCode":"US","productCode":"AAPL","bsFlag":"B","orderType":"L","price":"190.5","qty":10,"orderValidity":"Day","reference":"t${i}"}}`;
    const replied = new Promise((resolve) => rawSocket.once('message', resolve));
    const start = process.hrtime.bigint();
    rawSocket.send(frame);
    writeOnly.push(Number(process.hrtime.bigint() - start));
    await replied;
  }
  rawSocket.close();
  writeOnly.sort((a, b) => a - b);
  await measure(false);
  const text = await measure(false);
  const binary = await measure(true);
  console.log(
    `Inbound market event -> order frame written, ${TICKS} ticks (decode + strategy stand-in + submit)`,
  );
  console.log(
    `  text frames  p50 ${us(percentile(text, 50))} us   p99 ${us(percentile(text, 99))} us   (target p99 < 100 us)`,
  );
  console.log(`  gzip frames  p50 ${us(percentile(binary, 50))} us   p99 ${us(percentile(binary, 99))} us`);
  console.log(
    `  of which a bare ws.send of the order frame: p50 ${us(percentile(writeOnly, 50))} us   p99 ${us(percentile(writeOnly, 99))} us`,
  );

  await live.stop();
  await rest.close();
  await worker.terminate();
}

await main();

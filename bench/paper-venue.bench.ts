import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { type FeedPacing, recordingFeed, startPaperVenue } from '../backtest/paper-venue/index.ts';
import { EXAMPLE_SESSION_FILE, SYNTHETIC_INSTRUMENTS } from '../backtest/synthetic/index.ts';

// Paper venue over loopback: (1) the example SYNTHETIC session replayed as fast as possible to one
// gzip subscriber of every BBO and TRADE channel; (2) the same in lockstep, the client acking each
// event it receives; (3) REST place + cancel round trips signed by hand with plain fetch.

const SESSION = join(
  fileURLToPath(new URL('.', import.meta.url)),
  '../backtest/sessions',
  EXAMPLE_SESSION_FILE,
);
const INSTRUMENTS = Object.values(SYNTHETIC_INSTRUMENTS);
const LOCKSTEP_EVENTS = 5_000;
const ROUND_TRIPS = 500;

function opened(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function replay(
  pacing: FeedPacing,
  limit: number,
  text = false,
): Promise<{ events: number; frames: number; ms: number }> {
  const venue = await startPaperVenue({
    instruments: INSTRUMENTS,
    feed: recordingFeed(SESSION),
    pacing,
  });
  const ws = await opened(
    `${venue.marketDataWsUrl}${text || pacing.mode === 'lockstep' ? '?binary=false' : ''}`,
  );
  let frames = 0;
  ws.on('message', (data, isBinary) => {
    if (!isBinary && String(data).includes('"event"')) return;
    frames++;
    if (pacing.mode === 'lockstep')
      ws.send(JSON.stringify({ event: 'lockstep_ack', seq: JSON.parse(String(data)).seq }));
  });
  const arg = INSTRUMENTS.flatMap((s) => ['BBO', 'TRADE'].map((channel) => ({ channel, sym: s.sym })));
  ws.send(JSON.stringify({ event: 'subscribe', arg }));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const start = performance.now();
  if (pacing.mode === 'lockstep') ws.send(JSON.stringify({ event: 'lockstep_ack', seq: 0 }));
  await venue.feed.until(limit);
  const ms = performance.now() - start;
  const events = venue.feed.released;
  ws.terminate();
  await venue.close();
  return { events, frames, ms };
}

async function roundTrips(): Promise<number[]> {
  const venue = await startPaperVenue({ instruments: INSTRUMENTS, pacing: { mode: 'manual' } });
  const send = async (method: string, path: string, body: Record<string, unknown>) => {
    const nonce = String(Math.floor(Date.now() / 1000));
    const text = Object.keys(body)
      .sort()
      .map((k) => `${k}=${String(body[k])}`)
      .join('&');
    const signature = createHmac('sha256', venue.apiSecret).update(`${text}&${nonce}`).digest('hex');
    const response = await fetch(`${venue.restUrl}${path}`, {
      method,
      headers: { 'X-MBX-APIKEY': venue.apiKey, nonce, signature, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { code: number };
  };
  const times: number[] = [];
  for (let i = 0; i < ROUND_TRIPS; i++) {
    const t0 = performance.now();
    const ref = `b-${i}`;
    const placed = await send('POST', '/api/v1/trading/order', {
      sym: 'BINANCE_PERP_BTC_USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '0.001',
      limitPrice: '90000.0',
      clientOrderId: ref,
    });
    const cancelled = await send('DELETE', '/api/v1/trading/order', { clientOrderId: ref });
    if (placed.code !== 0 || cancelled.code !== 0)
      throw new Error(`round trip ${i} refused: ${placed.code} ${cancelled.code}`);
    times.push(performance.now() - t0);
  }
  await venue.close();
  return times.sort((a, b) => a - b);
}

const asap = await replay({ mode: 'asap' }, Number.POSITIVE_INFINITY);
process.stdout.write(
  `asap replay: ${asap.events} events in ${asap.ms.toFixed(0)} ms = ${Math.round((asap.events / asap.ms) * 1000)} events/s, ${asap.frames} gzip frames to one subscriber\n`,
);
const plain = await replay({ mode: 'asap' }, Number.POSITIVE_INFINITY, true);
process.stdout.write(
  `asap replay, ?binary=false: ${plain.events} events in ${plain.ms.toFixed(0)} ms = ${Math.round((plain.events / plain.ms) * 1000)} events/s (one gzip per push costs ~55 us)\n`,
);
const lockstep = await replay({ mode: 'lockstep' }, LOCKSTEP_EVENTS);
process.stdout.write(
  `lockstep: ${lockstep.events} events in ${lockstep.ms.toFixed(0)} ms = ${Math.round((lockstep.events / lockstep.ms) * 1000)} events/s (${lockstep.frames} acked by the client)\n`,
);
const rt = await roundTrips();
const at = (p: number) =>
  (rt[Math.min(rt.length - 1, Math.floor((p / 100) * rt.length))] ?? Number.NaN).toFixed(2);
process.stdout.write(
  `REST place + cancel over loopback (${ROUND_TRIPS}): p50 ${at(50)} ms, p99 ${at(99)} ms\n`,
);
